package report

import (
	"time"

	"github.com/kbench/kbench/internal/results"
)

// Model is the white paper as data: every renderer draws from it and nothing else.
type Model struct {
	Version   int            `json:"version"`
	Generated time.Time      `json:"generated,omitzero"`
	Title     string         `json:"title"`
	Study     string         `json:"study"`
	Notes     string         `json:"notes,omitempty"`
	Status    results.Status `json:"status"`
	Started   time.Time      `json:"started"`
	Finished  time.Time      `json:"finished,omitzero"`
	Kbench    string         `json:"kbench_version"`
	Dir       string         `json:"-"`
	// Environment lists the environment as label/value rows, in reading order.
	Environment  []KV `json:"environment"`
	BrokerConfig []KV `json:"broker_config,omitempty"`
	// ParamNames are the parameter columns of the tables, in the study's order.
	ParamNames []string `json:"param_names"`
	// Order says in what order the repeats ran, in words.
	Order     string         `json:"order"`
	Scenarios []ScenarioView `json:"scenarios"`
	Rows      []Row          `json:"results"`
	Charts    []Chart        `json:"charts"`
	Effects   []Effect       `json:"effects,omitempty"`
	Verdicts  []Verdict      `json:"verdicts,omitempty"`
	// Noise is each metric's noise floor: the spread of the repeats and the difference
	// two scenarios that noisy must show to be told apart.
	Noise []NoiseRow `json:"noise_floor,omitempty"`
	// Capacity holds every capacity bracket, per scenario, repeat and SLO.
	Capacity []CapacityRow `json:"capacity,omitempty"`
	// CapacityAgreement says, per scenario whose repeats each searched, how far their
	// answers lie apart.
	CapacityAgreement []CapacityAgreementRow `json:"capacity_agreement,omitempty"`
	// Transactions holds the transactional scenarios' transactions.
	Transactions []TransactionRow `json:"transactions,omitempty"`
	// Durability holds each scenario's durability check, when it had one.
	Durability []DurabilityRow `json:"durability,omitempty"`
	// Rebalances holds each scenario's membership events, when it scripted some.
	Rebalances []RebalanceRow `json:"rebalances,omitempty"`
	// Agents has one row per agent and repeat when the load ran on remote agents.
	Agents []AgentRow `json:"agents,omitempty"`
	// CatchUp has one row per repeat of a catch-up read; Share one per repeat of share
	// consumers.
	CatchUp []CatchUpRow `json:"catch_up,omitempty"`
	Share   []ShareRow   `json:"share_groups,omitempty"`
	// References set the source study's figures beside ours.
	References      []ReferenceRow `json:"references,omitempty"`
	ReferenceSource string         `json:"reference_source,omitempty"`
	ReferenceNotes  []string       `json:"reference_notes,omitempty"`
	// Warnings are things a reader must know before trusting the numbers.
	Warnings []string `json:"warnings,omitempty"`
	// BrokerIDs are the brokers whose columns the tables show, in order; MissingBrokers
	// those of them without metrics (all of them when the run had none).
	BrokerIDs      []string `json:"broker_ids,omitempty"`
	MissingBrokers []string `json:"brokers_without_metrics,omitempty"`
}

// KV is one label/value row.
type KV struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// ScenarioView describes one scenario and how to reproduce it.
type ScenarioView struct {
	ID     string          `json:"id"`
	Title  string          `json:"title,omitempty"`
	Params []results.Param `json:"params"`
	// Planned and Measured count the repeats.
	Planned  int `json:"repeats_planned"`
	Measured int `json:"repeats_measured"`
	// Workload and Topic describe the load in words.
	Workload string `json:"workload,omitempty"`
	Topic    string `json:"topic,omitempty"`
	// Commands reproduce the scenario: topic creation, kbench, and Kafka's own tool.
	TopicCommand    string `json:"topic_command,omitempty"`
	KbenchCommand   string `json:"kbench_command,omitempty"`
	PerfTestCommand string `json:"perf_test_command,omitempty"`
}

// Stat is one figure over the valid repeats: the median and the range.
type Stat struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// Spread is half the range over the median (0.04 for "+/-4%"); 0 with fewer than two values.
func (s Stat) Spread() float64 {
	if s.N < 2 || s.Median == 0 {
		return 0
	}
	return (s.Max - s.Min) / 2 / abs(s.Median)
}

