package runner

import (
	"context"
	"fmt"
	"slices"
	"time"

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

// Bounds of the transactions' warm-up: trials of txnWarmupTrial until one commits
// txnWarmupCommits transactions none slower than txnWarmupSlow, for at most txnWarmupMax.
const (
	txnWarmupTrial   = time.Second
	txnWarmupCommits = 5
	txnWarmupSlow    = 500 * time.Millisecond
	txnWarmupMax     = 30 * time.Second
)

// warmTransactions runs unmeasured transactions before the first repeat when a scenario of
// the plan is transactional. A cluster's first transactions are slow while the brokers
// create and load __transaction_state (measured on a 2-broker cluster of a busy 2-core
// machine: commits of 4-5 s for the first 20 s), which would fall on the first
// transactional scenario's window; a cluster that has run transactions before passes the
// first trial.
func (r *runner) warmTransactions(ctx context.Context) error {
	if !slices.ContainsFunc(r.plan.Scenarios, func(sc study.Scenario) bool { return sc.Producers.Transaction.Enabled() }) {
		return nil
	}
	topic := r.prefix + "-txn-warmup"
	defer r.release(ctx, topic, "")
	// An external cluster's brokers are known only when they are sampled: one copy then.
	n := max(len(r.target.brokers), 1)
	if err := r.createTopic(ctx, topic, n, min(3, n), nil); err != nil {
		return fmt.Errorf("transactions warm-up: %w", err)
	}
	p, err := load.OpenProducers(load.ProducerConfig{Bootstrap: r.target.bootstrap, Topic: topic,
		Properties: clientProps(r.target.endpoint, nil), RecordSize: 100, Keys: load.KeysNone,
		TransactionalID: topic, TransactionRecords: 10})
	if err != nil {
		return fmt.Errorf("transactions warm-up: %w", err)
	}
	defer p.Close()
	began := time.Now()
	for time.Since(began) < txnWarmupMax {
		res, err := p.Trial(ctx, load.Schedule{Rate: 1000, Duration: txnWarmupTrial}, nil)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil {
			return fmt.Errorf("transactions warm-up: %w", err)
		}
		if t := res.Transactions; t != nil && t.Committed >= txnWarmupCommits && time.Duration(t.CommitLatency.MaxUs)*time.Microsecond < txnWarmupSlow {
			fmt.Fprintf(r.opts.Log, "transactions warmed up in %.1fs (unmeasured)\n", time.Since(began).Seconds())
			return nil
		}
	}
	fmt.Fprintf(r.opts.Log, "transactions still slower than %v to commit after %v of warm-up; going on\n", txnWarmupSlow, txnWarmupMax)
	return nil
}
