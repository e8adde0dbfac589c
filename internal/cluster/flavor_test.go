package cluster

import (
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/flavor"
)

func TestLogDirs(t *testing.T) {
	nodes := []node{{ID: 1, Controller: true, Internal: 1, Client: 2, CtrlPort: 3}}
	for _, tc := range []struct {
		name string
		opts Options
		want string
	}{
		{"on disk", Options{Dir: "/c"}, "log.dirs=/c/broker-1/data\n"},
		// The tmpfs disk class: broker-N under the cluster's memory-backed directory.
		{"tmpfs", Options{Dir: "/c", dataRoot: "/dev/shm/kbench-X"}, "log.dirs=/dev/shm/kbench-X/broker-1\n"},
	} {
		got := serverProperties(nodes[0], nodes, tc.opts.Dir, tc.opts, nil)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: server.properties lacks %q:\n%s", tc.name, tc.want, got)
		}
	}
}

// A cluster read back from its state names the same log dirs its brokers were given.
func TestClusterLogDirs(t *testing.T) {
	brokers := []Broker{{ID: 1}, {ID: 2}}
	for _, tc := range []struct {
		name string
		st   state
		want []string
	}{
		{"on disk", state{Dir: "/c", Brokers: brokers}, []string{"/c/broker-1/data", "/c/broker-2/data"}},
		{"tmpfs", state{Dir: "/c", TmpfsDir: "/dev/shm/kbench-X", Brokers: brokers},
			[]string{"/dev/shm/kbench-X/broker-1", "/dev/shm/kbench-X/broker-2"}},
	} {
		got := (&Cluster{state: tc.st}).LogDirs()
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWriteThrottleNeedsSyncWritesOnV1(t *testing.T) {
	ok, err := flavorHost.ThrottlesBufferedWrites()
	if err != nil || ok {
		t.Skip("this host's blkio controller is not cgroup v1")
	}
	limited := flavor.Limits{Disk: flavor.Disk{WriteBPS: 5 * flavor.Mi}}
	for _, tc := range []struct {
		opts Options
		err  string
	}{
		{Options{Limits: limited}, "does not charge buffered writeback"},
		{Options{Limits: limited, BrokerConfig: map[string]string{"log.flush.interval.messages": "1"}}, ""},
		{Options{Limits: flavor.Limits{Disk: flavor.Disk{ReadBPS: 1}}}, ""},
	} {
		err := tc.opts.validate()
		if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%+v: error %v, want %q", tc.opts.Limits, err, tc.err)
		}
	}
}
