package verify

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/settings"
)

// DefaultTransactionLength is a transactional run's transaction length when none is given.
const DefaultTransactionLength = 100 * time.Millisecond

// seqRange is the records [first, next) of one producer's transaction.
type seqRange struct{ first, next int64 }

// Transaction records how producer's transaction of records [first, next) ended
// (load.TransactionSource): an aborted one's records must stay hidden from a read_committed
// reader, acknowledged or not.
func (h *History) Transaction(producer int, first, next int64, committed bool) {
	p := &h.producers[producer]
	p.mu.Lock()
	defer p.mu.Unlock()
	if committed {
		p.committed++
		return
	}
	// A producer's transactions end in order of their records, so the list stays sorted.
	p.aborted = append(p.aborted, seqRange{first, next})
}

// inAborted reports whether producer's record seq belongs to an aborted transaction.
func (h *History) inAborted(producer int32, seq int64) bool {
	ranges := h.producers[producer].aborted
	i, _ := slices.BinarySearchFunc(ranges, seq, func(r seqRange, s int64) int {
		switch {
		case r.next <= s:
			return -1
		case r.first > s:
			return 1
		}
		return 0
	})
	return i < len(ranges) && ranges[i].first <= seq && seq < ranges[i].next
}

// TransactionTotals counts a transactional run's transactions.
type TransactionTotals struct {
	// LengthMs and AbortShare are what the run asked: each producer commits a transaction
	// once it is that old, and aborts that share of them on purpose (the control).
	LengthMs   float64
	AbortShare float64
	Committed  int64
	Aborted    int64
	// AbortedRecords are the records of aborted transactions, acknowledged or not: a
	// read_committed reader must see none of them.
	AbortedRecords int64
}

// TransactionTotals counts h's transactions (zero for a run without them).
func (h *History) TransactionTotals() TransactionTotals {
	var t TransactionTotals
	for i := range h.producers {
		p := &h.producers[i]
		p.mu.Lock()
		t.Committed += p.committed
		t.Aborted += int64(len(p.aborted))
		for _, r := range p.aborted {
			t.AbortedRecords += r.next - r.first
		}
		p.mu.Unlock()
	}
	return t
}

// String is the transactions in words, for the accounting line.
func (t TransactionTotals) String() string {
	return fmt.Sprintf("%s transactions: %s committed, %s aborted (%s records)", n(t.Committed+t.Aborted), n(t.Committed), n(t.Aborted), n(t.AbortedRecords))
}

// writeAborted writes results.AbortedFile: every aborted transaction of h.
func writeAborted(dir string, h *History) error {
	f, err := createTSV(filepath.Join(dir, results.AbortedFile))
	if err != nil {
		return err
	}
	for i := range h.producers {
		for _, r := range h.producers[i].aborted {
			f.line(int64(i), r.first, r.next, 0, "aborted")
		}
	}
	return f.close()
}

// validateTransactions checks the transactional settings, naming the flag.
func (c *Config) validateTransactions() []error {
	var errs []error
	if !c.Transactional && (c.TransactionLength != 0 || c.AbortShare != 0) {
		errs = append(errs, errors.New("--transaction-duration-ms and --abort-share need --transactional"))
	}
	if c.TransactionLength < 0 {
		errs = append(errs, fmt.Errorf("--transaction-duration-ms %d: want a positive length", c.TransactionLength.Milliseconds()))
	}
	if !(c.AbortShare >= 0 && c.AbortShare < 1) {
		errs = append(errs, fmt.Errorf("--abort-share %v: want a share from 0 to below 1, such as 0.1", c.AbortShare))
	}
	if c.Transactional {
		props := c.producerProps()
		props["transactional.id"] = "kbench-verify" // a stand-in for the producers' own ids
		var se *settings.Error
		if _, err := settings.Resolve(settings.Producer, props); errors.As(err, &se) && se.Property == "transactional.id" {
			errs = append(errs, errors.New("--transactional needs an idempotent producer (acks=all, retries > 0, 5 requests in flight); --producer-props turn idempotence off"))
		}
	}
	return errs
}

// transactionalID is the run's transactional.id, suffixed per producer by the load engine.
func (c *Config) transactionalID() string { return c.Topic + "-txn" }

// transactionLength is the length of the run's transactions.
func (c *Config) transactionLength() time.Duration {
	if c.TransactionLength > 0 {
		return c.TransactionLength
	}
	return DefaultTransactionLength
}
