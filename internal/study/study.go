// Package study turns a study file — a white paper's test plan written as YAML — into a
// typed, validated and defaulted [Plan]: the cluster to run on, the scenarios (a list and/or
// the cartesian product of a matrix), repeats, warm-up, the hypotheses to test and the
// source's published figures kept as reference data.
//
// Decoding is strict: an unknown key, a wrong type or an impossible value is an [*Error]
// naming the file, line, field and the valid choices. The format is documented in
// docs/study-format.md. The package imports no Kafka code.
package study

import (
	"time"

	"github.com/kbench/kbench/internal/claim"
	"github.com/kbench/kbench/internal/flavor"
	"github.com/kbench/kbench/internal/rebalance"
	"github.com/kbench/kbench/internal/stats"
	"github.com/kbench/kbench/internal/zones"
)

// Plan is a loaded, validated study.
type Plan struct {
	// Name is the study's short name, e.g. "quick"; it names run directories.
	Name string
	// Title is a one-line human title.
	Title string
	// Description says what the study measures and where it comes from (may be empty).
	Description string
	// Source names the published study the plan reproduces (may be empty).
	Source string
	// Notes are remarks a report prints with the results, e.g. how record counts were
	// scaled for this machine and which source scenarios are left out.
	Notes []string
	// File is where the study was read from: a path, or "builtin:<name>".
	File string
	// Cluster is where the scenarios run.
	Cluster Cluster
	// Repeats is how many times each scenario runs (default 3); with MinRepeats, at most.
	Repeats int
	// MinRepeats, when above zero, makes the repeats a range: every scenario runs
	// MinRepeats rounds, then a round more while a hypothesis is undecided, up to Repeats.
	// Each round from MinRepeats on is a look at the data, and each look tests at
	// stats.LookAlpha of the verdicts' level over the looks that can decide, so that
	// looking again cannot inflate the false-positive rate (see Looks).
	MinRepeats int
	// Warmup is the unmeasured load before each measured window (default 5s).
	Warmup time.Duration
	// Cooldown is the pause after each measured window (default 2s).
	Cooldown time.Duration
	// Parameters are the swept parameter names in study order, the columns of a results
	// table and the order of the keys in each scenario ID.
	Parameters []string
	// Scenarios are the expanded scenarios, matrix points first, then listed ones.
	Scenarios []Scenario
	// Hypotheses are the claims the study tests.
	Hypotheses []claim.Claim
	// Reference holds the source's published figures.
	Reference Reference
}

// Cluster is the cluster a study runs on: embedded (started by kbench) unless External is
// set.
type Cluster struct {
	// Brokers is the number of brokers (default 3). For an external cluster it is the
	// expected count, used only to validate replication factors, and 0 when unknown.
	Brokers int
	// KafkaVersion is the embedded cluster's Apache Kafka version (default "4.4.0").
	KafkaVersion string
	// BrokerConfigs are extra server.properties entries for the embedded brokers.
	BrokerConfigs map[string]string
	// SASL is "", "scram-sha-512", "scram-sha-256" or "plain": the embedded cluster's SASL
	// listener, which the clients then use.
	SASL string
	// TLS enables the embedded cluster's TLS listener, which the clients then use.
	TLS bool
	// Heap is each embedded broker's JVM heap (default DefaultHeap).
	Heap string
	// Limits are each embedded broker's CPU quota (broker_cpus), CPU pinning (cpuset) and
	// disk class (disk), through a cgroup per broker.
	Limits flavor.Limits
	// Network, when set, puts the clients in another zone: the embedded cluster gets the
	// listener "remote" through delay proxies with this link (client_rtt, client_bandwidth),
	// which the clients then use.
	Network *zones.Link
	// BrokerNetwork, when set (network.broker_rtt), puts each embedded broker in a zone of
	// its own: inter-broker traffic (replication) goes through delay proxies with this link.
	BrokerNetwork *zones.Link
	// JITWarmup is the longest unmeasured warm-up of each embedded cluster before its first
	// repeat (jit_warmup, default DefaultJITWarmup): 15 s, or this if shorter, and on while
	// the cluster's rate still climbs. 0 skips it.
	JITWarmup time.Duration
	// External, when non-nil, points at a running cluster instead.
	External *External
}

// External describes a cluster kbench does not manage.
type External struct {
	// Bootstrap is the comma-separated host:port list.
	Bootstrap string
	// CommandConfig is a Java client properties file (security settings); relative paths
	// are resolved against the study file's directory.
	CommandConfig string
	// MetricsURLs are the brokers' Prometheus endpoints, if any.
	MetricsURLs []string
}