// Row is one scenario's line in the results table.
type Row struct {
	ID string `json:"id"`
	// Params are the values of Model.ParamNames for this scenario ("" when not set).
	Params []string `json:"params"`
	// Valid and Total count the repeats; medians use the valid ones only.
	Valid int `json:"valid_repeats"`
	Total int `json:"total_repeats"`
	// Kind is the workload: produce, consume or produce+consume.
	Kind string `json:"kind,omitempty"`
	// TargetRate is the target in records/s (0 when unlimited).
	TargetRate float64 `json:"target_rate,omitempty"`
	// TargetShare is the share of TargetRate the producers sent at (results.SendRate), when
	// the scenario was paced.
	TargetShare *Stat `json:"target_share,omitempty"`
	// LatencyBasis says what the due-time latency measures: LatencyPaced, LatencyBacklog or
	// LatencyBufferBound; "" when the scenario did not produce.
	LatencyBasis  string `json:"latency_basis,omitempty"`
	RecordsPerSec Stat   `json:"records_per_sec"`
	MiBPerSec     Stat   `json:"mib_per_sec"`
	LatAvg        Stat   `json:"latency_avg_ms"`
	P50           Stat   `json:"latency_p50_ms"`
	P95           Stat   `json:"latency_p95_ms"`
	P99           Stat   `json:"latency_p99_ms"`
	P999          Stat   `json:"latency_p999_ms"`
	Max           Stat   `json:"latency_max_ms"`
	// SendP99 is the p99 from actual send, shown when a rate limit makes it differ.
	SendP99 *Stat `json:"send_latency_p99_ms,omitempty"`
	// BrokerProduceMean, BrokerProduceP50 and BrokerProduceP99 are the brokers' own Produce
	// request time (RequestMetrics TotalTimeMs), the slowest broker's, when broker metrics were
	// scraped: the mean exact per interval, the percentiles Kafka's decaying ones.
	BrokerProduceMean *Stat `json:"broker_produce_mean_ms,omitempty"`
	BrokerProduceP50  *Stat `json:"broker_produce_p50_ms,omitempty"`
	BrokerProduceP99  *Stat `json:"broker_produce_p99_ms,omitempty"`
	E2EP99            *Stat `json:"e2e_latency_p99_ms,omitempty"`
	// ConsumerMiBPerSec is the consumer's rate, when the scenario consumes.
	ConsumerMiBPerSec *Stat `json:"consumer_mib_per_sec,omitempty"`
	// Brokers holds each broker's mean CPU over the window (median over repeats).
	Brokers []BrokerCPU `json:"brokers,omitempty"`
	// BrokerCores is the CPU of all brokers together, in cores.
	BrokerCores   Stat `json:"broker_cpu_cores"`
	ClientCores   Stat `json:"client_cpu_cores"`
	ClientCPUPerM Stat `json:"client_cpu_s_per_million"`
	// ProxyCores is the remote listener's proxy process CPU, in cores (nil without one).
	ProxyCores *Stat `json:"proxy_cpu_cores,omitempty"`
	// ProducerCPUPerM and ConsumerCPUPerM split the client CPU of a produce+consume
	// scenario by role, each per million of its own records (nil when not split).
	ProducerCPUPerM *Stat           `json:"producer_cpu_s_per_million,omitempty"`
	ConsumerCPUPerM *Stat           `json:"consumer_cpu_s_per_million,omitempty"`
	Limit           Limit           `json:"limit"`
	Invalid         []InvalidRepeat `json:"invalid,omitempty"`
	Unstable        bool            `json:"unstable,omitempty"`
	Failed          int64           `json:"records_failed,omitempty"`
	// Records sums the record accounting of every repeat (valid or not) that wrote one.
	Records        *RecordCount `json:"records,omitempty"`
	paramMap       map[string]string
	repeatsForPlot []results.Repeat
}

