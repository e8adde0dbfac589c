package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// On a shared host without CPU quotas the brokers' allotment is a share of the host's cores:
// a saturated host is the limit, not the broker that used most of its share. With a quota the
// broker's own CPU is.
func TestSharedHostBusy(t *testing.T) {
	shared := results.Environment{BrokerCPUBasis: "0.667 cores: the host's cores shared by 3 brokers (no CPU quota)"}
	quota := results.Environment{BrokerCPUBasis: "0.5 cores: the broker's own CPU quota"}
	for _, tc := range []struct {
		name string
		m    measured
		env  results.Environment
		want bool
	}{
		{"shared host, 97% busy", measured{hasHost: true, hostPct: 97}, shared, true},
		{"shared host at the threshold", measured{hasHost: true, hostPct: hostCPUBusy}, shared, true},
		{"shared host, 80% busy", measured{hasHost: true, hostPct: 80}, shared, false},
		{"own quota, 97% busy", measured{hasHost: true, hostPct: 97}, quota, false},
		{"remote brokers", measured{hasHost: true, hostPct: 97, remote: true}, shared, false},
		{"host not measured", measured{}, shared, false},
	} {
		if got := sharedHostBusy(tc.m, tc.env); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestScenarioLimitUsesItsCluster: in a run that varied the shape, a scenario on a cluster
// with CPU quotas is judged by its own cluster's allotment, not by the first cluster's "no
// CPU quota": a broker at 96% of its quota on a saturated host is limited by its broker CPU.
func TestScenarioLimitUsesItsCluster(t *testing.T) {
	first := results.Environment{BrokerCPUBasis: "0.667 cores: the host's cores shared by 3 brokers (no CPU quota)", Brokers: 3}
	quota := &results.Shape{Brokers: 3, KafkaVersion: "4.1.1", Limits: "0.25 cores (CFS quota)", BrokerCPUBasis: "broker 1: 0.25 cores: the broker's own CPU quota"}
	m := measured{hasHost: true, hostPct: 100, hasBroker: true, brokerPct: 96}
	if !sharedHostBusy(m, scenarioEnvironment(first, nil)) {
		t.Errorf("without a recorded cluster the run's environment (no quota) applies")
	}
	env := scenarioEnvironment(first, quota)
	if sharedHostBusy(m, env) {
		t.Errorf("the scenario's own quota was ignored: %q", env.BrokerCPUBasis)
	}
	if env.BrokerLimits != "0.25 cores (CFS quota)" || env.Brokers != 3 || env.KafkaVersion != "4.1.1" {
		t.Errorf("environment %+v", env)
	}
	if first.BrokerCPUBasis != "0.667 cores: the host's cores shared by 3 brokers (no CPU quota)" {
		t.Errorf("the run's environment was changed")
	}
}

// TestDiskWriteLimit: a broker that wrote at 70% or more of its disk class's write limit is
// limited by that limit, even on a saturated shared host; below it, or without a limit, the
// other rules apply.
func TestDiskWriteLimit(t *testing.T) {
	shared := results.Environment{BrokerCPUBasis: "0.667 cores: the host's cores shared by 3 brokers (no CPU quota)", Host: results.Host{Cores: 2}}
	repeat := func(writeMiB float64) results.Repeat {
		return results.Repeat{BrokerSummary: []results.BrokerSummary{
			{Broker: "1", Fields: map[string]results.Stats{results.FieldDiskWriteBps: {Mean: writeMiB * (1 << 20)}}},
			{Broker: "2", Fields: map[string]results.Stats{results.FieldDiskWriteBps: {Mean: 0.5 * (1 << 20)}}},
			{Broker: results.HostSeries, Fields: map[string]results.Stats{results.FieldHostCPUPct: {Mean: 99}}},
		}}
	}
	limit3 := &results.Shape{Brokers: 3, DiskWriteLimit: 3 << 20}
	for _, tc := range []struct {
		name     string
		writes   []float64 // the busiest broker's MiB/s per repeat
		shape    *results.Shape
		resource string
	}{
		// median 2.4 MiB/s >= 0.7 x 3 = 2.1 MiB/s
		{"at the limit", []float64{2.3, 2.4, 2.42}, limit3, "disk write limit"},
		// median 2.0 < 2.1: the saturated shared host is the limit
		{"below the limit", []float64{2.0, 1.9, 2.1}, limit3, "host CPU"},
		{"no disk class", []float64{2.75, 2.7, 2.8}, &results.Shape{Brokers: 3}, "host CPU"},
		{"no recorded cluster", []float64{2.75, 2.7, 2.8}, nil, "host CPU"},
	} {
		var valid []results.Repeat
		for _, w := range tc.writes {
			valid = append(valid, repeat(w))
		}
		got := limitOf(Row{}, valid, shared, tc.shape)
		if got.Resource != tc.resource {
			t.Errorf("%s: limit %q (%s), want %q", tc.name, got.Resource, got.Evidence, tc.resource)
		}
	}
}

// Brokers on this host talk over loopback, which the host's network figures leave out: the
// evidence gives the busiest broker's own traffic instead of "network 0 MiB/s". Broker 1
// takes 10 MiB/s from clients and serves 20 MiB/s to followers; broker 2 fetches 10 MiB/s
// from leaders: the busiest direction of any broker is 20 MiB/s.
func TestLoopbackBrokersNetwork(t *testing.T) {
	const mib = 1 << 20
	r := results.Repeat{BrokerSummary: []results.BrokerSummary{
		{Broker: "1", Fields: map[string]results.Stats{results.FieldBytesInBps: {Mean: 10 * mib}, results.FieldReplicationOutBps: {Mean: 20 * mib}}},
		{Broker: "2", Fields: map[string]results.Stats{results.FieldReplicationInBps: {Mean: 10 * mib}}},
		{Broker: results.HostSeries, Fields: map[string]results.Stats{results.FieldHostNetRxBps: {Mean: 0}, results.FieldHostNetTxBps: {Mean: 0}}},
	}}
	m := measure(Row{}, []results.Repeat{r}, results.Environment{Cluster: results.Embedded})
	have, missing := m.evidence()
	got := strings.Join(have, "; ")
	if !strings.Contains(got, "busiest broker network 20.0 MiB/s (clients and replication)") || strings.Contains(got, "network 0 MiB/s") {
		t.Errorf("evidence %q", got)
	}
	if slices.Contains(missing, "network") {
		t.Errorf("missing %q names the network", missing)
	}
}
