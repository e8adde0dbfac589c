package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/cluster/kfaketest"
	"github.com/kbench/kbench/internal/results"
)

// The transactional runs below are cleanLogs' run (see check_test.go) with producer 0's
// records 0-1 in one transaction and 2-3 in another, and producer 1's 0-3 in one. The
// counts are worked out by hand from the logs.
func TestCheckTransactions(t *testing.T) {
	l := cleanLogs()
	// without drops the records a read_committed read skips: those of aborted ones.
	without := func(log []logEntry, hidden func(logEntry) bool) []Entry {
		var out []Entry
		for off, e := range log {
			if !hidden(e) {
				out = append(out, Entry{Offset: int64(off), Producer: e.producer, Seq: e.seq})
			}
		}
		return out
	}
	p0second := func(e logEntry) bool { return e.producer == 0 && e.seq >= 2 }
	tests := []struct {
		name string
		// aborted: whether each transaction (P0 0-1, P0 2-3, P1 0-3) was aborted.
		aborted [3]bool
		reads   [2][]Entry
		want    Counts
	}{
		{"all committed, all read", [3]bool{}, [2][]Entry{reads(l[0]), reads(l[1])}, Counts{}},
		// P0s2 (partition 0) and P0s3 (partition 1) are hidden, as they must be: no anomaly.
		{"one aborted, hidden", [3]bool{false, true, false},
			[2][]Entry{without(l[0], p0second), without(l[1], p0second)}, Counts{Hidden: 2}},
		// The same abort, but the read returned P0s3: one aborted record visible, one hidden.
		{"one aborted, a record of it read", [3]bool{false, true, false},
			[2][]Entry{without(l[0], p0second), reads(l[1])}, Counts{Hidden: 1, AbortedVisible: 1}},
		// Every transaction committed, yet P0s2 and P0s3 were not read: lost, not hidden.
		{"committed records missing are lost", [3]bool{},
			[2][]Entry{without(l[0], p0second), without(l[1], p0second)}, Counts{Lost: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := history(l)
			h.Transaction(0, 0, 2, !tt.aborted[0])
			h.Transaction(0, 2, 4, !tt.aborted[1])
			h.Transaction(1, 0, 4, !tt.aborted[2])
			if got := check(h, tt.reads); got != tt.want {
				t.Errorf("counts %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestTransactionTotalsAndLines(t *testing.T) {
	h := history(cleanLogs())
	h.Transaction(0, 0, 2, true)
	h.Transaction(0, 2, 4, false)
	h.Transaction(1, 0, 4, true)
	tt := h.TransactionTotals()
	if tt.Committed != 2 || tt.Aborted != 1 || tt.AbortedRecords != 2 {
		t.Fatalf("totals %+v, want 2 committed, 1 aborted of 2 records", tt)
	}
	for seq, want := range []bool{false, false, true, true} {
		if got := h.inAborted(0, int64(seq)); got != want {
			t.Errorf("P0s%d in an aborted transaction: %v, want %v", seq, got, want)
		}
	}
	res := &Result{Totals: h.Totals(), Transactions: &tt, Counts: Counts{Hidden: 2}, Read: ReadStats{Records: 6}}
	if v := res.Verdict(); v != "lost 0, duplicated 0, reordered 0, inconsistent 0, unexpected 0, aborted but visible 0 (of 8 acknowledged)" {
		t.Errorf("verdict %q", v)
	}
	if a := res.Accounting(); !strings.HasSuffix(a, "6 read back (read_committed); 3 transactions: 2 committed, 1 aborted (2 records); 2 acknowledged records hidden by their aborted transaction") {
		t.Errorf("accounting %q", a)
	}
	if !res.Clean() {
		t.Error("hidden records counted as an anomaly")
	}
}

// TestRunTransactionalFake runs the transactional mode on kfake: a clean run with every
// transaction committed, and a control that aborts 30% of them, whose records must all be
// hidden and none lost.
func TestRunTransactionalFake(t *testing.T) {
	for _, abort := range []float64{0, 0.3} {
		t.Run(fmt.Sprintf("abort %g", abort), func(t *testing.T) {
			_, boot := kfaketest.Start(t, kfake.NumBrokers(3))
			dir := t.TempDir()
			res, err := Run(context.Background(), Config{Bootstrap: boot, Topic: "kbench-verify-txn", Partitions: 3, Replicas: 1,
				Producers: 2, Rate: 1000, Duration: 1500 * time.Millisecond, Transactional: true,
				TransactionLength: 50 * time.Millisecond, AbortShare: abort, Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			checkTransactional(t, res, abort > 0)
			if _, err := os.Stat(filepath.Join(dir, results.AbortedFile)); err != nil || !slices.Contains(res.Files, results.AbortedFile) {
				t.Errorf("aborted transactions file: %v (files %v)", err, res.Files)
			}
		})
	}
}

// checkTransactional checks a transactional run's accounting: no anomaly; every record of
// an aborted transaction acknowledged (it was flushed before the abort) and hidden, and
// every other acknowledged record read once.
func checkTransactional(t *testing.T, res *Result, aborts bool) {
	t.Helper()
	tt := res.Transactions
	if tt == nil || tt.Committed == 0 {
		t.Fatalf("transactions %+v, want some committed", tt)
	}
	if !res.Clean() || res.Counts.UnacknowledgedPresent != 0 {
		t.Errorf("counts %+v, want no anomaly", res.Counts)
	}
	if aborts != (tt.Aborted > 0) {
		t.Errorf("%d transactions aborted, want some: %v", tt.Aborted, aborts)
	}
	if res.Counts.Hidden != tt.AbortedRecords || res.Read.Records != res.Totals.Acked-tt.AbortedRecords {
		t.Errorf("hidden %d, read %d; want the %d records of aborted transactions hidden and the other %d of %d acknowledged read",
			res.Counts.Hidden, res.Read.Records, tt.AbortedRecords, res.Totals.Acked-tt.AbortedRecords, res.Totals.Acked)
	}
	if res.Totals.Acked != res.Totals.Sent {
		t.Errorf("%d of %d sent acknowledged, want all", res.Totals.Acked, res.Totals.Sent)
	}
}

// TestControlTransactions runs the transactional mode on the real cluster: a clean run
// without aborts, and the control that aborts a fifth of the transactions on purpose.
func TestControlTransactions(t *testing.T) {
	clustertest.Need(t, testCluster)
	for _, abort := range []float64{0, 0.2} {
		t.Run(fmt.Sprintf("abort %g", abort), func(t *testing.T) {
			cfg := controlConfig(t, "", 4*time.Second, "all", 3, 2, false)
			cfg.Transactional, cfg.TransactionLength, cfg.AbortShare = true, 100*time.Millisecond, abort
			checkTransactional(t, runControl(t, cfg), abort > 0)
		})
	}
}

func TestConfigValidateTransactions(t *testing.T) {
	ok := Config{Bootstrap: "b:9092", Topic: "t", Partitions: 1, Replicas: 1, Producers: 1, Rate: 1, Duration: time.Second}
	tests := []struct {
		name string
		edit func(*Config)
		want string // "" valid
	}{
		{"transactional", func(c *Config) { c.Transactional, c.AbortShare = true, 0.1 }, ""},
		{"abort share without transactions", func(c *Config) { c.AbortShare = 0.1 }, "need --transactional"},
		{"abort share of one", func(c *Config) { c.Transactional, c.AbortShare = true, 1 }, "--abort-share 1"},
		{"negative length", func(c *Config) { c.Transactional, c.TransactionLength = true, -time.Millisecond }, "--transaction-duration-ms -1"},
		// Transactions need idempotence, which acks=1 turns off.
		{"acks=1", func(c *Config) { c.Transactional, c.ProducerProps = true, map[string]string{"acks": "1"} }, "--transactional needs an idempotent producer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.edit(&c)
			err := c.Validate()
			if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("Validate() = %v, want %q", err, tt.want)
			}
		})
	}
}
