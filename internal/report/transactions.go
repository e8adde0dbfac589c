package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/results"
)

// TransactionRow is one transactional scenario's transactions, medians over its valid
// repeats.
type TransactionRow struct {
	ID string `json:"id"`
	// Transaction says what was asked: "100ms transactions, 10% aborted on purpose".
	Transaction string `json:"transaction"`
	// Committed and Aborted sum the valid repeats' transactions; AbortedShare is their share.
	Committed    int64   `json:"committed"`
	Aborted      int64   `json:"aborted"`
	AbortedShare float64 `json:"aborted_share"`
	// CommitP50 and CommitP99: the commit's latency (flush and EndTxn), in ms.
	CommitP50 Stat `json:"commit_p50_ms"`
	CommitP99 Stat `json:"commit_p99_ms"`
	// Isolation is the consumers' isolation level; E2EP50 and E2EP99 their end-to-end
	// latency (ms), until a record was readable (after its commit, under read_committed).
	Isolation string `json:"isolation,omitempty"`
	E2EP50    *Stat  `json:"e2e_p50_ms,omitempty"`
	E2EP99    *Stat  `json:"e2e_p99_ms,omitempty"`
	// ExpectedE2EP50 is half the transaction's length plus the median commit p50 (ms): where
	// a read_committed p50 should lie when records are sent evenly through each transaction
	// and become readable at its commit. 0 when transactions end by record count.
	ExpectedE2EP50 float64 `json:"expected_e2e_p50_ms,omitempty"`
	RecordsPerSec  Stat    `json:"records_per_sec"`
	// Plain names the non-transactional scenario it pairs with (equal but for one
	// parameter), and RateChange the change of records/s from it (-0.08 for 8% fewer).
	Plain      string  `json:"plain,omitempty"`
	RateChange float64 `json:"rate_change,omitempty"`
	Text       string  `json:"text"`
}

// transactionRows lists the transactional scenarios, in scenario order.
func transactionRows(rd *results.RunDir, rows []Row) []TransactionRow {
	var out []TransactionRow
	for _, row := range rows {
		reps := rd.Repeats[row.ID]
		var asked *results.TransactionWorkload
		for _, r := range reps {
			if r.Workload.Transaction != nil {
				asked = r.Workload.Transaction
			}
		}
		if asked == nil {
			continue
		}
		tr := TransactionRow{ID: row.ID, Transaction: transactionWords(asked), RecordsPerSec: row.RecordsPerSec}
		var p50, p99, e50, e99 []float64
		for _, r := range row.repeatsForPlot { // the valid repeats
			t := r.Summary.Transactions
			if t == nil {
				continue
			}
			tr.Committed += t.Committed
			tr.Aborted += t.Aborted
			tr.Isolation = t.Isolation
			if t.CommitLatency.Count > 0 {
				p50, p99 = append(p50, t.CommitLatency.P50Ms), append(p99, t.CommitLatency.P99Ms)
			}
			if e := r.Summary.EndToEnd; e != nil && e.Count > 0 {
				e50, e99 = append(e50, e.P50Ms), append(e99, e.P99Ms)
			}
		}
		if n := tr.Committed + tr.Aborted; n > 0 {
			tr.AbortedShare = float64(tr.Aborted) / float64(n)
		}
		tr.CommitP50, tr.CommitP99 = statOf(p50), statOf(p99)
		if len(e50) > 0 {
			s50, s99 := statOf(e50), statOf(e99)
			tr.E2EP50, tr.E2EP99 = &s50, &s99
		}
		if asked.LengthMs > 0 && asked.Records == 0 && tr.CommitP50.N > 0 {
			tr.ExpectedE2EP50 = asked.LengthMs/2 + tr.CommitP50.Median
		}
		if plain, ok := plainPair(rd, rows, row); ok && plain.RecordsPerSec.N > 0 && tr.RecordsPerSec.N > 0 {
			tr.Plain, tr.RateChange = plain.ID, change(plain.RecordsPerSec.Median, tr.RecordsPerSec.Median)
		}
		tr.Text = transactionSentence(tr)
		out = append(out, tr)
	}
	return out
}

// plainPair finds the scenario row pairs with: not transactional, and equal to it in every
// parameter but one (the one that turns transactions on, plain or named).
func plainPair(rd *results.RunDir, rows []Row, row Row) (Row, bool) {
	for _, other := range rows {
		if other.ID == row.ID || transactional(rd.Repeats[other.ID]) || len(other.paramMap) != len(row.paramMap) {
			continue
		}
		differ := 0
		for k, v := range row.paramMap {
			if w, ok := other.paramMap[k]; !ok {
				differ = 2
			} else if w != v {
				differ++
			}
		}
		if differ == 1 {
			return other, true
		}
	}
	return Row{}, false
}

