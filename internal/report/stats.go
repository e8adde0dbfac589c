package report

import (
	"math"

	"github.com/kbench/kbench/internal/stats"
)

// statOf summarises values; NaN and infinite values are skipped.
func statOf(values []float64) Stat {
	s := stats.Summarize(values)
	return Stat{N: s.N, Median: s.Median, Min: s.Min, Max: s.Max}
}

// ratioStat is a/b with the range of every pairing, for effects.
func ratioStat(a, b Stat) (ratio, spread float64) {
	if a.N == 0 || b.N == 0 || b.Median == 0 || b.Min <= 0 {
		return 0, 0
	}
	ratio = a.Median / b.Median
	lo, hi := a.Min/b.Max, a.Max/b.Min
	return ratio, (hi - lo) / 2 / ratio
}

// change is the relative change from a to b (-0.5 for halved); 0 when a is 0.
func change(a, b float64) float64 {
	if a == 0 {
		return 0
	}
	return (b - a) / a
}

func abs(x float64) float64 { return math.Abs(x) }
