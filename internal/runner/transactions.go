package runner

import (
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
)

// transactionWorkload records what sc asked of transactional producers (nil: none).
func transactionWorkload(sc study.Scenario) *results.TransactionWorkload {
	t := sc.Producers.Transaction
	if !t.Enabled() {
		return nil
	}
	return &results.TransactionWorkload{LengthMs: float64(t.Length.Microseconds()) / 1000, Records: t.Records, AbortShare: t.AbortShare}
}

// applyTransaction makes cfg's producers transactional as sc asks. kbench owns the
// transactional.id: one per repeat (its topic is fresh), suffixed per producer by the load
// engine, so no two producers, repeats or runs fence one another.
func applyTransaction(cfg *load.ProducerConfig, sc study.Scenario) {
	t := sc.Producers.Transaction
	if !t.Enabled() {
		return
	}
	cfg.TransactionalID = cfg.Topic + "-txn"
	cfg.TransactionDuration, cfg.TransactionRecords, cfg.AbortShare = t.Length, t.Records, t.AbortShare
}

// readCommitted says whether sc's consumers read committed records only.
func readCommitted(sc study.Scenario) bool {
	return sc.Consumers.Properties["isolation.level"] == "read_committed"
}

// hiddenRecords are the acknowledged records sc's consumers cannot read: those of aborted
// transactions, when they read committed records only.
func hiddenRecords(p *load.ProduceResult, sc study.Scenario) int64 {
	if p == nil || p.Transactions == nil || !readCommitted(sc) {
		return 0
	}
	return p.Transactions.AbortedRecords
}

// fillTransactions records the producers' transactions in rep: the counts, the commit
// latency and its histogram, and the consumers' isolation level.
func (m *measurement) fillTransactions(rep *results.Repeat, sc study.Scenario) {
	if m.prod == nil || m.prod.Transactions == nil {
		return
	}
	t := m.prod.Transactions
	rep.Summary.Transactions = &results.Transactions{Committed: t.Committed, Aborted: t.Aborted,
		CommittedRecords: t.CommittedRecords, AbortedRecords: t.AbortedRecords, CommitLatency: latency(t.CommitLatency)}
	if sc.Consumers.Count > 0 {
		rep.Summary.Transactions.Isolation = "read_uncommitted"
		if readCommitted(sc) {
			rep.Summary.Transactions.Isolation = "read_committed"
		}
	}
	rep.Latency[results.LatencyCommit] = buckets(t.CommitHistogram)
}
