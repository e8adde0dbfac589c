// Package kfaketest starts franz-go's in-process fake Kafka (kfake) for a test, as clustertest
// shares the embedded real cluster: it starts in milliseconds, so each test has its own.
//
//	c, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(3, "t"))
package kfaketest

import (
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
)

// Start starts a fake cluster with opts and closes it when the test and its subtests end. It
// returns the cluster, for fault injection with ControlKey, and its comma-separated
// bootstrap list.
func Start(t testing.TB, opts ...kfake.Opt) (*kfake.Cluster, string) {
	t.Helper()
	c, err := kfake.NewCluster(opts...)
	if err != nil {
		t.Fatalf("start fake cluster: %v", err)
	}
	t.Cleanup(c.Close)
	return c, strings.Join(c.ListenAddrs(), ",")
}