// Scenario is one point of the study: a topic and the load put on it.
type Scenario struct {
	// ID names the scenario by its swept values in parameter order, e.g.
	// "batch=16KiB,replicas=3,acks=all"; "default" when the study sweeps nothing.
	ID string
	// Params are the swept values, as written in the study; Plan.Parameters gives their
	// order.
	Params map[string]string
	// Cluster is the cluster shape the scenario runs on: the cluster section's, changed by
	// cluster.* fields (brokers, kafka_version, heap, broker_cpus, cpuset, disk).
	Cluster Shape
	// Listener picks the embedded cluster's listener the clients use: "plain", "sasl",
	// "tls" or "remote"; empty means remote with cluster.network, else the cluster's
	// secured listener when it has one, else plain.
	Listener string
	// ClientRTT, when set (the client_rtt parameter), is the remote listener's RTT for this
	// scenario: the runner changes the proxies' link before each of its repeats.
	ClientRTT *time.Duration
	// ClientBandwidth, when set (the client_bandwidth parameter), is the remote listener's
	// bandwidth per direction for this scenario in bytes per second, 0 for unlimited;
	// changed on the running proxies like ClientRTT.
	ClientBandwidth *int64
	// BrokerRTT, when set (the broker_rtt parameter), is the RTT between brokers for this
	// scenario: the inter-broker proxies' link, changed before each repeat like ClientRTT.
	BrokerRTT *time.Duration
	// Topic is the scenario's topic, created fresh for each repeat.
	Topic Topic
	// Producers is the produce load; Count 0 means none.
	Producers Producers
	// Consumers is the consume load; Count 0 means none.
	Consumers Consumers
	// Capacity, when it has SLOs, asks for a capacity search after each repeat's measured
	// window, on the same topic.
	Capacity Capacity
	// Verify, when it has a duration, asks for a durability check (kbench verify) after the
	// scenario's first repeat, on a topic of its own with the scenario's topic and producer
	// settings.
	Verify Verify
}

// Verify is a scenario's durability check: sequenced records at Rate for Duration while the
// fault plan Faults runs, then a full read-back and the Jepsen-named anomalies.
type Verify struct {
	// Faults is a fault plan as kbench verify --faults takes it ("" for none); the runner
	// checks it before the run starts.
	Faults string
	// Duration of the load (0: no check).
	Duration time.Duration
	// Rate is the offered rate in records/s over all producers (default 1000).
	Rate int
}

// DefaultVerifyRate is a durability check's offered rate when the study gives none: modest,
// so that brokers restart and catch up on a small machine.
const DefaultVerifyRate = 1000

// Enabled says whether the scenario asks for a durability check.
func (v Verify) Enabled() bool { return v.Duration > 0 }

// Capacity is a scenario's capacity search: the highest offered rate at which due-time
// latency meets every SLO (see kbench capacity).
type Capacity struct {
	// SLO maps a percentile as written (p99, p999, p99.9) to its latency limit; empty means
	// no search.
	SLO map[string]time.Duration
	// Precision is the widest final bracket as a share of its lower end (default 0.05).
	Precision float64
	// Trial is a full-length trial after its warm-up (default 40s); trials while the
	// bracket is wide last a quarter of it.
	Trial time.Duration
	// MaxTrials, when above zero, also stops the search after that many trials.
	MaxTrials int
	// ExceedRatio (default 0.5) and DurationSum (default twice Trial up to 40 s, at least
	// one Trial) complete each SLO's search goal (RFC 9971); Confirm is the confirmation
	// trial (default 60s), MaxDuration the search's budget (default 10m).
	ExceedRatio float64
	DurationSum time.Duration
	Confirm     time.Duration
	MaxDuration time.Duration
}

// Enabled says whether the scenario asks for a capacity search.
func (c Capacity) Enabled() bool { return len(c.SLO) > 0 }

// Topic is a topic's layout and configs.
type Topic struct {
	// Partitions is the partition count (default 3).
	Partitions int
	// PerBroker, when non-zero, made Partitions this multiple of the scenario's broker
	// count ("2 x brokers").
	PerBroker int
	// Replicas is the replication factor (default 3, capped at the broker count when that
	// default would exceed it).
	Replicas int
	// Configs are topic-level configs (Kafka names such as min.insync.replicas); sizes are
	// in bytes.
	Configs map[string]string
}

