package report

import (
	"fmt"

	"github.com/kbench/kbench/internal/results"
)

// A study may vary the embedded cluster's shape (brokers, Kafka version, heap, limits):
// run.json then records each scenario's cluster, and the run-level environment describes
// only the cluster that was started first.

// variesShape reports whether the run's scenarios ran on clusters of different shapes.
func variesShape(run *results.Run) bool {
	var first *results.Shape
	for _, s := range run.Scenarios {
		if s.Cluster == nil {
			continue
		}
		if first == nil {
			first = s.Cluster
		} else if *s.Cluster != *first {
			return true
		}
	}
	return false
}

// runEnvironmentRows are the environment's rows; when the scenarios ran on clusters of
// different shapes, the run-level broker count, version, limits and allotment (the first
// cluster's) give way to one row per scenario with its cluster.
func runEnvironmentRows(run *results.Run) []KV {
	if !variesShape(run) {
		return environmentRows(run.Environment)
	}
	e := run.Environment
	e.Brokers, e.KafkaVersion, e.BrokerLimits, e.BrokerCPUs, e.BrokerCPUBasis = 0, "", "", 0, ""
	kv := environmentRows(e)
	for _, s := range run.Scenarios {
		shape := "not run"
		if s.Cluster != nil {
			shape = s.Cluster.String()
			if s.Cluster.BrokerCPUBasis != "" {
				shape += "; CPU allotment " + s.Cluster.BrokerCPUBasis
			}
		}
		kv = append(kv, KV{fmt.Sprintf("Cluster of %s", s.ID), shape})
	}
	return kv
}

// scenarioShape is the recorded cluster of scenario id, nil when none was recorded.
func scenarioShape(run *results.Run, id string) *results.Shape {
	for _, s := range run.Scenarios {
		if s.ID == id {
			return s.Cluster
		}
	}
	return nil
}

// shapeDifferences lists what differs between the clusters one scenario ran on in two runs,
// when both recorded it.
func shapeDifferences(a, b *results.Run, id string) []Difference {
	sa, sb := scenarioShape(a, id), scenarioShape(b, id)
	if sa == nil || sb == nil {
		return nil
	}
	return diffMaps(shapeFacts(sa), shapeFacts(sb))
}

// shapeFacts names the facts of an embedded cluster's shape that change a scenario's figures.
func shapeFacts(s *results.Shape) map[string]string {
	return map[string]string{"cluster brokers": fmt.Sprint(s.Brokers), "cluster Kafka version": s.KafkaVersion,
		"cluster heap": s.Heap, "cluster broker limits": s.Limits, "cluster CPU allotment": s.BrokerCPUBasis}
}

// recordsShapes reports whether every scenario of the run recorded its cluster.
func recordsShapes(run *results.Run) bool {
	for _, s := range run.Scenarios {
		if s.Cluster == nil {
			return false
		}
	}
	return len(run.Scenarios) > 0
}

// scenarioEnvironment is the environment a scenario ran in: the run's, with the cluster
// facts of the scenario's own recorded cluster when it has one (a run that varied the
// shape records the first cluster at run level, so a later cluster's quota would otherwise
// be judged by the first's "no CPU quota").
func scenarioEnvironment(env results.Environment, shape *results.Shape) results.Environment {
	if shape == nil {
		return env
	}
	env.Brokers, env.KafkaVersion, env.BrokerLimits = shape.Brokers, shape.KafkaVersion, shape.Limits
	if shape.BrokerCPUBasis != "" {
		env.BrokerCPUBasis = shape.BrokerCPUBasis
	}
	return env
}
