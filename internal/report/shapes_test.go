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
	if !slices.Contains(rows, KV{"Cluster", "embedded, 1 brokers"}) || !slices.Contains(rows, KV{"Kafka version", "3.9.1"}) {
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
