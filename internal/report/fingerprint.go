package report

import (
	"maps"

	"github.com/kbench/kbench/internal/results"
)

// The facts compare checks before it judges two runs, and the figures it judges, for
// commands that follow a scenario across many runs (kbench history): two runs measured
// the same thing when these facts are equal, the rule Compare applies pair by pair.

// TrendMetric is a figure Compare judges, with the direction that is better.
type TrendMetric struct {
	// Name is the figure's name as a claim or --metric writes it; Label as tables show it.
	Name, Label  string
	HigherBetter bool
}

// TrendMetrics lists the figures Compare judges, in its order.
func TrendMetrics() []TrendMetric {
	out := make([]TrendMetric, len(compareMetrics))
	for i, m := range compareMetrics {
		out[i] = TrendMetric{Name: m.name, Label: m.label, HigherBetter: m.higherBetter}
	}
	return out
}

// Metric is the figure called name in one repeat (a TrendMetric's name, or any figure a
// claim may name); ok is false when the repeat has none.
func Metric(r results.Repeat, name string) (float64, bool) { return metric(r, name) }

// ClusterFacts names the facts of the cluster scenario id of run ran on that Compare
// checks: Kafka's version, embedded or external, the broker count, each broker's CPU
// allotment and the security protocol; when the run varied the cluster's shape, the
// scenario's own recorded cluster stands in for the run's first one, as in Compare.
func ClusterFacts(run *results.Run, id string) map[string]string {
	e := run.Environment
	shape := scenarioShape(run, id)
	if shape == nil || !variesShape(run) {
		return clusterFacts(e)
	}
	e.Brokers, e.KafkaVersion, e.BrokerCPUs = 0, "", 0
	m := clusterFacts(e)
	maps.Copy(m, shapeFacts(shape))
	return m
}

// WorkloadFacts names what a repeat's clients were asked to do, as Compare checks it: the
// workload, the topic and every client property, defaults included.
func WorkloadFacts(r results.Repeat) map[string]string { return workloadFacts(r) }
