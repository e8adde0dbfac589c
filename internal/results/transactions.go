package results

// LatencyCommit is the kind of Repeat.Latency holding the producers' commit latency: from
// the decision to commit a transaction to the coordinator's answer (see Transactions).
const LatencyCommit = "commit"

// TransactionWorkload is what a scenario asked of its transactional producers.
type TransactionWorkload struct {
	// LengthMs is the age at which each producer commits (0: by records only); Records the
	// records per transaction and producer (0: by age only).
	LengthMs float64 `json:"length_ms,omitempty"`
	Records  int64   `json:"records,omitempty"`
	// AbortShare is the share of transactions aborted on purpose.
	AbortShare float64 `json:"abort_share,omitempty"`
}

// Transactions is a repeat's transactions, over the whole load (warm-up included) but for
// the commit latency, which counts the transactions begun after the warm-up.
type Transactions struct {
	Committed        int64 `json:"committed"`
	Aborted          int64 `json:"aborted"`
	CommittedRecords int64 `json:"committed_records"`
	AbortedRecords   int64 `json:"aborted_records"`
	// CommitLatency runs from the transaction's last record handed to the client to the
	// commit's answer: the flush of its records and EndTxn, what the Java producer's
	// commitTransaction() takes. Its histogram is Repeat.Latency[LatencyCommit].
	CommitLatency Latency `json:"commit_latency"`
	// Isolation is the consumers' isolation.level ("" without consumers). With
	// read_committed, Summary.EndToEnd is the latency until a record was readable: after
	// its transaction committed.
	Isolation string `json:"isolation,omitempty"`
}

// AbortedShare is the share of ended transactions that were aborted (0 when none ended).
func (t *Transactions) AbortedShare() float64 {
	if n := t.Committed + t.Aborted; n > 0 {
		return float64(t.Aborted) / float64(n)
	}
	return 0
}
