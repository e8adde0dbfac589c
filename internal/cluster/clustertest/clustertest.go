// Package clustertest shares one embedded Kafka cluster among the tests of a package: a
// cluster start costs about 20 s, so TestMain starts it once and each test uses its own topics.
//
//	var testCluster *cluster.Cluster
//
//	func TestMain(m *testing.M) {
//		os.Exit(clustertest.Run(m, cluster.Options{Brokers: 3}, &testCluster))
//	}
//
// Under `go test -short`, or with -run '^$', no cluster is started and *c stays nil; tests that need it call
// clustertest.Need(t, testCluster) to skip.
package clustertest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/kbench/kbench/internal/cluster"
)

// Run starts a cluster with opts (in a temporary directory unless opts.Dir is set), stores
// it in *c, runs the tests and stops the cluster. It returns the exit code for os.Exit.
func Run(m *testing.M, opts cluster.Options, c **cluster.Cluster) int {
	flag.Parse()
	if testing.Short() || runsNoTest() {
		return m.Run()
	}
	if os.Getenv("KBENCH_TEST_VERBOSE") != "" {
		opts.Log = os.Stderr
	}
	started, err := cluster.Start(context.Background(), opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "clustertest: start embedded cluster: %v\n", err)
		return 1
	}
	*c = started
	code := m.Run()
	if err := started.Stop(); err != nil {
		fmt.Fprintf(os.Stderr, "clustertest: stop embedded cluster: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// Need skips t when no cluster was started (go test -short).
func Need(t testing.TB, c *cluster.Cluster) {
	t.Helper()
	if c == nil {
		t.Skip("needs the embedded Kafka cluster (not started under -short)")
	}
}

// runsNoTest reports whether -run selects no test (`make bench` runs benchmarks with
// -run '^$'), so no cluster is started for nothing.
func runsNoTest() bool {
	f := flag.Lookup("test.run")
	return f != nil && f.Value.String() == "^$"
}

// WriteStoppedState records in dir an embedded cluster that is not running: one broker
// whose PID is the test's own, which is no Kafka broker, with a plain listener on
// 127.0.0.1:19092 and :19093.
func WriteStoppedState(t testing.TB, dir string) {
	t.Helper()
	state := fmt.Sprintf(`{"format": 1, "dir": %q, "kafka_version": "4.1.1", "heap": "512m",
		"endpoints": [{"name": "plain", "protocol": "PLAINTEXT", "bootstrap": "127.0.0.1:19092,127.0.0.1:19093"}],
		"brokers": [{"id": 1, "pid": %d, "port": 19092, "controller": true}]}`, dir, os.Getpid())
	if err := os.WriteFile(filepath.Join(dir, "cluster.json"), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
}
