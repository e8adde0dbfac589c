package stats

import (
	"math"
	"slices"
)

// TrendTest asks whether values drift with the order they were taken in: each series is
// one scenario's values in round order, and the statistic is Kendall's S summed over the
// series (for each series, the pairs i < j with x[j] > x[i] minus those with x[j] < x[i];
// ties count neither). Under the null hypothesis that each series' values are
// exchangeable (no drift, whatever their spread), every ordering of a series is equally
// likely, its S follows the Mahonian distribution of inversions, and the sum's
// distribution is their convolution: p is the exact two-sided P(|S| >= |s|), counted, not
// approximated. tau is S over the number of pairs, from -1 (always falling) to +1.
// Series with fewer than two values are left out; p is 1 when nothing is left.
func TrendTest(series [][]float64) (tau, p float64) {
	s, pairs := 0, 0
	dist := []float64{1} // distribution of the summed inversions
	for _, xs := range series {
		n := len(xs)
		if n < 2 {
			continue
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				switch {
				case xs[j] > xs[i]:
					s++
				case xs[j] < xs[i]:
					s--
				}
			}
		}
		pairs += n * (n - 1) / 2
		dist = convolve(dist, inversions(n))
	}
	if pairs == 0 {
		return 0, 1
	}
	// S = pairs - 2 I, where I counts the inversions
	tail := 0.0
	for i, q := range dist {
		if abs(pairs-2*i) >= abs(s) {
			tail += q
		}
	}
	return float64(s) / float64(pairs), math.Min(tail, 1)
}

// inversions is the distribution of the number of inversions of a random permutation of
// n items (the Mahonian numbers over n!): element k is P(I = k).
func inversions(n int) []float64 {
	d := []float64{1}
	for m := 2; m <= n; m++ {
		// the m-th item adds 0..m-1 inversions, each equally likely
		u := make([]float64, m)
		for i := range u {
			u[i] = 1 / float64(m)
		}
		d = convolve(d, u)
	}
	return d
}

func convolve(a, b []float64) []float64 {
	out := make([]float64, len(a)+len(b)-1)
	for i, x := range a {
		for j, y := range b {
			out[i+j] += x * y
		}
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// TheilSen is the median of the slopes (y[j]-y[i])/(j-i) over the pairs i < j of a
// series indexed by its position: a trend per step that a single outlier cannot move.
// NaN with fewer than two values.
func TheilSen(ys []float64) float64 {
	var slopes []float64
	for i := range ys {
		for j := i + 1; j < len(ys); j++ {
			slopes = append(slopes, (ys[j]-ys[i])/float64(j-i))
		}
	}
	if len(slopes) == 0 {
		return math.NaN()
	}
	slices.Sort(slopes)
	return quantileSorted(slopes, 0.5)
}
