package results

import (
	"fmt"
	"time"
)

// Run is the content of run.json: what was run, where, and how it ended. The study runner
// writes it at the start of a run (Status incomplete) and again at the end.
type Run struct {
	Version       int    `json:"version"`
	KbenchVersion string `json:"kbench_version"`
	Study         Study  `json:"study"`
	Status        Status `json:"status"`
	// Started and Finished bound the whole run; Finished is zero while the run is going.
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished,omitzero"`
	// Scenarios are listed in the order the study defines them.
	Scenarios []Scenario `json:"scenarios"`
	// Order is the order the repeats ran in; nil in runs made before it was recorded,
	// which ran each scenario's repeats back to back in the study's order.
	Order *Order `json:"order,omitempty"`
	// Looks, for a study with a range of repeats, is its stopping rule and why it stopped;
	// nil for a fixed count.
	Looks *Looks `json:"looks,omitempty"`
	// Hypotheses are the study's claims, in the claim syntax, evaluated by the report.
	Hypotheses  []string    `json:"hypotheses,omitempty"`
	Reference   *Reference  `json:"reference,omitempty"`
	Environment Environment `json:"environment"`
	// Target is how the run reached its cluster, so a resume reaches the same one.
	Target Target `json:"target,omitzero"`
}

// Target is what a resume needs to reach the run's cluster again: never a secret (the
// command config is a path, the metrics URLs lose any user:password).
type Target struct {
	// Bootstrap is the external cluster's bootstrap servers; empty for an embedded cluster.
	Bootstrap string `json:"bootstrap,omitempty"`
	// CommandConfig is the absolute path of the client properties file, if any.
	CommandConfig string `json:"command_config,omitempty"`
	// MetricsURLs are the brokers' Prometheus endpoints given for the run.
	MetricsURLs []string `json:"metrics_urls,omitempty"`
	// MaxRate is the rate cap (records/s) every scenario ran under; 0 is none.
	MaxRate float64 `json:"max_rate,omitempty"`
	// ClusterID is the Kafka cluster ID the run measured; a resume refuses another one.
	ClusterID string `json:"cluster_id,omitempty"`
}

// Study names the study that was run. Its file is copied next to run.json as study.yaml.
type Study struct {
	Name  string `json:"name"`
	Title string `json:"title,omitempty"`
	Notes string `json:"notes,omitempty"`
	// File is the path of the study file relative to the run directory (study.yaml).
	File string `json:"file"`
	// Source is where the study came from: a file path, or "builtin:<name>".
	Source string `json:"source,omitempty"`
}

// State says whether a run finished all its scenarios.
type State string

// The states of a run.
const (
	Complete   State = "complete"
	Incomplete State = "incomplete"
)

// Status is the outcome of a run; Reason says why an incomplete run stopped (for example
// "interrupted" or the error that ended it).
type Status struct {
	State  State  `json:"state"`
	Reason string `json:"reason,omitempty"`
}

// Scenario is one cell of the study's matrix: an identifier that is also a directory name,
// and the parameters that define it in the study's order.
type Scenario struct {
	ID     string  `json:"id"`
	Title  string  `json:"title,omitempty"`
	Params []Param `json:"params"`
	// Repeats is the number of repeats planned.
	Repeats int `json:"repeats"`
	// Cluster is the embedded cluster the scenario ran on, as started; nil for an external
	// cluster and in runs recorded before it.
	Cluster *Shape `json:"cluster,omitempty"`
	// GroupProtocol is the consumers' group protocol (group.protocol: classic, or consumer
	// for KIP-848); empty when the scenario has no consumers.
	GroupProtocol string `json:"group_protocol,omitempty"`
}

// Shape is an embedded cluster's shape: what a study may vary between scenarios, each
// value a cluster of its own.
type Shape struct {
	Brokers      int    `json:"brokers"`
	KafkaVersion string `json:"kafka_version,omitempty"`
	Heap         string `json:"heap,omitempty"`
	// Limits are each broker's cgroup limits in words; "" when unlimited.
	Limits string `json:"limits,omitempty"`
	// BrokerCPUBasis is each broker's CPU allotment in words, which its cpu_pct is of.
	BrokerCPUBasis string `json:"broker_cpu_basis,omitempty"`
	// BrokerConfigs are the broker configs the scenario's parameters set for this cluster
	// (on top of the study's cluster.broker_configs), "name=value, ..." sorted by name (a
	// string, so shapes compare with ==); absent when none.
	BrokerConfigs string `json:"broker_configs,omitempty"`
	// DiskWriteLimit is each broker's disk write throttle in bytes per second (its disk
	// class), which the report names as the limit when the brokers wrote at it; 0 for none.
	DiskWriteLimit uint64 `json:"disk_write_limit_bytes_per_sec,omitempty"`
}

// String describes the shape, e.g. "3 brokers, Kafka 4.1.1, heap 512m, 0.5 cores (CFS quota)".
func (s Shape) String() string {
	out := fmt.Sprintf("%d brokers", s.Brokers)
	if s.Brokers == 1 {
		out = "1 broker"
	}
	if s.KafkaVersion != "" {
		out += ", Kafka " + s.KafkaVersion
	}
	if s.Heap != "" {
		out += ", heap " + s.Heap
	}
	if s.Limits != "" {
		out += ", " + s.Limits
	}
	if s.BrokerConfigs != "" {
		out += ", broker configs " + s.BrokerConfigs
	}
	return out
}

// Order describes the run order: Kind "interleaved" runs repeat r of every scenario before
// repeat r+1 of any, the scenarios shuffled per round by a generator seeded with Seed
// (runner.Order), so the same seed replays the same order.
type Order struct {
	Kind string `json:"kind"`
	Seed uint64 `json:"seed"`
}

// Param is one named parameter of a scenario, such as {batch.size 16384} or {replicas 3}.
// Values are strings as written in the study; the report parses numbers where it can.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Lookup returns the value of the parameter called name.
func (s Scenario) Lookup(name string) (string, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p.Value, true
		}
	}
	return "", false
}

// ParamMap returns the parameters as a map.
func (s Scenario) ParamMap() map[string]string {
	m := make(map[string]string, len(s.Params))
	for _, p := range s.Params {
		m[p.Name] = p.Value
	}
	return m
}

// Reference holds the figures a source study published, so a report can set them beside
// the measured ones.
type Reference struct {
	// Source labels the figures, for example "DMS for Kafka white paper (2023), Table 1-2".
	Source string `json:"source"`
	// Figures maps a scenario ID to named numbers using the metric names of a Summary
	// (records_per_sec, mib_per_sec, latency_avg_ms, broker_cpu_pct, ...).
	Figures map[string]map[string]float64 `json:"figures"`
	// Notes are the source's own conclusions in words; the hypotheses carry them as claims.
	Notes []string `json:"notes,omitempty"`
}

// Looks is a run with a range of repeats: every scenario ran MinRepeats rounds, then a
// round more while a hypothesis was undecided, up to MaxRepeats. Each look (after each
// round from MinRepeats on) tests the hypotheses at Alpha, the verdicts' level split over
// the planned looks, and the report's verdicts use it too.
type Looks struct {
	MinRepeats int     `json:"min_repeats"`
	MaxRepeats int     `json:"max_repeats"`
	Alpha      float64 `json:"alpha"`
	// Rounds is the rounds run; Stopped says why no more ran.
	Rounds  int    `json:"rounds,omitempty"`
	Stopped string `json:"stopped,omitempty"`
}
