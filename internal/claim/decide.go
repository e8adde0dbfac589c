package claim

import (
	"fmt"
	"strconv"

	"github.com/kbench/kbench/internal/stats"
)

// result is the outcome of a claim's test with what the sentence needs to state it.
type result struct {
	outcome, leaning Outcome
	// p is the p-value behind the outcome (see Verdict.P); pClaim and pOpposite are both
	// tests' p-values; zero when no test ran.
	p, pClaim, pOpposite float64
	// method names the test and counts, e.g. "one-sided Mann-Whitney" and "3 vs 3 repeats".
	method, counts string
	// reason says why the outcome is indicative.
	reason string
	// alpha is the level the test was run at.
	alpha float64
}

// test decides the claim from its sides' values, coefficients applied.
// lu and ru name what one value of each side stands for ("repeat" or "round").
func (c Claim) test(l, r []float64, lu, ru string, alpha float64) result {
	var t result
	switch {
	case c.Right.IsConstant():
		t = oneSample(c.Op, c.Tolerance, l, r[0], lu)
	case c.Left.IsConstant():
		t = oneSample(flip(c.Op), c.Tolerance, r, l[0], ru)
	default:
		t = twoSample(c.Op, c.Tolerance, l, r, lu, ru)
	}
	t.alpha = alpha
	switch {
	case t.reason != "":
		t.outcome = Indicative
	case significant(t.pClaim, alpha):
		t.outcome, t.leaning, t.p = Confirmed, "", t.pClaim
	case significant(t.pOpposite, alpha):
		t.outcome, t.leaning, t.p = Refuted, "", t.pOpposite
	default:
		t.outcome, t.p = Inconclusive, t.pClaim
	}
	return t
}

// significant reports whether p <= alpha, with a relative slack for the rounding of an
// exact p computed in floating point (1/20 is exactly the level, and must pass).
func significant(p, alpha float64) bool { return p <= alpha*(1+1e-9) }

// twoSample tests "l op r" with the exact Mann-Whitney test. For "~" within t the claim is
// (1-t) r <= l <= r/(1-t), and each edge is one one-sided test.
func twoSample(op Op, tol float64, l, r []float64, lu, ru string) result {
	t := result{leaning: lean(op, tol, stats.Median(l), stats.Median(r))}
	if lu == ru {
		t.counts = fmt.Sprintf("%d vs %d %ss", len(l), len(r), lu)
	} else {
		t.counts = fmt.Sprintf("%s vs %s", plural(len(l), lu), plural(len(r), ru))
	}
	if len(l) < MinRepeats || len(r) < MinRepeats {
		if len(l) == len(r) && lu == ru {
			t.reason = fmt.Sprintf("only %s per side, need %d", plural(len(l), lu), MinRepeats)
		} else {
			t.reason = fmt.Sprintf("only %s on the left and %s on the right, need %d per side", plural(len(l), lu), plural(len(r), ru), MinRepeats)
		}
		return t
	}
	// p is the chance, if both sides were alike, that a wins at least as many pairs.
	p := func(a, b []float64, orEqual bool) float64 {
		return stats.MannWhitneyTail(len(a), len(b), stats.Wins(a, b, orEqual))
	}
	t.method = "one-sided Mann-Whitney"
	switch op {
	case Greater:
		t.pClaim, t.pOpposite = p(l, r, false), p(r, l, true)
	case GreaterEqual:
		t.pClaim, t.pOpposite = p(l, r, true), p(r, l, false)
	case Less:
		t.pClaim, t.pOpposite = p(r, l, false), p(l, r, true)
	case LessEqual:
		t.pClaim, t.pOpposite = p(r, l, true), p(l, r, false)
	case About:
		t.method = "two one-sided Mann-Whitney tests"
		lo, hi := times(r, 1-tol), times(r, 1/(1-tol))
		t.pClaim = max(p(l, lo, true), p(hi, l, true))
		t.pOpposite = min(p(l, hi, false), p(lo, l, false))
	}
	return t
}

// oneSample tests "s op c" with the exact sign test; for "~" within t the claim is
// (1-t) c <= s <= c/(1-t).
func oneSample(op Op, tol float64, s []float64, c float64, unit string) result {
	t := result{leaning: lean(op, tol, stats.Median(s), c), counts: plural(len(s), unit)}
	if len(s) < MinRepeatsConstant {
		t.reason = fmt.Sprintf("only %s, need %d against a constant", plural(len(s), unit), MinRepeatsConstant)
		return t
	}
	// p is the chance, if c were the median, that at least as many values pass.
	p := func(pass func(float64) bool) float64 {
		k := 0
		for _, x := range s {
			if pass(x) {
				k++
			}
		}
		return stats.SignTail(len(s), k)
	}
	t.method = "one-sided sign test"
	switch op {
	case Greater:
		t.pClaim, t.pOpposite = p(func(x float64) bool { return x > c }), p(func(x float64) bool { return x <= c })
	case GreaterEqual:
		t.pClaim, t.pOpposite = p(func(x float64) bool { return x >= c }), p(func(x float64) bool { return x < c })
	case Less:
		t.pClaim, t.pOpposite = p(func(x float64) bool { return x < c }), p(func(x float64) bool { return x >= c })
	case LessEqual:
		t.pClaim, t.pOpposite = p(func(x float64) bool { return x <= c }), p(func(x float64) bool { return x > c })
	case About:
		t.method = "two one-sided sign tests"
		lo, hi := c*(1-tol), c/(1-tol)
		t.pClaim = max(p(func(x float64) bool { return x >= lo }), p(func(x float64) bool { return x <= hi }))
		t.pOpposite = min(p(func(x float64) bool { return x > hi }), p(func(x float64) bool { return x < lo }))
	}
	return t
}

// lean says where two medians point: Confirmed when "a op b" holds for them.
func lean(op Op, tol float64, a, b float64) Outcome {
	var holds bool
	switch op {
	case Greater:
		holds = a > b
	case GreaterEqual:
		holds = a >= b
	case Less:
		holds = a < b
	case LessEqual:
		holds = a <= b
	case About:
		holds = a >= b*(1-tol) && a <= b/(1-tol)
	}
	if holds {
		return Confirmed
	}
	return Refuted
}

// flip turns "c op s" into "s flip(op) c".
func flip(op Op) Op {
	switch op {
	case Greater:
		return Less
	case GreaterEqual:
		return LessEqual
	case Less:
		return Greater
	case LessEqual:
		return GreaterEqual
	}
	return op
}

// evidence states the test behind a verdict.
func (t result) evidence(v Verdict) string {
	switch t.outcome {
	case Confirmed:
		return fmt.Sprintf("%s p = %s, %s", t.method, formatP(t.pClaim), t.counts)
	case Refuted:
		return fmt.Sprintf("the opposite holds: %s p = %s, %s", t.method, formatP(t.pOpposite), t.counts)
	}
	return fmt.Sprintf("neither the claim (%s p = %s) nor its opposite (p = %s) reaches p <= %s with %s; the medians point to %s",
		t.method, formatP(t.pClaim), formatP(t.pOpposite), formatP(t.alpha), t.counts, v.Leaning)
}

func times(xs []float64, k float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = x * k
	}
	return out
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// formatP renders a p-value with two significant figures: 0.05, 0.029, 0.35.
func formatP(p float64) string { return strconv.FormatFloat(p, 'g', 2, 64) }
