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

// DetectableSign is the noise floor of one sample against a constant c with the sign
// test: x's median must exceed c by the ratio up for "x above c" to be confirmed at level
// alpha, or fall below it by the ratio down (x's median over c under 1/down) for "x below
// c". The sign test needs the MinSigns(n, alpha) values furthest on the claimed side to be
// past c: with x over its median sorted as s, the k-th largest, s[n-k], must clear c for
// "above" (up = 1/s[n-k]) and the k-th smallest, s[k-1], stay under it for "below" (down
// = s[k-1]).
// ok is false when n values cannot reach alpha (fewer than 5 at 0.05) or a value is not
// positive.
func DetectableSign(x []float64, alpha float64) (up, down float64, ok bool) {
	k := MinSigns(len(x), alpha)
	d, okd := logDeviations(x)
	if k == 0 || !okd {
		return 0, 0, false
	}
	slices.Sort(d)
	// strictly beyond the edge, as DetectableRatio
	return math.Exp(math.Nextafter(-d[len(d)-k], math.Inf(1))), math.Exp(math.Nextafter(d[k-1], math.Inf(1))), true
}

// MinSigns is the smallest k whose SignTail(n, k) is at most alpha; 0 when none is.
func MinSigns(n int, alpha float64) int {
	for k := 1; k <= n; k++ {
		if SignTail(n, k) <= alpha*(1+1e-9) {
			return k
		}
	}
	return 0
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
