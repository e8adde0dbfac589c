package claim

import (
	"fmt"
	"math"
	"strings"
)

// Lookup returns the values of a canonical metric for the scenarios selected by params,
// one value per repeat. When several scenarios match, value i is their mean for repeat i
// ([Table] does this). It returns an error when nothing matches.
type Lookup func(metric string, params map[string]string) (samples []float64, err error)

// Outcome is the result of testing a claim.
type Outcome string

// The outcomes of a claim.
const (
	// Confirmed: the claim holds for every pairing of the two sides' repeats.
	Confirmed Outcome = "confirmed"
	// Refuted: the opposite of the claim holds for every pairing of repeats.
	Refuted Outcome = "refuted"
	// Inconclusive: the repeats disagree, or the data is missing.
	Inconclusive Outcome = "inconclusive"
)

// Verdict is the evaluated claim, with the numbers behind it.
type Verdict struct {
	// Claim is the claim evaluated.
	Claim Claim
	// Outcome is confirmed, refuted or inconclusive.
	Outcome Outcome
	// Left and Right summarise each side's repeats, coefficient applied.
	Left, Right Stats
	// Ratio is the left median over the right median, coefficients not applied (for
	// "throughput(a) > 2 x throughput(b)" it answers "how many times b is a"); zero when
	// undefined.
	Ratio float64
	// Sentence states the outcome with its numbers, e.g. "confirmed: records_per_sec(
	// batch=16KiB) = 52,300 records/s (3 repeats, 51,000-53,100) > 2 x ...".
	Sentence string
}

// Evaluate tests the claim against measured values.
//
// The rule: let L and R be each side's repeats (coefficients applied). For ">" the claim
// is confirmed when min(L) > max(R), refuted when max(L) <= min(R), and inconclusive when
// the ranges overlap; "<", ">=" and "<=" follow the same pattern. For "~" within tolerance
// t, with lo and hi the extremes of both sides together, the claim is confirmed when
// (hi-lo)/hi <= t, refuted when the two ranges lie apart by more than t relative to the
// larger, and inconclusive otherwise. With one repeat a side's range is a single point, so
// the medians decide; the sentence shows the repeat count so readers can judge.
func (c Claim) Evaluate(lookup Lookup) Verdict {
	v := Verdict{Claim: c, Outcome: Inconclusive}
	var raw [2]Stats
	for i, s := range []Side{c.Left, c.Right} {
		st, err := sideStats(s, lookup)
		if err != nil {
			v.Sentence = fmt.Sprintf("inconclusive: %s: %v", s, err)
			return v
		}
		raw[i] = st
	}
	v.Left, v.Right = raw[0].scale(c.Left.Coef), raw[1].scale(c.Right.Coef)
	if c.Left.IsConstant() {
		v.Left = raw[0]
	}
	if c.Right.IsConstant() {
		v.Right = raw[1]
	}
	if raw[1].Median != 0 && !c.Left.IsConstant() && !c.Right.IsConstant() {
		v.Ratio = raw[0].Median / raw[1].Median
	}
	v.Outcome = decide(c.Op, c.Tolerance, v.Left, v.Right)
	v.Sentence = c.sentence(v, raw)
	return v
}

// sideStats looks a side up; a constant side is its own single sample.
func sideStats(s Side, lookup Lookup) (Stats, error) {
	if s.IsConstant() {
		return summarize([]float64{s.Coef})
	}
	if lookup == nil {
		return Stats{}, fmt.Errorf("no results to look up")
	}
	samples, err := lookup(s.Metric, s.Params())
	if err != nil {
		return Stats{}, err
	}
	return summarize(samples)
}

func decide(op Op, tol float64, l, r Stats) Outcome {
	var holds, opposite bool
	switch op {
	case Greater:
		holds, opposite = l.Min > r.Max, l.Max <= r.Min
	case GreaterEqual:
		holds, opposite = l.Min >= r.Max, l.Max < r.Min
	case Less:
		holds, opposite = l.Max < r.Min, l.Min >= r.Max
	case LessEqual:
		holds, opposite = l.Max <= r.Min, l.Min > r.Max
	case About:
		lo, hi := math.Min(l.Min, r.Min), math.Max(l.Max, r.Max)
		holds = relGap(lo, hi) <= tol
		if l.Max < r.Min {
			opposite = relGap(l.Max, r.Min) > tol
		} else if r.Max < l.Min {
			opposite = relGap(r.Max, l.Min) > tol
		}
	}
	switch {
	case holds:
		return Confirmed
	case opposite:
		return Refuted
	default:
		return Inconclusive
	}
}

// relGap is the distance between a and b relative to the larger magnitude.
func relGap(a, b float64) float64 {
	m := math.Max(math.Abs(a), math.Abs(b))
	if m == 0 {
		return 0
	}
	return math.Abs(b-a) / m
}

func (c Claim) sentence(v Verdict, raw [2]Stats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %s %s", v.Outcome, describe(c.Left, raw[0]), c.Op, describe(c.Right, raw[1]))
	if c.Op == About {
		fmt.Fprintf(&b, " within %s%%", formatNumber(c.Tolerance*100))
	}
	if v.Ratio != 0 {
		fmt.Fprintf(&b, "; ratio %.2f", v.Ratio)
	}
	switch v.Outcome {
	case Confirmed:
		b.WriteString("; holds for every pair of repeats")
	case Refuted:
		b.WriteString("; the opposite holds for every pair of repeats")
	default:
		medians := decide(c.Op, c.Tolerance, Stats{Min: v.Left.Median, Max: v.Left.Median}, Stats{Min: v.Right.Median, Max: v.Right.Median})
		if medians == Confirmed {
			b.WriteString("; the medians agree but the repeats' ranges overlap")
		} else {
			b.WriteString("; the medians disagree but the repeats' ranges overlap")
		}
	}
	return b.String()
}

// describe renders one side with its numbers: "2 x records_per_sec(batch=1KiB) = 2 x
// 20,100 records/s (3 repeats, 19,800-20,500)".
func describe(s Side, raw Stats) string {
	if s.IsConstant() {
		return formatNumber(s.Coef)
	}
	unit := Unit(s.Metric)
	var b strings.Builder
	b.WriteString(s.String())
	b.WriteString(" = ")
	if s.Coef != 1 {
		fmt.Fprintf(&b, "%s x ", formatNumber(s.Coef))
	}
	fmt.Fprintf(&b, "%s %s", formatNumber(raw.Median), unit)
	if raw.N == 1 {
		b.WriteString(" (1 repeat)")
	} else {
		fmt.Fprintf(&b, " (median of %d, %s-%s)", raw.N, formatNumber(raw.Min), formatNumber(raw.Max))
	}
	return b.String()
}
