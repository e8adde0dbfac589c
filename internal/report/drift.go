package report

import (
	"fmt"
	"strconv"

	"github.com/kbench/kbench/internal/stats"
)

// driftMetrics are the figures checked for drift across the rounds of a run.
var driftMetrics = []struct{ name, label string }{
	{"records_per_sec", "records/s"},
	{"p99", "p99 latency"},
	{"broker_cpu", "broker CPU"},
}

// driftLevel is the p-value below which a trend with the round order is flagged: strict,
// because three figures are checked on every run and a false alarm costs trust.
const driftLevel = 0.01

// driftNotes flags each figure whose values trend with the round they ran in: each valid
// repeat's value over its scenario's median (so scenarios of different sizes pool), against
// its round, by Kendall's tau (stats.Trend). The rounds interleave the scenarios, so drift
// lands on every scenario alike: it widens the spread rather than favouring one, and the
// verdicts stay fair but see less; the note says so.
func driftNotes(rows []Row) []string {
	var notes []string
	for _, dm := range driftMetrics {
		var rounds, values []float64
		for _, r := range rows {
			var xs []float64
			var ns []int
			for _, rep := range r.repeatsForPlot {
				if v, ok := metric(rep, dm.name); ok && v > 0 {
					xs, ns = append(xs, v), append(ns, rep.Repeat)
				}
			}
			if len(xs) < 3 {
				continue
			}
			med := stats.Median(xs)
			for i, v := range xs {
				rounds, values = append(rounds, float64(ns[i])), append(values, v/med)
			}
		}
		if len(values) < 6 {
			continue
		}
		tau, p := stats.Trend(rounds, values)
		if p >= driftLevel {
			continue
		}
		dir := "rises"
		if tau < 0 {
			dir = "falls"
		}
		notes = append(notes, fmt.Sprintf("Drift: %s %s with the round number (Kendall tau %s over %d repeats, p = %s): the conditions changed as the run went on (JIT warm-up, page cache, log growth, another load on the host). The rounds interleave the scenarios, so the drift widens their spread instead of favouring one: the verdicts stay fair but see less; a longer warm-up or a quieter host narrows it.",
			dm.label, dir, strconv.FormatFloat(tau, 'f', 2, 64), len(values), strconv.FormatFloat(p, 'g', 2, 64)))
	}
	return notes
}
