package results

import "time"

// Repeat is the content of scenarios/<id>/repeat-<n>.json: everything measured in one repeat
// of one scenario, and everything needed to reproduce it.
type Repeat struct {
	Version  int       `json:"version"`
	Scenario string    `json:"scenario"`
	Repeat   int       `json:"repeat"` // 1-based
	Started  time.Time `json:"started"`
	Finished time.Time `json:"finished"`
	Workload Workload  `json:"workload"`
	Topic    Topic     `json:"topic"`
	// ProducerConfig and ConsumerConfig are the effective client settings (Java property
	// names), defaults included, so two tools' numbers can be compared setting by setting.
	ProducerConfig map[string]string `json:"producer_config,omitempty"`
	ConsumerConfig map[string]string `json:"consumer_config,omitempty"`
	Summary        Summary           `json:"summary"`
	// Latency holds latency histograms by kind: LatencyDue, LatencySend, LatencyEndToEnd.
	Latency map[string][]Bucket `json:"latency,omitempty"`
	// Client has one row per second of the measured window.
	Client []ClientRow `json:"client,omitempty"`
	// Brokers has one row per sample (every half second; every second in older runs) and
	// broker, and rows with Broker "host" for the host.
	Brokers       []SeriesRow     `json:"brokers,omitempty"`
	BrokerSummary []BrokerSummary `json:"broker_summary,omitempty"`
	Validity      Validity        `json:"validity"`
	// Capacity is the capacity search run after the measured window, on the same topic,
	// when the scenario asks for one (absent otherwise).
	Capacity *Capacity `json:"capacity,omitempty"`
	// Durability is the durability check run after the scenario's first repeat, when the
	// scenario asks for one (absent otherwise).
	Durability *Durability `json:"durability,omitempty"`
	// Agents is set when the load ran on remote agents (kbench run --agents N).
	Agents *Agents `json:"agents,omitempty"`
	// Rebalance holds the figures of the consumers' membership events, when the scenario
	// scripted some.
	Rebalance *Rebalance `json:"rebalance,omitempty"`
	// CatchUp is the drain of a catch-up read (consumers.backlog), absent otherwise.
	CatchUp *CatchUp `json:"catch_up,omitempty"`
	// Share is the share consumers' deliveries (consumers.share_group), absent otherwise.
	Share *Share `json:"share,omitempty"`
}

// Workload is what the scenario asked the clients to do; with Topic it is enough to write
// the equivalent kbench and kafka-producer-perf-test commands.
type Workload struct {
	// Kind is "produce", "consume" or "produce+consume".
	Kind       string `json:"kind"`
	RecordSize int    `json:"record_size"`
	// NumRecords is the total records to produce (0 when the scenario runs for Duration).
	NumRecords int64 `json:"num_records,omitempty"`
	// Duration and Warmup are in seconds; the warm-up is run and discarded.
	Duration float64 `json:"duration_s,omitempty"`
	Warmup   float64 `json:"warmup_s,omitempty"`
	// Throughput is the target rate in records/s over all producers; -1 means unlimited, as
	// kafka-producer-perf-test's --throughput.
	Throughput float64 `json:"throughput"`
	Producers  int     `json:"producers,omitempty"`
	Consumers  int     `json:"consumers,omitempty"`
	// ProducerProps and ConsumerProps are the properties the study set (not the defaults).
	ProducerProps map[string]string `json:"producer_props,omitempty"`
	ConsumerProps map[string]string `json:"consumer_props,omitempty"`
	// FetchSize is the consumer's --fetch-size in bytes, when set.
	FetchSize int    `json:"fetch_size,omitempty"`
	Group     string `json:"group,omitempty"`
	// Transaction is what the scenario asked of transactional producers (nil: none).
	Transaction *TransactionWorkload `json:"transaction,omitempty"`
}

// Topic is the topic a repeat used: each repeat gets its own fresh topic.
type Topic struct {
	Name       string            `json:"name"`
	Partitions int               `json:"partitions"`
	Replicas   int               `json:"replicas"`
	Configs    map[string]string `json:"configs,omitempty"`
}

