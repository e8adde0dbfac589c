package cli

import (
	"flag"
	"os"
	"testing"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// testCluster is the embedded 3-broker cluster (plain, SASL_SSL and SSL listeners) the integration tests share; nil under -short,
// where the tests that need it skip and the others run on kfake or on no cluster at all.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() == "^$" {
		os.Exit(m.Run()) // benchmarks only (make bench): no test needs the cluster
	}
	// SASL and TLS listeners too, for the connection checks (preflight_test.go) and the
	// secrets test (secrets_test.go); the other tests use the plain listener, testCluster.Bootstrap().
	os.Exit(clustertest.Run(m, cluster.Options{Brokers: 3, SASL: "scram-sha-512", TLS: true}, &testCluster))
}
