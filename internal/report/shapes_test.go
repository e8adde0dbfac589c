package report

import (
	"slices"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// A run whose scenarios ran on clusters of different shapes shows each scenario's cluster
// in the environment instead of the first cluster's broker count and version.
func TestRunEnvironmentShapes(t *testing.T) {
	one := &results.Shape{Brokers: 1, KafkaVersion: "3.9.1", Heap: "512m"}
	three := &results.Shape{Brokers: 3, KafkaVersion: "4.1.1", Heap: "512m", Limits: "0.5 cores (CFS quota)"}
	run := &results.Run{
		Environment: results.Environment{Cluster: results.Embedded, Brokers: 1, KafkaVersion: "3.9.1"},
		Scenarios:   []results.Scenario{{ID: "brokers=1", Cluster: one}, {ID: "brokers=3", Cluster: three}, {ID: "brokers=6"}},
	}
	rows := runEnvironmentRows(run)
	for _, want := range []KV{
		{"Cluster", "embedded"},
		{"Cluster of brokers=1", "1 broker, Kafka 3.9.1, heap 512m"},
		{"Cluster of brokers=3", "3 brokers, Kafka 4.1.1, heap 512m, 0.5 cores (CFS quota)"},
		{"Cluster of brokers=6", "not run"},
	} {
		if !slices.Contains(rows, want) {
			t.Errorf("rows %v lack %v", rows, want)
		}
	}
	for _, r := range rows {
		if r.Key == "Kafka version" {
			t.Errorf("a run of several versions shows one: %v", r)
		}
	}
	// One shape: the environment as before, no per-scenario rows.
	run.Scenarios = run.Scenarios[:1]
	rows = runEnvironmentRows(run)
	if !slices.Contains(rows, KV{"Cluster", "embedded, 1 broker"}) || !slices.Contains(rows, KV{"Kafka version", "3.9.1"}) {
		t.Errorf("one shape: rows %v", rows)
	}
}

// Two runs' clusters are compared scenario by scenario when either varied the shape.
func TestShapeDifferences(t *testing.T) {
	a := &results.Run{Scenarios: []results.Scenario{{ID: "x", Cluster: &results.Shape{Brokers: 3, KafkaVersion: "3.9.1"}}}}
	b := &results.Run{Scenarios: []results.Scenario{{ID: "x", Cluster: &results.Shape{Brokers: 3, KafkaVersion: "4.1.1"}}}}
	got := shapeDifferences(a, b, "x")
	want := []Difference{{What: "cluster Kafka version", A: "3.9.1", B: "4.1.1"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if d := shapeDifferences(a, a, "x"); len(d) != 0 {
		t.Errorf("same shape: %v", d)
	}
	if d := shapeDifferences(a, &results.Run{Scenarios: []results.Scenario{{ID: "x"}}}, "x"); d != nil {
		t.Errorf("unrecorded shape: %v", d)
	}
}

// Compare judges a run that varied the cluster's shape scenario by scenario: a scenario
// whose cluster differs is marked and not judged, the others are, even though the runs'
// environments (each its first cluster's) differ in broker count.
func TestCompareShapes(t *testing.T) {
	base := defaultFixture()
	base.invalid = nil
	a, b := readFixture(t, base), readFixture(t, base)
	for i := range a.Run.Scenarios {
		brokers := 1 + 2*(i%2) // two shapes: 1 and 3 brokers
		a.Run.Scenarios[i].Cluster = &results.Shape{Brokers: brokers, KafkaVersion: "4.1.1"}
		b.Run.Scenarios[i].Cluster = &results.Shape{Brokers: brokers, KafkaVersion: "4.1.1"}
	}
	changed := b.Run.Scenarios[0].ID
	b.Run.Scenarios[0].Cluster = &results.Shape{Brokers: 1, KafkaVersion: "3.9.1"}
	a.Run.Environment.Brokers, b.Run.Environment.Brokers = 1, 3
	c, err := Compare(a, b, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Cluster) != 0 {
		t.Errorf("run-level cluster differences %v, want none (compared per scenario)", c.Cluster)
	}
	want := []ScenarioDifferences{{Scenario: changed, Differences: []Difference{{What: "cluster Kafka version", A: "4.1.1", B: "3.9.1"}}}}
	if len(c.Workloads) != 1 || c.Workloads[0].Scenario != changed || !slices.Equal(c.Workloads[0].Differences, want[0].Differences) {
		t.Errorf("workload differences %+v, want %+v", c.Workloads, want)
	}
	for _, d := range c.Deltas {
		if d.Differs != (d.Scenario == changed) {
			t.Errorf("%s %s differs=%v", d.Scenario, d.Metric, d.Differs)
		}
	}
}
