package claim

import (
	"fmt"
	"strings"

	"github.com/kbench/kbench/internal/stats"
)

// Outcome is the result of testing a claim.
type Outcome string

// The outcomes of a claim.
const (
	// Confirmed: the test of the claim gives p <= [Alpha].
	Confirmed Outcome = "confirmed"
	// Refuted: the test of the claim's opposite gives p <= [Alpha].
	Refuted Outcome = "refuted"
	// Inconclusive: neither test is significant (the repeats' spread leaves the comparison
	// open), or data is missing.
	Inconclusive Outcome = "inconclusive"
	// Indicative: too few valid repeats for a test to reach p <= [Alpha]; the verdict says
	// which way the medians point.
	Indicative Outcome = "indicative"
)

// The confidence a verdict asks for.
const (
	// Alpha is the largest p-value that confirms or refutes a claim: 95% confidence.
	Alpha = 0.05
	// MinRepeats is the number of valid values each measured side needs for a verdict:
	// with 3 against 3 the rank test's smallest p is 1/C(6,3) = 0.05; with 2 against 2 it
	// is 1/6.
	MinRepeats = 3
	// MinRepeatsConstant is the number of valid values a side needs against a constant:
	// the sign test's smallest p is 1/2^5 = 0.031 with 5 values, 1/16 with 4.
	MinRepeatsConstant = 5
)

// Verdict is the evaluated claim, with the numbers behind it.
type Verdict struct {
	// Claim is the claim evaluated.
	Claim Claim
	// Outcome is confirmed, refuted, inconclusive or indicative.
	Outcome Outcome
	// Leaning is where the medians point (confirmed or refuted) when the outcome is
	// indicative or inconclusive with data; empty otherwise.
	Leaning Outcome
	// Left and Right summarise each side's values, coefficient applied.
	Left, Right stats.Summary
	// Ratio is the left median over the right median, coefficients not applied (for
	// "throughput(a) > 2 x throughput(b)" it answers "how many times b is a"); zero when
	// undefined.
	Ratio float64
	// P is the p-value of the test that decided: of the claim when confirmed, of its
	// opposite when refuted, of the claim when inconclusive; zero when no test ran.
	P float64
	// Detectable is the comparison's noise floor: the smallest ratio between the sides this
	// run could have shown (stats.DetectableRatio, 1.18 for "a difference of 18% or more");
	// zero against a constant, or when the repeats are too few to show any.
	Detectable float64
	// Alpha is the level the verdict was tested at: [Alpha], or less for one look of
	// several planned (a study with a range of repeats).
	Alpha float64
	// Sentence states the outcome with its numbers and confidence, e.g. "confirmed:
	// records_per_sec(batch=16KiB) = 52,300 records/s (median of 3, 51,000-53,100) > ...;
	// ratio 2.59 (90% interval 2.49-2.67); one-sided Mann-Whitney p = 0.05, 3 vs 3 repeats".
	Sentence string
}

// Evaluate tests the claim against the observed scenarios.
//
// Each side is resolved to its scenarios ([Claim.Resolve]) and gives one value per valid
// repeat, or per complete round for an aggregate; a side whose scenario has no valid
// repeat makes the claim inconclusive and says so. Then, with the coefficients applied:
// two measured sides are compared with the exact one-sided Mann-Whitney test, a side and a
// constant with the exact sign test; for "~" within t the claim is that the left/right
// ratio lies in [1-t, 1/(1-t)] (the two differ by at most t of the larger), tested as two
// one-sided tests. The claim is confirmed when its test gives p <= [Alpha], refuted when
// its opposite's does, inconclusive otherwise, and indicative when a side has fewer than
// [MinRepeats] values ([MinRepeatsConstant] against a constant).
func (c Claim) Evaluate(observed []Observed) Verdict { return c.EvaluateAt(observed, Alpha) }

