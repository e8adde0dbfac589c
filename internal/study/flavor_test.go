package study

import (
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/flavor"
)

// TestParseFlavor reads a broker flavor and disk class from the cluster block.
func TestParseFlavor(t *testing.T) {
	for _, tc := range []struct {
		cluster string
		want    flavor.Limits
		err     string // file:line: field: message substring
	}{
		{cluster: "{broker_cpus: 0.5, heap: 1g, cpuset: 0-1}", want: flavor.Limits{CPUs: 0.5, Cpuset: "0-1"}},
		// 50 MiB/s = 52,428,800 B/s; 2 MiB/s = 2,097,152 B/s.
		{cluster: "{disk: {write_mib_per_sec: 50, write_iops: 2000, read_mib_per_sec: 2, read_iops: 100}}",
			want: flavor.Limits{Disk: flavor.Disk{WriteBPS: 52428800, WriteIOPS: 2000, ReadBPS: 2097152, ReadIOPS: 100}}},
		{cluster: "{disk: tmpfs}", want: flavor.Limits{Disk: flavor.Disk{Tmpfs: true}}},
		{cluster: "{broker_cpus: 0}", err: "f.yaml:2: cluster.broker_cpus: \"0\" is not a CPU quota in cores of at least 0.01"},
		{cluster: "{broker_cpus: half}", err: "cluster.broker_cpus: \"half\" is not a CPU quota"},
		{cluster: "{cpuset: 2-1}", err: "f.yaml:2: cluster.cpuset: \"2-1\" is not a CPU list"},
		{cluster: "{disk: ssd}", err: "cluster.disk: \"ssd\" is not tmpfs or a mapping"},
		{cluster: "{disk: {write_mib: 5}}", err: "cluster.disk.write_mib: unknown key \"write_mib\""},
		{cluster: "{disk: {write_iops: 1.5}}", err: "cluster.disk.write_iops: \"1.5\" is not a positive number"},
		{cluster: "{disk: {}}", err: "cluster.disk: empty"},
		{cluster: "{broker_cpus: 1, external: {bootstrap: k:9092}}", err: "cluster.broker_cpus: applies only to the embedded cluster"},
	} {
		plan := parseCluster(t, tc.cluster, tc.err)
		if plan == nil {
			continue
		}
		if plan.Cluster.Limits != tc.want {
			t.Errorf("%s: limits %+v, want %+v", tc.cluster, plan.Cluster.Limits, tc.want)
		}
	}
}

// parseCluster parses a study whose cluster block is cluster. With wantErr it checks that
// the parse failed so and returns nil; otherwise it returns the plan, or nil after
// reporting the error.
func parseCluster(t *testing.T, cluster, wantErr string) *Plan {
	t.Helper()
	plan, err := Parse("f.yaml", []byte("name: f\ncluster: "+cluster+"\n"))
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: error %v, want %q", cluster, err, wantErr)
		}
		return nil
	}
	if err != nil {
		t.Errorf("%s: %v", cluster, err)
		return nil
	}
	return plan
}
