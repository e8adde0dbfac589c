package load

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/metrics"
)

// TransactionSource is a RecordSource that also hears how each transaction ended: records
// [first, next) of producer were committed, or aborted (then a read_committed reader must
// never see them). It is called from the producer's sending goroutine once the transaction
// has ended, after every record of it had its Outcome.
type TransactionSource interface {
	RecordSource
	Transaction(producer int, first, next int64, committed bool)
}

// TransactionStats counts a trial's transactions, over all its producers.
type TransactionStats struct {
	// Committed and Aborted count the transactions that ended so; the records they held
	// are CommittedRecords and AbortedRecords (acknowledged or not).
	Committed        int64 `json:"committed"`
	Aborted          int64 `json:"aborted"`
	CommittedRecords int64 `json:"committed_records"`
	AbortedRecords   int64 `json:"aborted_records"`
	// CommitLatency runs from the decision to commit (the transaction's last record handed
	// to the client) to the coordinator's answer to EndTxn: the flush of the transaction's
	// records and the commit itself, what the Java producer's commitTransaction() takes. Only
	// transactions begun after the warm-up count.
	CommitLatency   metrics.LatencySummary `json:"commit_latency"`
	CommitHistogram *metrics.Histogram     `json:"commit_histogram"`
}

// AbortedShare is the share of ended transactions that were aborted (0 when none ended).
func (s *TransactionStats) AbortedShare() float64 {
	if n := s.Committed + s.Aborted; n > 0 {
		return float64(s.Aborted) / float64(n)
	}
	return 0
}

// transactions is a trial's tally of transactions, shared by its producers (commits are
// tens per second, so one lock costs nothing).
type transactions struct {
	mu     sync.Mutex
	stats  TransactionStats
	commit *metrics.Histogram
}

func newTransactions() *transactions { return &transactions{commit: metrics.NewHistogram()} }

func (t *transactions) ended(committed bool, records int64, latency time.Duration, steady bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if committed {
		t.stats.Committed++
		t.stats.CommittedRecords += records
		if steady {
			t.commit.Record(latency)
		}
	} else {
		t.stats.Aborted++
		t.stats.AbortedRecords += records
	}
}

func (t *transactions) result() *TransactionStats {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.stats
	s.CommitHistogram = t.commit.Clone()
	s.CommitLatency = s.CommitHistogram.Summary()
	return &s
}

// openTransaction is the transaction a producer has open.
type openTransaction struct {
	open    bool
	began   time.Time
	first   int64 // the sequence number of its first record
	records int64
	// steady is true when it began after the warm-up: its commit latency counts.
	steady bool
}

// txnRNG decides which of producer i's transactions are aborted on purpose, apart from the
// payload generator so that aborting does not change the records.
func txnRNG(seed uint64, i int) *rand.Rand {
	return rand.New(rand.NewPCG(seed^0x7478_6e61_626f_7274, uint64(i)+1))
}

// beginTransaction opens a transaction whose first record is number n.
func (w *producerWorker) beginTransaction(tx *openTransaction, n int64, steady bool) error {
	if err := w.cl.BeginTransaction(); err != nil {
		return fmt.Errorf("unable to begin transaction: %w", err)
	}
	*tx = openTransaction{open: true, began: time.Now(), first: n, steady: steady}
	return nil
}

// full says whether the open transaction is to end: it is TransactionDuration old or holds
// TransactionRecords records.
func (tx *openTransaction) full(cfg *ProducerConfig) bool {
	return (cfg.TransactionDuration > 0 && time.Since(tx.began) >= cfg.TransactionDuration) ||
		(cfg.TransactionRecords > 0 && tx.records >= cfg.TransactionRecords)
}

// endTransaction ends the open transaction. Aborted on purpose (abort), its records are flushed
// first, so that they reach the log and are hidden there rather than never sent. Otherwise
// it is committed once its records are acknowledged, or aborted when wait ended first (then
// the error says so and the run stops, as Kafka's tool does).
func (w *producerWorker) endTransaction(tx *openTransaction, wait context.Context, abort bool) error {
	tx.open = false
	began := time.Now()
	if unacknowledged := finishRecords(w.cl, wait); abort || unacknowledged {
		ctx, cancel := context.WithTimeout(context.Background(), abortTimeout+StopGrace)
		defer cancel()
		if err := w.cl.EndTransaction(ctx, kgo.TryAbort); err != nil {
			return fmt.Errorf("unable to abort transaction: %w", err)
		}
		w.txnEnded(tx, false, 0)
		if unacknowledged {
			return fmt.Errorf("transaction aborted: its records were not acknowledged in time")
		}
		return nil
	}
	if err := w.cl.EndTransaction(wait, kgo.TryCommit); err != nil {
		return fmt.Errorf("unable to commit transaction: %w", err)
	}
	w.txnEnded(tx, true, time.Since(began))
	return nil
}

func (w *producerWorker) txnEnded(tx *openTransaction, committed bool, latency time.Duration) {
	if tx.records == 0 {
		return // opened as the run ended: nothing was in it, and kgo sent nothing
	}
	w.txns.ended(committed, tx.records, latency, tx.steady)
	if ts, ok := w.source.(TransactionSource); ok {
		ts.Transaction(w.id, tx.first, tx.first+tx.records, committed)
	}
}

// transactionInit bounds the loading of a transactional producer's ID. The first on a
// cluster makes the brokers create __transaction_state (50 partitions): seconds, on a busy
// machine more than ten.
const transactionInit = time.Minute

// initTransactions loads each client's producer ID (InitProducerId, through the transaction
// coordinator) when the clients open, so that no trial's first transaction waits for it:
// measured, a first InitProducerId on a fresh cluster held a 5 s window's only transaction
// for 15 s.
func initTransactions(clients []*kgo.Client) error {
	ctx, cancel := context.WithTimeout(context.Background(), transactionInit)
	defer cancel()
	for i, cl := range clients {
		if _, _, err := cl.ProducerID(ctx); err != nil {
			return fmt.Errorf("unable to initialise transactional producer %d: %w", i, err)
		}
	}
	return nil
}