// What a scenario's due-time latency measures (Row.LatencyBasis).
const (
	// LatencyPaced: the producers kept their pace, so due time is close to send time.
	LatencyPaced = "paced"
	// LatencyBacklog: a throttle or target was not reached; due-time latency counts the
	// records waiting for their slot and grows with the scenario's length.
	LatencyBacklog = "backlog"
	// LatencyBufferBound: unthrottled; latency is mostly time queued in the client's buffer.
	LatencyBufferBound = "buffer-bound"
)

// BrokerCPU is one broker's CPU in a scenario; Cores.N and Pct.N are 0 when the broker had
// no metrics.
type BrokerCPU struct {
	Broker string `json:"broker"`
	Cores  Stat   `json:"cores"`
	Pct    Stat   `json:"pct"`
}

// RecordCount sums results.Records over a scenario's repeats: every record handed to the
// producers, warm-up included, acknowledged, failed or unsent, and what the consumers read.
type RecordCount struct {
	// Repeats counts the repeats that accounted their records.
	Repeats       int   `json:"repeats"`
	Acked         int64 `json:"acked"`
	Failed        int64 `json:"failed"`
	Unsent        int64 `json:"unsent"`
	AckedAfterEnd int64 `json:"acked_after_end"`
	// Consumed is nil when no repeat's consumers counted (a produce-only scenario).
	Consumed *int64 `json:"consumed,omitempty"`
	Reread   int64  `json:"reread,omitempty"`
	// Hidden are acknowledged records of aborted transactions, unread by read_committed
	// consumers.
	Hidden int64 `json:"hidden,omitempty"`
}

// InvalidRepeat is a repeat left out of the medians, with the reasons.
type InvalidRepeat struct {
	Repeat  int      `json:"repeat"`
	Reasons []string `json:"reasons"`
}

// Limit names the resource that limited a scenario and the numbers that show it.
type Limit struct {
	Resource string `json:"resource"`
	Evidence string `json:"evidence"`
}

// Effect is the change from one value of a varied parameter to the next, others fixed.
type Effect struct {
	Dimension string `json:"dimension"`
	From      string `json:"from"`
	To        string `json:"to"`
	// Context lists the other parameters held fixed, e.g. "acks=1, replicas=3".
	Context string `json:"context,omitempty"`
	// RateRatio is records/s of To over From; RateSpread its relative half-range.
	RateRatio  float64 `json:"rate_ratio"`
	RateSpread float64 `json:"rate_spread"`
	// P99Change and CPUChange are relative changes (-0.52 for -52%). P99Change compares
	// send-time p99 when either side did not reach its throttle (0 when that was not measured).
	P99Change float64 `json:"p99_change"`
	CPUChange float64 `json:"broker_cpu_change"`
	// SourceRatio is the same ratio in the source study's figures (0 when unknown), and
	// Agrees says whether both point the same way.
	SourceRatio float64 `json:"source_rate_ratio,omitempty"`
	Agrees      *bool   `json:"agrees_with_source,omitempty"`
	Text        string  `json:"text"`
}

// Verdict is a hypothesis of the study, tested.
type Verdict struct {
	Hypothesis string `json:"hypothesis"`
	Note       string `json:"note,omitempty"`
	// Outcome is confirmed, refuted, inconclusive, or invalid (the claim does not parse).
	Outcome  string `json:"outcome"`
	Sentence string `json:"sentence"`
	// DetectablePct is the smallest difference between the sides this run could have
	// shown, in percent (0 against a constant, or when the repeats are too few); Alpha the
	// level the verdict was tested at.
	DetectablePct float64 `json:"detectable_pct,omitempty"`
	Alpha         float64 `json:"alpha,omitempty"`
}

// ReferenceRow sets one published figure beside ours.
type ReferenceRow struct {
	Scenario string  `json:"scenario"`
	Figure   string  `json:"figure"`
	Source   float64 `json:"source"`
	// Ours is our median; Measured is false when no valid repeat gave the figure.
	Ours     float64 `json:"ours"`
	Measured bool    `json:"measured"`
	// Ratio is ours over the source's (0 when either is missing).
	Ratio float64 `json:"ratio"`
}

// Chart is one figure of the report.
type Chart struct {
	// Name is the chart's file name without extension (charts/<name>.svg).
	Name    string `json:"name"`
	Title   string `json:"title"`
	Caption string `json:"caption,omitempty"`
	SVG     []byte `json:"-"`
}
