package verify

import (
	"os"
	"testing"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// testCluster is the embedded 3-broker cluster the controls share (nil under -short): every
// node is also a KRaft controller, so a fault on one leaves a quorum of two.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	os.Exit(clustertest.Run(m, cluster.Options{Brokers: 3}, &testCluster))
}
