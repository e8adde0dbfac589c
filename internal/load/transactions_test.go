package load

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// txnSource is a countingSource that also hears how each transaction ended.
type txnSource struct {
	countingSource
	mu     sync.Mutex
	ranges map[int][][3]int64 // producer -> [first, next, committed?1:0]
}

func (s *txnSource) Transaction(i int, first, next int64, committed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := int64(0)
	if committed {
		c = 1
	}
	s.ranges[i] = append(s.ranges[i], [3]int64{first, next, c})
}

// TestTransactionsFake runs transactions of 50 records, 30% of them aborted on purpose, and
// checks the tally against what a read_committed consumer reads and what the source heard.
func TestTransactionsFake(t *testing.T) {
	boot := newFakeCluster(t, "txn")
	src := &txnSource{countingSource: countingSource{outcomes: map[string]int{}}, ranges: map[int][][3]int64{}}
	// 2 producers x 500 records, 50 a transaction: 10 transactions each, 20 in all.
	res, err := Produce(context.Background(), ProducerConfig{Bootstrap: boot, Topic: "txn", Producers: 2,
		Records: 1000, Source: src, TransactionalID: "txn-fake", TransactionRecords: 50, AbortShare: 0.3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tx := res.Transactions
	if tx == nil {
		t.Fatal("no transaction stats")
	}
	if tx.Committed+tx.Aborted != 20 || tx.CommittedRecords != 50*tx.Committed || tx.AbortedRecords != 50*tx.Aborted {
		t.Fatalf("transactions %+v, want 20 of 50 records each", tx)
	}
	// Each of the 20 is aborted with probability 0.3: none or all of them would happen
	// with probability 0.7^20 + 0.3^20 < 0.1%, and the seed is fixed.
	if tx.Aborted == 0 || tx.Committed == 0 {
		t.Errorf("aborted %d of 20, want some of each", tx.Aborted)
	}
	if tx.CommitLatency.Count != tx.Committed || tx.CommitHistogram.Count() != tx.Committed {
		t.Errorf("commit latency count %d, want one per commit (%d)", tx.CommitLatency.Count, tx.Committed)
	}
	var heardAborted int64
	for i := range 2 {
		r := src.ranges[i]
		// Contiguous ranges of 50 from 0 to the producer's 500.
		for j, rg := range r {
			if rg[0] != int64(50*j) || rg[1] != int64(50*(j+1)) {
				t.Errorf("producer %d transaction %d covers [%d, %d), want [%d, %d)", i, j, rg[0], rg[1], 50*j, 50*(j+1))
			}
			if rg[2] == 0 {
				heardAborted++
			}
		}
		if len(r) != 10 {
			t.Errorf("producer %d: %d transactions heard, want 10", i, len(r))
		}
	}
	if heardAborted != tx.Aborted {
		t.Errorf("source heard %d aborted, stats say %d", heardAborted, tx.Aborted)
	}
	// Every record was acknowledged (aborted ones too: they reached the log), and a
	// read_committed consumer reads the committed ones only.
	want := 1000 - tx.AbortedRecords
	cres, err := Consume(context.Background(), ConsumerConfig{Bootstrap: boot, Topics: []string{"txn"}, Records: want,
		Timeout: 20 * time.Second, Properties: map[string]string{"isolation.level": "read_committed"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Total.Acked != 1000 || cres.Records != want {
		t.Errorf("acked %d, consumed %d; want 1000 and %d", res.Total.Acked, cres.Records, want)
	}
}

func TestTransactionConfigErrors(t *testing.T) {
	base := ProducerConfig{Bootstrap: "x:1", Topic: "t", RecordSize: 1, Records: 5}
	for _, tt := range []struct {
		name string
		set  func(*ProducerConfig)
		want string
	}{
		{"abort share of one", func(c *ProducerConfig) { c.TransactionRecords, c.AbortShare = 5, 1 }, "abort share 1 is not from 0 to below 1"},
		{"negative records", func(c *ProducerConfig) { c.TransactionalID, c.TransactionRecords = "t", -1 }, "records per transaction -1 is negative"},
		{"aborts without transactions", func(c *ProducerConfig) { c.AbortShare = 0.1 }, "an abort share needs transactions"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			tt.set(&c)
			_, err := Produce(context.Background(), c, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want %q", err, tt.want)
			}
		})
	}
}
