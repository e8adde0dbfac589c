package rebalance

// Log is what a consume run with membership events recorded, times in microseconds since
// the run's start. It is enough to compute every figure of Analyze again.
type Log struct {
	// Partitions is the topic's partition count: a stable group owns all of them.
	Partitions int `json:"partitions"`
	// EndUs is when consumption stopped; changes after it (the final leaves) are not read.
	EndUs   int64    `json:"end_us"`
	Events  []Event  `json:"events"`
	Changes []Change `json:"changes"`
	Records Records  `json:"records"`
	// Truncated is set when the run consumed more records than a log keeps (MaxRecords):
	// records after the limit are missing and the figures of later events are incomplete.
	Truncated bool `json:"truncated,omitempty"`
}

// MaxRecords bounds a log's records (28 bytes each in memory).
const MaxRecords = 4_000_000

// Event is a scheduled event as it happened, to which member.
type Event struct {
	// Spec is the event as the schedule wrote it ("kill@20s").
	Spec   string `json:"spec"`
	Kind   Kind   `json:"kind"`
	AtUs   int64  `json:"at_us"`
	Member int    `json:"member"`
	// MemberID is the group's ID of the member, as the brokers know it (empty for a join:
	// the member has none yet).
	MemberID string `json:"member_id,omitempty"`
	// Skipped says why the event did not happen (no member left to stop).
	Skipped string `json:"skipped,omitempty"`
}

// The kinds of Change: the group's assignment callbacks.
const (
	Assigned = "assigned"
	Revoked  = "revoked"
)

// Change is one assignment callback of one member: partitions it gained or gave up (a lost
// partition counts as revoked).
type Change struct {
	AtUs       int64   `json:"at_us"`
	Member     int     `json:"member"`
	Kind       string  `json:"kind"`
	Partitions []int32 `json:"partitions"`
}

// Records holds one entry per consumed record, column by column (compact in JSON):
// Partition, ConsumedUs (when the application got it), Offset, and ProducedUs (when it was
// produced, from the kbench timestamp header or the record's create time).
type Records struct {
	Partition  []int32 `json:"partition"`
	ConsumedUs []int64 `json:"consumed_us"`
	Offset     []int64 `json:"offset"`
	ProducedUs []int64 `json:"produced_us"`
}

// Len is the number of records.
func (r *Records) Len() int { return len(r.Partition) }

// Add appends one record.
func (r *Records) Add(partition int32, consumedUs, offset, producedUs int64) {
	r.Partition = append(r.Partition, partition)
	r.ConsumedUs = append(r.ConsumedUs, consumedUs)
	r.Offset = append(r.Offset, offset)
	r.ProducedUs = append(r.ProducedUs, producedUs)
}
