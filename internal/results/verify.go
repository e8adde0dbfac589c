package results

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// The files of a kbench verify run directory.
const (
	// VerifyFile is the result (Verify) as JSON.
	VerifyFile = "verify.json"
	// AcksFile lists every acknowledgement, sorted by partition and offset:
	// "partition offset producer seq" per line, tab-separated, gzipped.
	AcksFile = "acks.tsv.gz"
	// ReadsFile lists every record read back in the order read: "partition offset producer
	// seq" (producer -1: not a record of this run).
	ReadsFile = "reads.tsv.gz"
	// UnackedFile lists every record sent but not acknowledged: "producer seq outcome"
	// (failed, unsent or in-flight). With AcksFile it is every record sent.
	UnackedFile = "unacknowledged.tsv.gz"
	// AbortedFile lists every aborted transaction in a transactional run: "producer first
	// next aborted" per line (records first to next-1 of that producer), tab-separated,
	// gzipped.
	AbortedFile = "aborted.tsv.gz"
)

// VerifyVersion is the version of verify.json's format.
const VerifyVersion = 1

// Verify is the outcome of a kbench verify run, written as verify.json and printed by
// kbench verify --json.
type Verify struct {
	Version int    `json:"version"`
	Run     uint64 `json:"run"`
	// Cluster says which cluster was verified.
	Cluster string `json:"cluster,omitempty"`
	// The settings applied: the topic and its configs, the producers and their effective
	// client properties (secrets redacted), the load.
	Topic        string            `json:"topic"`
	Partitions   int               `json:"partitions"`
	Replicas     int               `json:"replicas"`
	TopicConfigs map[string]string `json:"topic_configs"`
	// EffectiveTopicConfigs are min.insync.replicas and unclean.leader.election.enable as
	// the cluster applied them to the topic (read back after creating it), set or default.
	EffectiveTopicConfigs map[string]string `json:"effective_topic_configs,omitempty"`
	Producers             int               `json:"producers"`
	Rate                  float64           `json:"rate"`
	DurationSeconds       float64           `json:"duration_seconds"`
	ProducerSettings      map[string]string `json:"producer_settings"`
	// Transactions counts a transactional run's transactions (nil otherwise).
	Transactions *VerifyTransactions `json:"transactions,omitempty"`
	// Totals counts the records by outcome; Counts the anomalies, Examples a few of each.
	Totals   VerifyTotals   `json:"totals"`
	Counts   VerifyCounts   `json:"counts"`
	Examples VerifyExamples `json:"examples"`
	Read     VerifyRead     `json:"read_back"`
	// Faults, the phases around them and how soon writes resumed after each; Rows the
	// per-second timeline.
	FaultPlan *FaultPlan `json:"fault_plan,omitempty"`
	// FaultsCutShort says why fewer faults were applied than planned, "" when all were.
	FaultsCutShort string           `json:"faults_cut_short,omitempty"`
	Faults         []FaultEvent     `json:"faults,omitempty"`
	FaultPhases    []FaultPhase     `json:"fault_phases,omitempty"`
	Phases         []VerifyPhase    `json:"phases,omitempty"`
	Recoveries     []VerifyRecovery `json:"recoveries,omitempty"`
	Rows           []VerifyRow      `json:"rows"`
	// Files are the history files beside verify.json, from which the counts can be
	// recomputed.
	Files []string `json:"files,omitempty"`
}

// VerifyTransactions counts a transactional run's transactions.
type VerifyTransactions struct {
	// LengthMs and AbortShare are what the run asked: each producer commits a transaction
	// once it is that old, and aborts that share of them on purpose (the control).
	LengthMs   float64 `json:"length_ms"`
	AbortShare float64 `json:"abort_share,omitempty"`
	Committed  int64   `json:"committed"`
	Aborted    int64   `json:"aborted"`
	// AbortedRecords are the records of aborted transactions, acknowledged or not: a
	// read_committed reader must see none of them.
	AbortedRecords int64 `json:"aborted_records"`
}

// VerifyTotals counts the records sent by outcome.
type VerifyTotals struct {
	Sent   int64 `json:"sent"`
	Acked  int64 `json:"acknowledged"`
	Failed int64 `json:"failed"`
	Unsent int64 `json:"unsent"`
	// InFlight records had no outcome when the run stopped waiting.
	InFlight int64 `json:"in_flight,omitempty"`
	// Errors counts the failures by error text.
	Errors map[string]int64 `json:"errors,omitempty"`
}

