// Package stats is kbench's one statistics module: the summaries a report prints (median,
// quantiles, range, relative spread) and the comparisons a verdict rests on (exact rank
// tests and the distribution-free interval of a ratio that goes with them).
//
// Benchmarks give few values per scenario, one per repeat, usually 3 to 10, and their
// spread is neither normal nor known. So the comparisons here are exact and make no
// assumption about the shape of the distribution: the Mann-Whitney rank test for two
// samples and the sign test for one sample against a constant. Their p-values are computed
// by counting, not from a normal approximation, which is wrong at these sizes.
//
// The package is pure: no I/O, no randomness, no clock.
package stats

import (
	"math"
	"slices"
)

// Summary describes a sample: its size, median and range.
type Summary struct {
	N                int
	Median, Min, Max float64
}

// Summarize returns the summary of the finite values of xs; NaN and infinite values are
// left out, and an empty result has N 0.
func Summarize(xs []float64) Summary {
	s := finiteSorted(xs)
	if len(s) == 0 {
		return Summary{}
	}
	return Summary{N: len(s), Median: quantileSorted(s, 0.5), Min: s[0], Max: s[len(s)-1]}
}

// Spread is half the range over the magnitude of the median (0.04 for "±4%"); 0 with
// fewer than two values or a zero median.
func (s Summary) Spread() float64 {
	if s.N < 2 || s.Median == 0 {
		return 0
	}
	return (s.Max - s.Min) / 2 / math.Abs(s.Median)
}

// Median is the middle value of xs, the mean of the two middle values for an even count;
// NaN when xs has no finite value.
func Median(xs []float64) float64 { return Quantile(xs, 0.5) }

// Quantile is the q-quantile (0 <= q <= 1) of the finite values of xs, interpolating
// linearly between the two nearest ranks (Hyndman and Fan's type 7, the default of R and
// NumPy): with the values sorted as x[0..n-1] and h = (n-1)q, it is
// x[floor(h)] + (h-floor(h)) (x[floor(h)+1]-x[floor(h)]). NaN when xs has no finite value
// or q is outside [0, 1].
func Quantile(xs []float64, q float64) float64 {
	s := finiteSorted(xs)
	if len(s) == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	return quantileSorted(s, q)
}

func quantileSorted(s []float64, q float64) float64 {
	h := float64(len(s)-1) * q
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

// finiteSorted returns the finite values of xs, sorted, in a new slice.
func finiteSorted(xs []float64) []float64 {
	s := make([]float64, 0, len(xs))
	for _, v := range xs {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			s = append(s, v)
		}
	}
	slices.Sort(s)
	return s
}
