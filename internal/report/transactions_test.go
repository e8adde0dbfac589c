package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// transactionRun is a run of two scenarios equal but for the parameter mode: plain at
// 10,000 records/s, and 100 ms transactions (one in 20 aborted) at 9,000 and 9,400.
func transactionRun() *results.RunDir {
	txn := func(n int, rate, commit50, commit99, e2e50 float64, committed, aborted int64) results.Repeat {
		return results.Repeat{Repeat: n, Validity: results.Validity{Valid: true},
			Workload: results.Workload{Kind: "produce+consume", Transaction: &results.TransactionWorkload{LengthMs: 100, AbortShare: 0.05}},
			Summary: results.Summary{RecordsPerSec: rate, EndToEnd: &results.Latency{Count: 1000, P50Ms: e2e50, P99Ms: 2 * e2e50},
				Transactions: &results.Transactions{Committed: committed, Aborted: aborted, Isolation: "read_committed",
					CommitLatency: results.Latency{Count: committed, P50Ms: commit50, P99Ms: commit99}}}}
	}
	plain := func(n int, rate float64) results.Repeat {
		return results.Repeat{Repeat: n, Validity: results.Validity{Valid: true}, Workload: results.Workload{Kind: "produce+consume"},
			Summary: results.Summary{RecordsPerSec: rate}}
	}
	return &results.RunDir{
		Run: results.Run{Scenarios: []results.Scenario{
			{ID: "mode=plain", Params: []results.Param{{Name: "mode", Value: "plain"}}},
			{ID: "mode=txn", Params: []results.Param{{Name: "mode", Value: "txn"}}},
		}},
		Repeats: map[string][]results.Repeat{
			"mode=plain": {plain(1, 10000), plain(2, 10000)},
			"mode=txn":   {txn(1, 9000, 4, 10, 53, 95, 5), txn(2, 9400, 6, 12, 57, 95, 5)},
		},
	}
}

func TestTransactionRows(t *testing.T) {
	rd := transactionRun()
	rows := transactionRows(rd, resultRows(rd, []string{"mode"}, nil, results.Environment{}, 0.1))
	if len(rows) != 1 {
		t.Fatalf("rows = %+v, want the transactional scenario only", rows)
	}
	r := rows[0]
	// By hand: 10 of 200 aborted = 5%; commit p50 median of 4 and 6 = 5 ms; expected
	// end-to-end p50 = 100/2 + 5 = 55 ms; records/s median 9,200 against 10,000 = -8%.
	if r.Committed != 190 || r.Aborted != 10 || r.AbortedShare != 0.05 || r.CommitP50.Median != 5 || r.CommitP99.Median != 11 ||
		r.ExpectedE2EP50 != 55 || r.E2EP50 == nil || r.E2EP50.Median != 55 || r.Plain != "mode=plain" || r.RecordsPerSec.Median != 9200 {
		t.Fatalf("row %+v", r)
	}
	if d := r.RateChange - (-0.08); d > 1e-9 || d < -1e-9 {
		t.Errorf("rate change %v, want -0.08", r.RateChange)
	}
	want := "mode=txn: 100ms transactions, 5% aborted on purpose; commit p50 5.00 ms, p99 11.0 ms; read_committed end-to-end p50 55.0 ms, p99 110 ms " +
		"(half the transaction plus the commit: 55.0 ms); 5.00% of 200 transactions aborted; 9,200 records/s against mode=plain's 10,000 (-8%)"
	if r.Text != want {
		t.Errorf("text\n got %q\nwant %q", r.Text, want)
	}
	m := &Model{Title: "t", Transactions: rows}
	var md, html bytes.Buffer
	if err := WriteMarkdown(&md, m); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, m); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": md.String(), "html": html.String()} {
		if !strings.Contains(out, "4.3 Transactions") || !strings.Contains(out, "Transactions: mode=txn: 100ms transactions") {
			t.Errorf("%s lacks the transactions section or its conclusion", name)
		}
	}
}

// A transactional scenario's commands run its transactions, and its workload says so.
func TestTransactionCommands(t *testing.T) {
	r := results.Repeat{Topic: results.Topic{Name: "k-s02-r1"}, Workload: results.Workload{Kind: "produce", Producers: 1,
		RecordSize: 100, Throughput: 1000, Transaction: &results.TransactionWorkload{LengthMs: 100, AbortShare: 0.2}}}
	kb, tool := clientCommands(r, 5000)
	for _, cmd := range []string{kb, tool} {
		if !strings.Contains(cmd, "--transactional-id k-s02-r1-txn --transaction-duration-ms 100") {
			t.Errorf("command lacks the transaction: %s", cmd)
		}
	}
	if w := workloadText(r.Workload); !strings.HasSuffix(w, ", 100ms transactions, 20% aborted on purpose") {
		t.Errorf("workload %q", w)
	}
}
