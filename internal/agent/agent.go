// Package agent runs one scenario's load on several hosts, coordinated through the Kafka
// cluster under test itself: a run-scoped control topic (kbench-<run>-control, one
// partition) carries every message, so an agent needs only a route to the brokers, never an
// inbound port, and no cluster manager sits between the coordinator and its agents.
//
// The coordinator opens a run on the control topic, waits for its agents to join, and for
// each scenario publishes a plan (each agent's share of producers, rate, records and payload
// seed: a deterministic split), waits until every agent is ready, and publishes a start time
// slightly in the future as a barrier. Each agent runs its share through the same trial seam
// a local run uses (load.OpenProducers, Producers.Trial, Close), publishes per-interval stats
// with HdrHistogram encodings, a heartbeat each second and its whole accounting when done.
// The coordinator merges the agents' results exactly (counts add, histograms merge; a
// percentile is never averaged) and keeps each agent's own. An agent silent for SilenceLimit
// or reporting an error aborts the scenario on every agent, and the error names the agent.
//
// The package never prints: the agent and the coordinator report through callbacks.
package agent

import (
	"regexp"
	"time"
)

// Timing of the protocol.
const (
	// HeartbeatInterval is how often every party publishes a heartbeat.
	HeartbeatInterval = time.Second
	// SilenceLimit is how long an agent may go without a message (heartbeats included)
	// before the coordinator aborts the scenario: three missed heartbeats.
	SilenceLimit = 3 * time.Second
	// StartDelay is how far in the future the coordinator sets a scenario's start: enough
	// for the start message to reach every agent over the control topic.
	StartDelay = time.Second
	// CoordinatorSilence is how long an agent waits without a message from its
	// coordinator before it leaves the run (a coordinator that died leaves its topic).
	CoordinatorSilence = 10 * time.Second
)

// ControlSuffix ends every control topic's name: kbench-<run>-control.
const ControlSuffix = "-control"

// ControlTopic is the control topic of the run whose topics carry prefix (kbench-<run>).
func ControlTopic(prefix string) string { return prefix + ControlSuffix }

// controlPattern matches every control topic an agent may be asked to join.
var controlPattern = regexp.MustCompile(`^kbench-.+-control$`)

// IsControlTopic reports whether name is a control topic's name.
func IsControlTopic(name string) bool { return controlPattern.MatchString(name) }
