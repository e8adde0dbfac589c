package report

import (
	"fmt"
	"math"
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

// driftNotes flags each figure whose values trend with the round they ran in: within each
// scenario, its valid repeats in round order, by Kendall's S summed over the scenarios and
// its exact p-value (stats.TrendTest: no pooling across scenarios of different sizes, no
// normal approximation). The rounds interleave the scenarios, so drift lands on every
// scenario alike: it widens the spread rather than favouring one, and the verdicts stay
// fair but see less; the note says so, with the trend per round (the median over the
// scenarios of the Theil-Sen slope of the values' logarithms).
func driftNotes(rows []Row) []string {
	var notes []string
	for _, dm := range driftMetrics {
		var series [][]float64
		var slopes []float64
		values := 0
		for _, r := range rows {
			var xs, logs []float64
			for _, rep := range r.repeatsForPlot { // valid repeats, in round order
				if v, ok := metric(rep, dm.name); ok && v > 0 && !math.IsInf(v, 0) {
					xs, logs = append(xs, v), append(logs, math.Log(v))
				}
			}
			if len(xs) < 3 {
				continue
			}
			series, slopes, values = append(series, xs), append(slopes, stats.TheilSen(logs)), values+len(xs)
		}
		if values < 6 {
			continue
		}
		tau, p := stats.TrendTest(series)
		if p >= driftLevel {
			continue
		}
		dir := "rises"
		if tau < 0 {
			dir = "falls"
		}
		notes = append(notes, fmt.Sprintf("Drift: %s %s with the round number (Kendall tau %s within %d scenarios, %d repeats, exact p = %s; about %+.1f%% a round): the conditions changed as the run went on (JIT warm-up, page cache, log growth, another load on the host). The rounds interleave the scenarios, so the drift widens their spread instead of favouring one: the verdicts stay fair but see less; a longer warm-up or a quieter host narrows it.",
			dm.label, dir, strconv.FormatFloat(tau, 'f', 2, 64), len(series), values, strconv.FormatFloat(p, 'g', 2, 64), 100*(math.Exp(stats.Median(slopes))-1)))
	}
	return notes
}
