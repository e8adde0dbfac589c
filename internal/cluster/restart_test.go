package cluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stoppedCluster is a cluster record whose brokers are not running: PIDs that no kafka.Kafka
// JVM of this directory holds (this test's own PID is not a broker).
func stoppedCluster(t *testing.T) *Cluster {
	t.Helper()
	dir := t.TempDir()
	return &Cluster{state: state{Dir: dir, ClusterID: "abc", Brokers: []Broker{
		{ID: 1, PID: os.Getpid(), Port: 9092, Controller: true, MetricsURL: "http://127.0.0.1:7071/metrics"},
		{ID: 2, PID: 0, Port: 9093},
	}}}
}

func TestKillRefuses(t *testing.T) {
	c := stoppedCluster(t)
	for _, tc := range []struct {
		name string
		id   int
		sig  syscall.Signal
		want string
	}{
		{"unknown broker", 7, syscall.SIGKILL, "broker 7: not in this cluster (brokers [1 2])"},
		{"signal not offered", 1, syscall.SIGHUP, "signal hangup: want one of"},
		// PID 1 holds this test's PID, which is not a broker of the directory: never signalled.
		{"pid is not the broker", 1, syscall.SIGKILL, "broker 1 (pid"},
		{"no pid", 2, syscall.SIGSTOP, "broker 2 (pid 0) is not running"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := c.Kill(tc.id, tc.sig)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Kill: %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestWaitExitedOfStoppedBroker(t *testing.T) {
	c := stoppedCluster(t)
	if err := c.WaitExited(context.Background(), 2, time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestRestartNodeKeepsPorts(t *testing.T) {
	c := stoppedCluster(t)
	// Broker 1's metrics port comes from its URL; broker 2 had no exporter.
	for _, tc := range []struct {
		b    Broker
		want node
	}{
		{c.state.Brokers[0], node{ID: 1, Client: 9092, Controller: true, Metrics: 7071}},
		{c.state.Brokers[1], node{ID: 2, Client: 9093}},
	} {
		if got := restartNode(tc.b); got != tc.want {
			t.Errorf("restartNode(broker %d) = %+v, want %+v", tc.b.ID, got, tc.want)
		}
	}
}

func TestBrokerGroup(t *testing.T) {
	c := stoppedCluster(t)
	if g, err := c.brokerGroup(1); g != nil || err != nil {
		t.Fatalf("no cgroups: got %v, %v", g, err)
	}
	root := t.TempDir()
	v1cpu := filepath.Join(root, "cpu", "kbench-abc-broker-1")
	v1io := filepath.Join(root, "blkio", "kbench-abc-broker-1")
	other := filepath.Join(root, "cpu", "kbench-abc-broker-2")
	v2 := filepath.Join(root, "unified", "kbench-abc-broker-2")
	for _, d := range []string{v1cpu, v1io, other, v2} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(v2, "cgroup.controllers"), []byte("cpu io\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.state.Cgroups = []string{v1cpu, v1io, other}
	g, err := c.brokerGroup(1)
	if err != nil || g.Version != 1 || len(g.Dirs) != 2 || g.Dirs[0] != v1cpu || g.Dirs[1] != v1io {
		t.Fatalf("broker 1: got %+v, %v; want v1 with its cpu and blkio dirs", g, err)
	}
	c.state.Cgroups = []string{v1cpu, v2}
	if g, err := c.brokerGroup(2); err != nil || g.Version != 2 || len(g.Dirs) != 1 {
		t.Fatalf("broker 2: got %+v, %v; want v2 with one dir", g, err)
	}
	c.state.Cgroups = []string{v1cpu}
	if _, err := c.brokerGroup(2); err == nil || !strings.Contains(err.Error(), "kbench-abc-broker-2 is not in cluster.json") {
		t.Fatalf("missing cgroup: %v", err)
	}
}

func TestRestartRefusesRunningOrCopied(t *testing.T) {
	c := stoppedCluster(t)
	c.state.Brokers[1].exited = make(chan struct{}) // an own child that has not exited
	if _, err := c.Restart(context.Background(), 2); err == nil || !strings.Contains(err.Error(), "still running") {
		t.Fatalf("running broker: %v", err)
	}
	c = stoppedCluster(t)
	c.firstDir = "/elsewhere"
	if _, err := c.Restart(context.Background(), 2); err == nil || !strings.Contains(err.Error(), "is a copy of the cluster started in /elsewhere") {
		t.Fatalf("copied directory: %v", err)
	}
}

func TestCutWithoutProxies(t *testing.T) {
	c := stoppedCluster(t)
	if err := c.Cut(1, true); !errors.Is(err, ErrNoProxies) {
		t.Fatalf("Cut: %v, want ErrNoProxies", err)
	}
	c.state.Network = &network{ProxyPID: 4242, BrokerRTT: "0s"}
	if err := c.Cut(1, true); err == nil || !strings.Contains(err.Error(), "the zone proxy process (pid 4242) is not running") {
		t.Fatalf("Cut with a proxy process not running: %v", err)
	}
	if got := c.brokerRoutes(2); len(got) != 1 || got[0] != "internal-2" {
		t.Errorf("routes of broker 2 with a broker link: %v", got)
	}
	c.state.Network.ClientRTT = "2ms"
	if got := c.brokerRoutes(2); len(got) != 2 || got[0] != "remote-2" || got[1] != "internal-2" {
		t.Errorf("routes of broker 2 with both links: %v", got)
	}
}