func transactional(reps []results.Repeat) bool {
	for _, r := range reps {
		if r.Workload.Transaction != nil {
			return true
		}
	}
	return false
}

// transactionWords says what a scenario asked of its transactions: "100ms transactions",
// "100ms or 500 records transactions, 10% aborted on purpose".
func transactionWords(t *results.TransactionWorkload) string {
	var parts []string
	if t.LengthMs > 0 {
		parts = append(parts, time.Duration(t.LengthMs*float64(time.Millisecond)).String())
	}
	if t.Records > 0 {
		parts = append(parts, fmt.Sprintf("%s records", whole(t.Records)))
	}
	s := strings.Join(parts, " or ") + " transactions"
	if t.AbortShare > 0 {
		s += fmt.Sprintf(", %g%% aborted on purpose", t.AbortShare*100)
	}
	return s
}

// transactionSentence states a scenario's transaction figures for the conclusions.
func transactionSentence(r TransactionRow) string {
	s := fmt.Sprintf("%s: %s; commit p50 %s ms, p99 %s ms", r.ID, r.Transaction, medianText(r.CommitP50), medianText(r.CommitP99))
	if r.E2EP50 != nil {
		s += fmt.Sprintf("; %s end-to-end p50 %s ms, p99 %s ms", r.Isolation, medianText(*r.E2EP50), medianText(*r.E2EP99))
		if r.ExpectedE2EP50 > 0 && r.Isolation == "read_committed" {
			s += fmt.Sprintf(" (half the transaction plus the commit: %s ms)", num(r.ExpectedE2EP50))
		}
	}
	s += fmt.Sprintf("; %s%% of %s transactions aborted", num(r.AbortedShare*100), whole(r.Committed+r.Aborted))
	if r.Plain != "" {
		s += fmt.Sprintf("; %s records/s against %s's %s (%s)", medianText(r.RecordsPerSec), r.Plain,
			num(r.RecordsPerSec.Median/(1+r.RateChange)), pct(r.RateChange))
	}
	return s
}

// transactionsIntro explains the transactions table.
const transactionsIntro = "Each producer ran transactions under a transactional.id of kbench's own, committing each once it reached the " +
	"length asked (age or records) and aborting the share asked on purpose. Commit: from the transaction's last record handed to the " +
	"client to the coordinator's answer, the flush of its records and EndTxn (what the Java producer's commitTransaction() takes), over " +
	"the transactions begun after the warm-up. End-to-end: from each record's send to its consumer, which under read_committed can read " +
	"it only after its transaction committed: about half a transaction's length plus the commit when records are sent evenly. " +
	"Records/s counts the acknowledged records, those of aborted transactions included. Against: the scenario equal to this one but for one parameter, without transactions. Commit and end-to-end figures are medians over " +
	"the valid repeats (histograms: latency.commit and latency.e2e of each repeat file)."

// transactionsTable is the transactions section's table.
func transactionsTable(m *Model) textTable {
	t := textTable{Head: []string{"Scenario", "transactions", "aborted", "commit p50 ms", "commit p99 ms", "isolation",
		"end-to-end p50 ms", "end-to-end p99 ms", "½ transaction + commit ms", "records/s", "against"},
		Numeric: []bool{false, false, true, true, true, false, true, true, true, true, false}}
	for _, r := range m.Transactions {
		e50, e99, expected, against := "-", "-", "-", "-"
		if r.E2EP50 != nil {
			e50, e99 = statText(*r.E2EP50), statText(*r.E2EP99)
		}
		if r.ExpectedE2EP50 > 0 {
			expected = num(r.ExpectedE2EP50)
		}
		if r.Plain != "" {
			against = fmt.Sprintf("%s %s", r.Plain, pct(r.RateChange))
		}
		isolation := r.Isolation
		if isolation == "" {
			isolation = "no consumers"
		}
		t.Rows = append(t.Rows, []string{r.ID, r.Transaction, fmt.Sprintf("%s%% of %s", num(r.AbortedShare*100), whole(r.Committed+r.Aborted)),
			statText(r.CommitP50), statText(r.CommitP99), isolation, e50, e99, expected, statText(r.RecordsPerSec), against})
	}
	return t
}