// The kinds of latency histogram in Repeat.Latency.
const (
	// LatencyDue is measured from the moment a record was due (its slot under a rate limit)
	// to its acknowledgement; it includes any queueing the client added.
	LatencyDue = "due"
	// LatencySend is measured from the moment the record was handed to the client.
	LatencySend = "send"
	// LatencyEndToEnd is measured from the produce timestamp to the consumer.
	LatencyEndToEnd = "e2e"
)

// Bucket is one bar of a latency histogram: Count values at most UpperUs microseconds (and
// above the previous bucket's bound). Buckets are in increasing order of UpperUs.
type Bucket struct {
	UpperUs int64 `json:"upper_us"`
	Count   int64 `json:"count"`
}

// Summary is the headline of a repeat, over the measured window.
type Summary struct {
	RecordsAcked  int64   `json:"records_acked"`
	RecordsFailed int64   `json:"records_failed"`
	Bytes         int64   `json:"bytes"`
	Elapsed       float64 `json:"elapsed_s"`
	RecordsPerSec float64 `json:"records_per_sec"`
	// MiBPerSec uses 1024*1024-byte units, as Kafka's tools print "MB/sec".
	MiBPerSec float64 `json:"mib_per_sec"`
	// TargetRate is the target in records/s, 0 when unlimited.
	TargetRate float64 `json:"target_rate,omitempty"`
	// Latency is measured from the due time; SendLatency from the actual send (differs only
	// under a rate limit); EndToEnd from produce to consume.
	Latency     Latency  `json:"latency"`
	SendLatency *Latency `json:"send_latency,omitempty"`
	EndToEnd    *Latency `json:"end_to_end,omitempty"`
	// ClientCPUSeconds is the CPU time the kbench clients used (user+system) in the window.
	ClientCPUSeconds float64 `json:"client_cpu_s"`
	// ClientCPUPerMillion is ClientCPUSeconds per million records acknowledged (consumed, in
	// a consume-only scenario). In a produce+consume scenario it holds both roles' CPU over
	// the produced records; the split below divides it by role.
	ClientCPUPerMillion float64 `json:"client_cpu_s_per_million"`
	// ProxyCPUSeconds is the CPU time the remote listener's delay proxies (their own
	// process) used in the window, when the scenario's clients went through them; the
	// clients' cost of another zone, kept apart from ClientCPUSeconds.
	ProxyCPUSeconds float64 `json:"proxy_cpu_s,omitempty"`
	// ProducerCPUSeconds and ConsumerCPUSeconds split the client CPU by role, as
	// ClientCPUSplit says; the per-million figures divide each by its own records. The
	// producers': their share of ClientCPUSeconds, per million records acknowledged in the
	// window. The consumers': their share of the CPU from the window's start until they
	// caught up with the producers (past the producers' end), per million records consumed
	// in that span. All zero when the CPU could not be split.
	ProducerCPUSeconds    float64   `json:"producer_cpu_s,omitempty"`
	ProducerCPUPerMillion float64   `json:"producer_cpu_s_per_million,omitempty"`
	ConsumerCPUSeconds    float64   `json:"consumer_cpu_s,omitempty"`
	ConsumerCPUPerMillion float64   `json:"consumer_cpu_s_per_million,omitempty"`
	ClientCPUSplit        string    `json:"client_cpu_split,omitempty"`
	Consumer              *Consumer `json:"consumer,omitempty"`
	// Records accounts for every record of the repeat, warm-up included.
	Records *Records `json:"records,omitempty"`
	// Transactions counts the producers' transactions, when they ran them.
	Transactions *Transactions `json:"transactions,omitempty"`
	// Errors counts failed records by error message.
	Errors map[string]int64 `json:"errors,omitempty"`
}

