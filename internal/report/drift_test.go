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
	// Falling by round in both scenarios: 10 points, rounds tied in pairs; every
	// cross-round pair is concordant with a fall (40 of the 45 pairs, the 5 same-round pairs
	// tied): tau = -40/45 = -0.89.
	notes := driftNotes(driftRows([]float64{1.2, 1.1, 1.0, 0.9, 0.8}))
	if len(notes) != 1 || !strings.Contains(notes[0], "records/s falls with the round number (Kendall tau -0.89 over 10 repeats") {
		t.Errorf("falling: %q", notes)
	}
	// No order: nothing flagged.
	if notes := driftNotes(driftRows([]float64{1.0, 1.2, 0.9, 1.1, 1.0})); len(notes) != 0 {
		t.Errorf("no trend flagged: %q", notes)
	}
}