// EvaluateAt is Evaluate at level alpha: a study that adds rounds until its hypotheses are
// decided tests each of its planned looks at a share of Alpha (stats.LookAlpha), so that
// looking again and again cannot inflate its false-positive rate.
func (c Claim) EvaluateAt(observed []Observed, alpha float64) Verdict {
	v := Verdict{Claim: c, Outcome: Inconclusive, Alpha: alpha}
	scenarios := make([]Scenario, len(observed))
	for i, o := range observed {
		scenarios[i] = o.Scenario
	}
	left, right, err := c.Resolve(scenarios)
	if err != nil {
		v.Sentence = "inconclusive: " + err.Error()
		return v
	}
	var raw [2]sample
	for i, side := range []Side{c.Left, c.Right} {
		ids := [][]string{left, right}[i]
		if raw[i], err = side.values(ids, observed); err != nil {
			v.Sentence = fmt.Sprintf("inconclusive: %s: %v", side, err)
			return v
		}
	}
	l, r := raw[0].scaled(c.Left), raw[1].scaled(c.Right)
	v.Left, v.Right = stats.Summarize(l), stats.Summarize(r)
	t := c.test(l, r, raw[0].unit, raw[1].unit, alpha)
	v.Outcome, v.Leaning, v.P = t.outcome, t.leaning, t.p
	var ratio string
	if !c.Left.IsConstant() && !c.Right.IsConstant() {
		lm, rm := stats.Median(raw[0].values), stats.Median(raw[1].values)
		if rm != 0 {
			v.Ratio = lm / rm
			ratio = "ratio " + formatRatio(v.Ratio)
			if lo, hi, ok := stats.RatioInterval(raw[0].values, raw[1].values, alpha); ok {
				ratio += fmt.Sprintf(" (%s%% interval %s-%s)", formatNumber(100*(1-2*alpha)), formatRatio(lo), formatRatio(hi))
			}
		}
		v.Detectable = detectable(c.Op, l, r, alpha)
	} else {
		v.Detectable = detectableConstant(c, l, r, alpha)
	}
	v.Sentence = c.sentence(v, raw, ratio, t)
	return v
}

// scaled applies a side's coefficient (a constant is already its own value).
func (s sample) scaled(side Side) []float64 {
	if side.IsConstant() {
		return s.values
	}
	out := make([]float64, len(s.values))
	for i, x := range s.values {
		out[i] = x * side.Coef
	}
	return out
}

func (c Claim) sentence(v Verdict, raw [2]sample, ratio string, t result) string {
	var b strings.Builder
	b.WriteString(string(v.Outcome))
	b.WriteString(": ")
	if v.Outcome == Indicative {
		fmt.Fprintf(&b, "%s; the data points to %s: ", t.reason, v.Leaning)
	}
	fmt.Fprintf(&b, "%s %s %s", describe(c.Left, raw[0]), c.Op, describe(c.Right, raw[1]))
	if c.Op == About {
		fmt.Fprintf(&b, " within %s%%", formatNumber(c.Tolerance*100))
	}
	if ratio != "" {
		b.WriteString("; ")
		b.WriteString(ratio)
	}
	if v.Outcome != Indicative {
		b.WriteString("; ")
		b.WriteString(t.evidence(v))
	}
	if v.Outcome != Indicative {
		b.WriteString("; ")
		b.WriteString(noiseFloor(v, t))
	}
	return b.String()
}

