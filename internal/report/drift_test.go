package report

import (
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// driftRows are two scenarios of 5 repeats each whose records/s are values[i] times the
// scenario's size: the pooled values over their scenario's medians are values / median.
func driftRows(values []float64) []Row {
	var rows []Row
	for _, size := range []float64{1000, 5000} {
		r := Row{ID: "s"}
		for i, v := range values {
			r.repeatsForPlot = append(r.repeatsForPlot, results.Repeat{Repeat: i + 1, Summary: results.Summary{RecordsPerSec: v * size}})
		}
		rows = append(rows, r)
	}
	return rows
}

func TestDriftNotes(t *testing.T) {
	// Falling by round in both scenarios: each series of 5 has all 10 pairs falling, S =
	// -10, tau = -20/20 = -1; with no drift one ordering in 5! = 120 does that per
	// scenario, so p = 2 (1/120)^2 = 0.00014. Theil-Sen of the logs, per round: of the 10
	// pairwise slopes of ln 1.2 .. ln 0.8 the middle two are ln(0.8/1.2)/4 = -0.1014 and
	// ln(0.9/1.1)/2 = -0.1003, their mean -0.1009: e^-0.1009 - 1 = -9.6% a round.
	notes := driftNotes(driftRows([]float64{1.2, 1.1, 1.0, 0.9, 0.8}))
	if len(notes) != 1 || !strings.Contains(notes[0], "records/s falls with the round number (Kendall tau -1.00 within 2 scenarios, 10 repeats, exact p = 0.00014; about -9.6% a round)") {
		t.Errorf("falling: %q", notes)
	}
	// No order: nothing flagged.
	if notes := driftNotes(driftRows([]float64{1.0, 1.2, 0.9, 1.1, 1.0})); len(notes) != 0 {
		t.Errorf("no trend flagged: %q", notes)
	}
}