// VerifyCounts are the anomalies of a run, named as in Jepsen's Kafka analyses. Each counts
// records: a record lost and found elsewhere is counted where it fits, see each field.
type VerifyCounts struct {
	// Lost records were acknowledged and never read.
	Lost int64 `json:"lost"`
	// Duplicated records were read more than once (each such record counts once).
	Duplicated int64 `json:"duplicated"`
	// Reordered records were read, in their partition, after a later record of the same
	// producer (their first copy; a second copy is a duplicate).
	Reordered int64 `json:"reordered"`
	// Inconsistent records were acknowledged at an offset that holds another record: the
	// read-back found another record there, another acknowledged record claims the same
	// offset, or the record itself was read at another offset.
	Inconsistent int64 `json:"inconsistent"`
	// Unexpected reads hold a record that was never sent: not kbench's, another run's, a
	// sequence beyond what its producer sent, or a record in a partition it was not sent to.
	Unexpected int64 `json:"unexpected"`
	// UnacknowledgedPresent records failed or were unsent, yet were read: the cluster wrote
	// them but the answer never reached the producer. No error: a producer that retries
	// would have written them again.
	UnacknowledgedPresent int64 `json:"unacknowledged_present"`
	// AbortedVisible records belong to an aborted transaction, yet a read_committed read
	// returned them (transactional runs).
	AbortedVisible int64 `json:"aborted_visible,omitempty"`
	// Hidden records were acknowledged in a transaction that was then aborted, and were
	// not read: as they must be (no anomaly; transactional runs).
	Hidden int64 `json:"hidden,omitempty"`
}

// Anomalies is the number of records in error (unacknowledged-but-present and hidden are
// not).
func (c VerifyCounts) Anomalies() int64 {
	return c.Lost + c.Duplicated + c.Reordered + c.Inconsistent + c.Unexpected + c.AbortedVisible
}

// VerifyExample is one record of an anomaly: which record (its producer and sequence) and
// where it was acknowledged or read.
type VerifyExample struct {
	Producer  int32 `json:"producer"`
	Seq       int64 `json:"seq"`
	Partition int32 `json:"partition"`
	Offset    int64 `json:"offset"`
	// Detail says what is wrong in words.
	Detail string `json:"detail,omitempty"`
}

// VerifyExamples names a few records of each anomaly (at most 10 each).
type VerifyExamples struct {
	Lost                  []VerifyExample `json:"lost,omitempty"`
	Duplicated            []VerifyExample `json:"duplicated,omitempty"`
	Reordered             []VerifyExample `json:"reordered,omitempty"`
	Inconsistent          []VerifyExample `json:"inconsistent,omitempty"`
	Unexpected            []VerifyExample `json:"unexpected,omitempty"`
	UnacknowledgedPresent []VerifyExample `json:"unacknowledged_present,omitempty"`
	AbortedVisible        []VerifyExample `json:"aborted_visible,omitempty"`
}

// VerifyRead describes the read-back.
type VerifyRead struct {
	// Records read, and the rounds it took for the end offsets to stop moving.
	Records int64 `json:"records"`
	Rounds  int   `json:"rounds"`
	// Start and End are each partition's earliest offset and the stable high watermark the
	// read reached.
	Start map[int32]int64 `json:"start_offsets"`
	End   map[int32]int64 `json:"end_offsets"`
	// Seconds the read-back took.
	Seconds float64 `json:"seconds"`
}

// FaultPlan is the fault schedule of a run: steps in time order.
type FaultPlan struct {
	Steps []FaultStep `json:"steps"`
	// Spec is the text the plan was parsed from.
	Spec string `json:"spec"`
}

// FaultStep is one fault of a plan. Its durations are nanoseconds in JSON.
type FaultStep struct {
	// At is when the fault is due, from the start of the plan's run. A step starts no
	// earlier than At and no earlier than the previous step's heal has finished.
	At time.Duration `json:"at"`
	// Action is what the fault does to the broker (kill, term, pause, cut, truncate); Role
	// which broker it hits (leader, follower, controller).
	Action string `json:"action"`
	Role   string `json:"role"`
	// Partition is the partition whose leader or follower is hit (unused for controller).
	Partition int32 `json:"partition"`
	// Hold is how long the fault lasts before it is healed: a kill's time down, a pause's
	// or a cut's length, a truncate's time from the stale follower's restart to the
	// others'.
	Hold time.Duration `json:"hold"`
	// Lag is how long a truncate's follower is out of the ISR while the partition takes
	// writes.
	Lag time.Duration `json:"lag,omitempty"`
}

