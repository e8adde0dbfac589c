package stats

import (
	"math"
	"slices"
)

// Wins counts the pairs (x[i], y[j]) in which x is ahead of y: x[i] > y[j], or
// x[i] >= y[j] when orEqual. It is the Mann-Whitney U statistic with ties counted for x
// only when orEqual, and against x otherwise, so a p-value from it never overstates the
// evidence.
func Wins(x, y []float64, orEqual bool) int {
	n := 0
	for _, a := range x {
		for _, b := range y {
			if a > b || (orEqual && a == b) {
				n++
			}
		}
	}
	return n
}

// MannWhitneyTail is the exact probability that at least k of the n*m pairs of two
// samples of sizes n and m have the first sample ahead, when both samples come from the
// same continuous distribution: P(U >= k). It is the one-sided p-value of the Mann-Whitney
// rank test for U = k.
//
// It is computed by counting orderings: the largest of the n+m values belongs to the first
// sample with probability n/(n+m), and then beats all m values of the second, so
// P(n, m, u) = n/(n+m) P(n-1, m, u-m) + m/(n+m) P(n, m-1, u).
func MannWhitneyTail(n, m, k int) float64 {
	if k <= 0 {
		return 1
	}
	if n <= 0 || m <= 0 || k > n*m {
		return 0
	}
	tail := 0.0
	for _, p := range mannWhitney(n, m)[k:] {
		tail += p
	}
	return math.Min(tail, 1)
}

// mannWhitney returns the null distribution of U for samples of sizes n and m: element u
// is P(U = u). It takes O(n m (n m)) steps, a millisecond for 30 repeats a side.
func mannWhitney(n, m int) []float64 {
	// prev[j] and cur[j] hold the distribution of U for (i-1, j) and (i, j).
	prev := make([][]float64, m+1)
	for j := range prev {
		prev[j] = []float64{1} // i = 0: U is 0
	}
	for i := 1; i <= n; i++ {
		cur := make([][]float64, m+1)
		cur[0] = []float64{1} // j = 0: U is 0
		for j := 1; j <= m; j++ {
			d := make([]float64, i*j+1)
			px, py := float64(i)/float64(i+j), float64(j)/float64(i+j)
			for u, p := range prev[j] {
				d[u+j] += px * p
			}
			for u, p := range cur[j-1] {
				d[u] += py * p
			}
			cur[j] = d
		}
		prev = cur
	}
	return prev[m]
}

// MinWins is the smallest k whose MannWhitneyTail(n, m, k) is at most alpha: how many of
// the n*m pairs the first sample must win for the one-sided test to reject at level alpha.
// It is 0 when no k can, because the samples are too small (3 and 3 is the smallest
// balanced pair that reaches 0.05: the best p is 1/C(6,3) = 1/20).
func MinWins(n, m int, alpha float64) int {
	if n <= 0 || m <= 0 {
		return 0
	}
	d := mannWhitney(n, m)
	tail, k := 0.0, 0
	for u := n * m; u >= 1; u-- {
		tail += d[u]
		// a relative slack absorbs rounding in the sum: 1/20 must count as 0.05
		if tail > alpha*(1+1e-9) {
			break
		}
		k = u
	}
	return k
}

// SignTail is the probability that at least k of n values fall above a constant when the
// constant is their distribution's median: P(Binomial(n, 1/2) >= k), the one-sided
// p-value of the sign test.
func SignTail(n, k int) float64 {
	if k <= 0 {
		return 1
	}
	if k > n {
		return 0
	}
	tail := 0.0
	for j := k; j <= n; j++ {
		tail += binomial(n, j)
	}
	return tail / math.Pow(2, float64(n))
}

func binomial(n, k int) float64 {
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return math.Round(c)
}

// RatioInterval is the distribution-free confidence interval for the ratio of x's typical
// value to y's (Hodges-Lehmann, on a log scale): with the n*m pairwise ratios x[i]/y[j]
// sorted and k = MinWins(n, m, alpha), lo is the (n*m-k+1)-th smallest and hi the k-th.
// Each bound holds with confidence at least 1-alpha, so [lo, hi] is a (1-2 alpha) interval,
// and "lo > c" is exactly the one-sided rank test of x > c*y rejecting at level alpha.
// ok is false when a value is not positive or the samples are too small for alpha.
func RatioInterval(x, y []float64, alpha float64) (lo, hi float64, ok bool) {
	for _, v := range slices.Concat(x, y) {
		if !(v > 0) || math.IsInf(v, 0) {
			return 0, 0, false
		}
	}
	k := MinWins(len(x), len(y), alpha)
	if k == 0 {
		return 0, 0, false
	}
	ratios := make([]float64, 0, len(x)*len(y))
	for _, a := range x {
		for _, b := range y {
			ratios = append(ratios, a/b)
		}
	}
	slices.Sort(ratios)
	return ratios[len(ratios)-k], ratios[k-1], true
}