// The ways Summary.ClientCPUSplit divides the client CPU by role.
const (
	// SplitProducerOnly: only producers ran; all the CPU is theirs.
	SplitProducerOnly = "producer only"
	// SplitConsumerOnly: only consumers ran; all the CPU is theirs.
	SplitConsumerOnly = "consumer only"
	// SplitProfile: both ran in one process; a CPU profile with the goroutines labelled by
	// role (runtime/pprof) gave each role's share, over the whole load (warm-up included),
	// and CPU of neither role (garbage collection, sampling) is shared in that proportion.
	SplitProfile = "cpu profile by role"
)

// Latency summarises a latency distribution, in milliseconds.
type Latency struct {
	Count   int64   `json:"count"`
	AvgMs   float64 `json:"avg_ms"`
	P50Ms   float64 `json:"p50_ms"`
	P90Ms   float64 `json:"p90_ms"`
	P95Ms   float64 `json:"p95_ms"`
	P99Ms   float64 `json:"p99_ms"`
	P999Ms  float64 `json:"p999_ms"`
	P9999Ms float64 `json:"p9999_ms"`
	MaxMs   float64 `json:"max_ms"`
}

// Consumer holds the consumer's figures, as kafka-consumer-perf-test prints them.
type Consumer struct {
	Records       int64   `json:"records"`
	Bytes         int64   `json:"bytes"`
	Elapsed       float64 `json:"elapsed_s"`
	RecordsPerSec float64 `json:"records_per_sec"`
	MiBPerSec     float64 `json:"mib_per_sec"`
	Fetches       int64   `json:"fetches,omitempty"`
	// RebalanceMs is the time to join the group before the first record.
	RebalanceMs float64 `json:"rebalance_ms,omitempty"`
}

// ClientRow is one second of client activity; T is seconds since the measured window began.
type ClientRow struct {
	T             float64 `json:"t"`
	Records       int64   `json:"records"`
	Failed        int64   `json:"failed,omitempty"`
	Bytes         int64   `json:"bytes"`
	RecordsPerSec float64 `json:"records_per_sec"`
	MiBPerSec     float64 `json:"mib_per_sec"`
	P50Ms         float64 `json:"p50_ms"`
	P99Ms         float64 `json:"p99_ms"`
	MaxMs         float64 `json:"max_ms"`
	CPUCores      float64 `json:"cpu_cores"`
	// Consumed counts records consumed in this second, when the scenario consumes.
	Consumed int64 `json:"consumed,omitempty"`
}

// Validity says whether a repeat counts towards the medians, and if not, why.
type Validity struct {
	Valid   bool     `json:"valid"`
	Reasons []string `json:"reasons,omitempty"`
}

// Records accounts for every record a repeat's producers were handed, warm-up included (the
// measured window's counts are RecordsAcked and RecordsFailed): each was acknowledged,
// failed, or unsent; and the consumers' count, where the scenario consumes.
type Records struct {
	// Acked were acknowledged by the cluster (a consume-only scenario's fill).
	Acked int64 `json:"acked"`
	// Failed were refused by the cluster, or timed out (delivery.timeout.ms).
	Failed int64 `json:"failed"`
	// Unsent were handed to a producer but neither acknowledged nor failed when the run
	// stopped waiting for them (10 s after a timed run's end): aborted. Those in requests a
	// stalled broker had not answered may still have reached the topic.
	Unsent int64 `json:"unsent"`
	// AckedAfterEnd were acknowledged after a timed run's end, while the run waited for its
	// last records; they are in Acked, and their latency is in the histograms.
	AckedAfterEnd int64 `json:"acked_after_end"`
	// Consumed are the distinct records the scenario's consumers read; absent when it has
	// none. Reread were read again after a rebalance (by offset), not in Consumed.
	Consumed *int64 `json:"consumed,omitempty"`
	Reread   int64  `json:"reread,omitempty"`
	// Hidden are acknowledged records the consumers could not read: those of aborted
	// transactions, when the consumers read committed records only (isolation.level=
	// read_committed). They are in Acked; the consumers should read Acked - Hidden.
	Hidden int64 `json:"hidden,omitempty"`
}
