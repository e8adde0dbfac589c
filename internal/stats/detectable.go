package stats

import (
	"math"
	"slices"
)

// DetectableRatio is the noise floor of a comparison of x and y: the smallest ratio r > 1
// by which one side would have to exceed the other for the one-sided rank test to reject
// at level alpha, given these sizes and this noise. The noise is the samples' own: each
// value's log-deviation from its side's median. Shifting y's deviations by ln r against
// x's, the test rejects once y wins MinWins of the pairs; r is the smallest shift that
// does. ok is false when the sizes cannot reach alpha at all (the test then sees nothing),
// or a value is not positive.
//
// "This run could detect a difference of 18% or more" is r = 1.18. The floor is in the
// noise, not in the effect observed: an inconclusive verdict whose observed ratio lies
// within it could not have been decided; one beyond it met noise larger than its own
// deviations suggested.
func DetectableRatio(x, y []float64, alpha float64) (r float64, ok bool) {
	k := MinWins(len(x), len(y), alpha)
	if k == 0 {
		return 0, false
	}
	dx, okx := logDeviations(x)
	dy, oky := logDeviations(y)
	if !okx || !oky {
		return 0, false
	}
	// y shifted by s wins the pair (i, j) when dy[j] + s > dx[i], that is s > dx[i] - dy[j].
	// Sorted, the k-th smallest of those thresholds is the least shift winning k pairs.
	need := make([]float64, 0, len(dx)*len(dy))
	for _, a := range dx {
		for _, b := range dy {
			need = append(need, a-b)
		}
	}
	slices.Sort(need)
	s := max(0, need[k-1])
	// Strictly above the threshold: the smallest representable step beyond it.
	return math.Exp(math.Nextafter(s, math.Inf(1))), true
}

// logDeviations are the natural logs of xs over their median.
func logDeviations(xs []float64) ([]float64, bool) {
	m := Median(xs)
	if !(m > 0) {
		return nil, false
	}
	out := make([]float64, len(xs))
	for i, v := range xs {
		if !(v > 0) || math.IsInf(v, 0) {
			return nil, false
		}
		out[i] = math.Log(v / m)
	}
	return out, true
}

// LookAlpha is the level of each of looks planned looks at accumulating data that keeps
// the chance of any false rejection across them at most alpha: a Bonferroni split,
// alpha/looks. It holds whatever the dependence between the looks (the union bound), which
// a rank test on a handful of repeats needs: the exact boundaries of a group-sequential
// design assume a normal statistic.
func LookAlpha(alpha float64, looks int) float64 {
	return alpha / float64(max(1, looks))
}

// DecidingLooks is how many shares alpha must be split into over the looks after each
// round from lo to hi repeats. The rank test's smallest p with n against n values is
// 1/C(2n, n) (0.05 at 3, 0.014 at 4, 0.004 at 5): a look at which even that is above its
// level can never reject, adds nothing to the union bound, and needs no share. So the
// answer is the smallest k such that at most k looks can reach alpha/k: then the chance
// that any look rejects falsely is at most k alpha/k = alpha. (Fewer shares raise the
// level and let more looks reach it, so the k that hold form a range up to hi-lo+1.) With
// 3 to 10 repeats that is 6, the looks from 5 to 10 at 0.0083 each, where a share per
// planned look would give 0.00625.
func DecidingLooks(alpha float64, lo, hi int) int {
	planned := max(hi-lo+1, 1)
	can := func(k int) int {
		level, n := LookAlpha(alpha, k), 0
		for r := lo; r <= hi; r++ {
			if MannWhitneyTail(r, r, r*r) <= level*(1+1e-9) {
				n++
			}
		}
		return n
	}
	k := planned
	for k > 1 && can(k-1) <= k-1 {
		k--
	}
	return k
}

// Trend tests whether ys rise or fall with their order (xs: the rounds): Kendall's tau
// between xs and ys and its two-sided p-value, exact by enumeration under no trend for up
// to 8 values, by the normal approximation with the tie-corrected variance beyond. p is 1
// with fewer than 3 values.
func Trend(xs, ys []float64) (tau, p float64) {
	n := min(len(xs), len(ys))
	if n < 3 {
		return 0, 1
	}
	s := kendallS(xs[:n], ys[:n])
	pairs := float64(n * (n - 1) / 2)
	tau = float64(s) / pairs
	if n <= 8 && !hasTies(xs[:n]) && !hasTies(ys[:n]) {
		return tau, exactKendallP(n, s)
	}
	v := float64(n*(n-1)*(2*n+5)) / 18
	v -= tieTerm(xs[:n]) + tieTerm(ys[:n])
	if v <= 0 {
		return tau, 1
	}
	// continuity correction: S moves in steps of 2
	z := (math.Abs(float64(s)) - 1) / math.Sqrt(v)
	return tau, math.Min(1, math.Erfc(max(0, z)/math.Sqrt2))
}

func kendallS(xs, ys []float64) int {
	s := 0
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			s += sign(xs[j]-xs[i]) * sign(ys[j]-ys[i])
		}
	}
	return s
}

func sign(v float64) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func hasTies(xs []float64) bool {
	s := slices.Sorted(slices.Values(xs))
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			return true
		}
	}
	return false
}

// tieTerm is a sample's part of the tie correction of Var(S): sum t(t-1)(2t+5)/18 over its
// groups of t equal values.
func tieTerm(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	var sum float64
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == s[i] {
			j++
		}
		t := float64(j - i)
		sum += t * (t - 1) * (2*t + 5) / 18
		i = j
	}
	return sum
}

// exactKendallP is P(|S| >= |s|) over the n! equally likely orders, counted by the
// distribution of inversions (Mahonian numbers): S = pairs - 2 inversions.
func exactKendallP(n, s int) float64 {
	maxInv := n * (n - 1) / 2
	counts := []float64{1}
	for k := 2; k <= n; k++ {
		next := make([]float64, len(counts)+k-1)
		for i, c := range counts {
			for j := range k {
				next[i+j] += c
			}
		}
		counts = next
	}
	total, tail := 0.0, 0.0
	for inv, c := range counts {
		total += c
		if abs(maxInv-2*inv) >= abs(s) {
			tail += c
		}
	}
	return tail / total
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