// Producers is the produce side of a scenario.
type Producers struct {
	// Count is the number of producer clients (default 1).
	Count int
	// Properties are Java producer property names and values (e.g. batch.size=16384); sizes
	// are in bytes. Unset properties keep the Java client's defaults.
	Properties map[string]string
	// RecordSize is the value size in bytes (default 1024).
	RecordSize int
	// Keys is "none" (null keys, the default) or "random".
	Keys string
	// Rate is the total target in records per second over all producers; 0 is unlimited. A
	// repeat that falls short of it is invalid: use it to measure latency at a given load.
	Rate int
	// Throttle caps the total records per second, as kafka-producer-perf-test's --throughput
	// does; falling short of it is a result, not a failure. At most one of Rate and Throttle
	// is set.
	Throttle int
	// Records is the total number of records to send over all producers; 0 when Duration
	// is used instead.
	Records int64
	// Duration is how long to produce when Records is 0.
	Duration time.Duration
	// Transaction, when enabled, makes the producers transactional.
	Transaction Transaction
}

// Consumers is the consume side of a scenario. When a scenario has consumers but no
// producers, the topic is first filled, unmeasured, with Records records of
// Producers.RecordSize bytes, and the consumers read them.
type Consumers struct {
	// Count is the number of consumer clients, all in one group (default 0).
	Count int
	// Group is the consumer group; empty lets the runner name one per scenario and repeat.
	Group string
	// FetchSize is the bytes fetched per partition per request, as the --fetch-size of
	// Kafka's consumer perf tool (0 keeps the client default).
	FetchSize int
	// Properties are Java consumer property names and values.
	Properties map[string]string
	// Records is the total number of records to consume; 0 when Duration is used instead.
	Records int64
	// Duration is how long to consume when Records is 0.
	Duration time.Duration
	// Events change the group's members in the measured window (consumers.events).
	Events []rebalance.Scheduled
	// Backlog, when above zero, makes the scenario a catch-up read: the producers run alone
	// until they wrote this many bytes (warm-up included), then the consumers start at the
	// earliest offset while the producers keep their rate, and the report gives how long
	// they took to catch up.
	Backlog int64
	// Share makes the consumers one share group (KIP-932) instead of a consumer group;
	// Acknowledgement is "implicit" or "explicit" ("" lets a release or reject share make
	// it explicit), Release and Reject the shares of deliveries released for redelivery
	// and rejected, to model failing work.
	Share           bool
	Acknowledgement string
	Release, Reject float64
}

// Reference holds a source study's published figures, to be shown beside kbench's own.
type Reference struct {
	// Source says which table or section of which publication the figures come from, and
	// on what hardware.
	Source string
	// Scenarios maps a scenario ID to its published figures.
	Scenarios map[string]Figures
}

// Figures maps a metric to its published value(s): the canonical claim metric names
// (records_per_sec, mb_per_sec, p50, p95, p99, p999, max, avg in ms, broker_cpu,
// client_cpu in cores) and broker_cpu_percent (one value per broker, % of that broker's
// CPU). Single values are one-element slices.
type Figures map[string][]float64

// ReferenceMetrics are the keys a Figures map may hold.
func ReferenceMetrics() []string {
	return append(claim.Metrics(), BrokerCPUPercent)
}

// BrokerCPUPercent is the reference metric for per-broker CPU utilisation in percent, as
// cloud consoles show it.
const BrokerCPUPercent = "broker_cpu_percent"

// PacedRate is the rate the producers are paced at: Rate or Throttle, 0 when unlimited.
func (p Producers) PacedRate() int {
	if p.Rate > 0 {
		return p.Rate
	}
	return p.Throttle
}

// Kind reports which clients the scenario runs: "produce", "consume" or
// "produce+consume".
func (s Scenario) Kind() string {
	switch {
	case s.Producers.Count > 0 && s.Consumers.Count > 0:
		return "produce+consume"
	case s.Consumers.Count > 0:
		return "consume"
	default:
		return "produce"
	}
}

// verifyOverhead is a durability check's time beyond its load: its topic, the wait for the
// replicas to recover and the read-back.
const verifyOverhead = 30 * time.Second

// Estimate is the check's share of a repeat's time (each repeat's, though it runs after the
// first only: an estimate errs long).
func (v Verify) Estimate() time.Duration {
	if !v.Enabled() {
		return 0
	}
	return v.Duration + verifyOverhead
}

// Looks is how many shares the verdicts' level is split into for a run with a range of
// repeats: it looks after each round from MinRepeats to Repeats, but a look with too few
// repeats for the rank test to reach its share can never confirm and takes none
// (stats.DecidingLooks); 1 for a fixed count.
func (p *Plan) Looks() int {
	if p.MinRepeats <= 0 {
		return 1
	}
	return stats.DecidingLooks(claim.Alpha, p.MinRepeats, p.Repeats)
}
