package metrics

import (
	"flag"
	"os"
	"testing"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// testCluster is the embedded 3-broker cluster the integration tests share; nil under -short.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	if os.Getenv(spinEnv) != "" {
		spinChild() // the re-executed binary of TestCPUOfSpinningProcess; never returns
	}
	flag.Parse()
	if f := flag.Lookup("test.run"); f != nil && f.Value.String() == "^$" {
		os.Exit(m.Run()) // benchmarks only (make bench): no test needs the cluster
	}
	os.Exit(clustertest.Run(m, cluster.Options{Brokers: 3}, &testCluster))
}
