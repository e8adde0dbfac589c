package report

import (
	"fmt"
	"math"
	"slices"

	"github.com/kbench/kbench/internal/stats"
)

// NoiseRow is the noise floor of one metric over the run's scenarios: how far repeats of
// the same scenario spread, and the smallest difference two scenarios that noisy must show
// for the verdicts' rank test to tell them apart with the repeats they had.
type NoiseRow struct {
	Metric string `json:"metric"`
	Label  string `json:"label"`
	// Scenarios counts the scenarios with at least two valid values; Repeats is their
	// median count of values.
	Scenarios int `json:"scenarios"`
	Repeats   int `json:"repeats"`
	// Spread is the median over those scenarios of half the range over the median; Widest
	// the largest, in WidestScenario.
	Spread         float64 `json:"spread"`
	Widest         float64 `json:"widest_spread"`
	WidestScenario string  `json:"widest_scenario"`
	// Detectable is the median over the scenarios of the noise floor of a scenario against
	// itself (stats.DetectableRatio at the verdicts' level, as a relative difference: 0.18
	// for 18%); 0 when none could be detected, with too few repeats.
	Detectable float64 `json:"detectable,omitempty"`
}

// noiseMetrics are the figures the noise floor is given for, the drift check's.
var noiseMetrics = driftMetrics

// noiseFloor computes the noise floor of every metric with a scenario of at least two
// valid values, detectable differences at level alpha.
func noiseFloor(rows []Row, alpha float64) []NoiseRow {
	var out []NoiseRow
	for _, nm := range noiseMetrics {
		n := NoiseRow{Metric: nm.name, Label: nm.label}
		var spreads, counts, floors []float64
		for _, r := range rows {
			var xs []float64
			for _, rep := range r.repeatsForPlot {
				if v, ok := metric(rep, nm.name); ok && v > 0 && !math.IsInf(v, 0) {
					xs = append(xs, v)
				}
			}
			if len(xs) < 2 {
				continue
			}
			s := stats.Summarize(xs).Spread()
			spreads, counts = append(spreads, s), append(counts, float64(len(xs)))
			if n.WidestScenario == "" || s > n.Widest {
				n.Widest, n.WidestScenario = s, r.ID
			}
			floor := math.Inf(1) // nothing detectable
			if ratio, ok := stats.DetectableRatio(xs, xs, alpha); ok {
				floor = ratio - 1
			}
			floors = append(floors, floor)
		}
		if len(spreads) == 0 {
			continue
		}
		n.Scenarios, n.Repeats, n.Spread = len(spreads), int(stats.Median(counts)), stats.Median(spreads)
		if d := medianWithInf(floors); !math.IsInf(d, 1) {
			n.Detectable = d
		}
		out = append(out, n)
	}
	return out
}

// medianWithInf is the median of xs, where +Inf (nothing detectable) counts as the largest
// value; stats.Median leaves infinite values out.
func medianWithInf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	a, b := s[(len(s)-1)/2], s[len(s)/2]
	if math.IsInf(b, 1) {
		return b
	}
	return (a + b) / 2
}

// noiseIntro explains the noise floor table.
const noiseIntro = "How far the repeats of one scenario spread (half their range over their median), " +
	"and the smallest difference between two scenarios that noisy the verdicts' rank test could confirm with the repeats they had: " +
	"a smaller real difference ends inconclusive. More repeats lower it; so does a quieter host."

// noiseHead and noiseCells are the noise floor table, shared by both renderers.
var noiseHead = []string{"Metric", "Scenarios", "Repeats", "Spread (median)", "Widest spread", "Detectable difference"}

func noiseCells(n NoiseRow) []string {
	return []string{n.Label, fmt.Sprint(n.Scenarios), fmt.Sprint(n.Repeats), fmt.Sprintf("±%.1f%%", n.Spread*100),
		fmt.Sprintf("±%.1f%% (%s)", n.Widest*100, n.WidestScenario), floorText(n.Detectable)}
}