// FaultEvent is one fault as it happened.
type FaultEvent struct {
	// Step is the fault's index in the plan.
	Step int `json:"step"`
	// Kind is the plan's name for it: "leader-kill", "pause", "cut".
	Kind string `json:"kind"`
	// Broker is the node id hit, Partition the partition whose leader or follower it was
	// (-1 for a controller fault).
	Broker    int32 `json:"broker"`
	Partition int32 `json:"partition"`
	// Detail says what was done: "SIGKILL broker 2 (pid 4242), leader of t-0".
	Detail string `json:"detail"`
	// At is when the fault began, Applied when it had taken effect (the process gone
	// after SIGKILL or a SIGTERM's controlled shutdown, stopped, cut).
	At      time.Time `json:"at"`
	Applied time.Time `json:"applied"`
	// HealAt is when its heal began, HealedAt when it was done (a restarted broker back
	// in the cluster's metadata, SIGCONT sent, the proxies reopened); zero while not healed.
	HealAt   time.Time `json:"heal_at,omitzero"`
	HealedAt time.Time `json:"healed_at,omitzero"`
	// HealDetail says how it was healed: "restarted broker 2 (pid 4300)".
	HealDetail string `json:"heal_detail,omitempty"`
}

// FaultPhase is a time range of a run under faults: steady, inject, impact, heal or
// recover, as chaos harnesses name them.
type FaultPhase struct {
	Name  string    `json:"name"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	// Fault is the index in the events of the fault the phase belongs to, -1 for steady.
	Fault int `json:"fault"`
}

// VerifyPhase sums the per-second rows of one kind of phase (steady, inject, impact, heal,
// recover) over the whole run.
type VerifyPhase struct {
	Phase   string  `json:"phase"`
	Seconds float64 `json:"seconds"`
	Acked   int64   `json:"acked"`
	Failed  int64   `json:"failed"`
}

// VerifyRecovery is what one fault did to the writes.
type VerifyRecovery struct {
	Fault FaultEvent `json:"fault"`
	// InjectedAt and AppliedAt are seconds since the load began: when the fault began and
	// when it took effect (a SIGTERM's controlled shutdown takes a while). ResumedAfter is
	// the seconds from AppliedAt to the start of the first second (the one it took effect
	// in included, then 0) in which acknowledgements reached half the offered rate; -1 when
	// they never did. It is as fine as the rows: a second.
	InjectedAt   float64 `json:"injected_at"`
	AppliedAt    float64 `json:"applied_at"`
	ResumedAfter float64 `json:"resumed_after"`
}

// VerifyRow is one second of the load, for the availability timeline.
type VerifyRow struct {
	// At is the end of the interval, seconds since the load began; Seconds its length.
	At      float64 `json:"at"`
	Seconds float64 `json:"seconds"`
	// Acked and Failed records in the interval.
	Acked  int64 `json:"acked"`
	Failed int64 `json:"failed"`
	// Due-time latency of the interval's acknowledgements, milliseconds.
	P50Ms float64 `json:"p50_ms"`
	P99Ms float64 `json:"p99_ms"`
}

// WriteVerify writes v as dir/verify.json, atomically, creating dir. The producer settings
// arrive redacted: they are the clients' effective settings, whose secrets internal/kafka
// hides before they reach any result.
func WriteVerify(dir string, v *Verify) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("unable to create run directory: %w", err)
	}
	return writeJSON(filepath.Join(dir, VerifyFile), v)
}

// ReadVerify reads dir/verify.json.
func ReadVerify(dir string) (*Verify, error) {
	path := filepath.Join(dir, VerifyFile)
	var v Verify
	if err := readJSON(path, &v); err != nil {
		return nil, err
	}
	if v.Version > VerifyVersion {
		return nil, fmt.Errorf("unable to read %s: format version %d is newer than this kbench reads (%d)",
			path, v.Version, VerifyVersion)
	}
	return &v, nil
}
