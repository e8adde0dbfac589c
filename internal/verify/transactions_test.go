package verify

import (
	"strings"
	"testing"
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