// noiseFloor states what the run could have seen: the smallest difference it could have
// detected and, for an inconclusive verdict, whether the effect is small or the noise large.
func noiseFloor(v Verdict, t result) string {
	if v.Detectable == 0 {
		return fmt.Sprintf("these repeats cannot detect any difference at p <= %s: more repeats can", formatP(t.alpha))
	}
	floor := fmt.Sprintf("this run could detect a difference of %s%% or more", formatNumber(100*(v.Detectable-1)))
	if v.Outcome != Inconclusive {
		return floor
	}
	// The effect seen: the sides' medians as tested (coefficients applied).
	seen := 0.0
	if v.Left.Median > 0 && v.Right.Median > 0 {
		seen = max(v.Left.Median/v.Right.Median, v.Right.Median/v.Left.Median)
	}
	// An inconclusive claim's medians always differ by less than the floor in the claim's
	// direction (the floor is the test's own edge), so "less than the floor" cannot tell a
	// small effect from a large noise: the medians 78% apart under a 146% floor are not a
	// small effect. Less than half the floor is: the effect is then small beside what the
	// run could see; from half on, the run saw an effect of the floor's order it could not
	// separate from the noise.
	if seen-1 < (v.Detectable-1)/2 {
		return fmt.Sprintf("%s; the medians differ by %s%%, under half of that: the effect, if any, is small for this noise",
			floor, formatNumber(100*(seen-1)))
	}
	if seen < v.Detectable {
		return fmt.Sprintf("%s; the medians differ by %s%%, of that order: the noise is too large to tell (spreads ±%s%% and ±%s%%), more repeats would narrow it",
			floor, formatNumber(100*(seen-1)), formatNumber(100*v.Left.Spread()), formatNumber(100*v.Right.Spread()))
	}
	return fmt.Sprintf("%s; the medians differ by %s%%, more than that, yet the repeats overlap: the noise is large (spreads ±%s%% and ±%s%%)",
		floor, formatNumber(100*(seen-1)), formatNumber(100*v.Left.Spread()), formatNumber(100*v.Right.Spread()))
}

// describe renders one side with its numbers: "2 x records_per_sec(batch=1KiB) = 2 x
// 20,100 records/s (median of 3, 19,800-20,500)".
func describe(s Side, raw sample) string {
	if s.IsConstant() {
		return formatNumber(s.Coef)
	}
	st := stats.Summarize(raw.values)
	var b strings.Builder
	b.WriteString(s.String())
	b.WriteString(" = ")
	if s.Coef != 1 {
		fmt.Fprintf(&b, "%s x ", formatNumber(s.Coef))
	}
	fmt.Fprintf(&b, "%s %s", formatNumber(st.Median), Unit(s.Metric))
	unit := ""
	if raw.unit == "round" {
		unit = " rounds"
	}
	if st.N == 1 {
		fmt.Fprintf(&b, " (1 %s)", raw.unit)
	} else {
		fmt.Fprintf(&b, " (median of %d%s, %s-%s)", st.N, unit, formatNumber(st.Min), formatNumber(st.Max))
	}
	return b.String()
}

// detectable is the noise floor of "l op r": the smallest ratio by which the side the claim
// puts higher would have to exceed the other for the test to confirm it (both ways for
// "~"); 0 when the repeats are too few.
func detectable(op Op, l, r []float64, alpha float64) float64 {
	up, okUp := stats.DetectableRatio(r, l, alpha)     // l above r
	down, okDown := stats.DetectableRatio(l, r, alpha) // r above l
	if !okUp || !okDown {
		return 0
	}
	return inDirection(op, up, down)
}

// inDirection picks the floor the claim's operator needs: up for > and >=, down for < and
// <=, the larger for "~".
func inDirection(op Op, up, down float64) float64 {
	switch op {
	case Greater, GreaterEqual:
		return up
	case Less, LessEqual:
		return down
	}
	return max(up, down)
}

// detectableConstant is the noise floor of a side against a constant, with the sign test:
// the smallest ratio by which the measured side's median would have to pass the constant
// in the claim's direction (both ways for "~"); 0 when the values are too few.
func detectableConstant(c Claim, l, r []float64, alpha float64) float64 {
	s, op := l, c.Op
	if c.Left.IsConstant() {
		s, op = r, flip(c.Op)
	}
	up, down, ok := stats.DetectableSign(s, alpha)
	if !ok {
		return 0
	}
	return inDirection(op, up, down)
}
