// Package claim parses and evaluates the hypotheses a study tests, such as
//
//	throughput(batch=16KiB) > 2 x throughput(batch=1KiB)
//	p99(acks=all) > p99(acks=1)
//	cpu(replicas=3) > cpu(replicas=1)
//	mean(mb_per_sec(compression=gzip)) ~ mean(mb_per_sec(compression=none)) within 20%
//
// # Grammar
//
//	claim     = side op side [ "within" number "%" ]
//	side      = [ number ( "x" | "*" ) ] term [ ( "x" | "*" ) number ] | number
//	term      = metric "(" selection ")" | aggregate "(" metric "(" selection ")" ")"
//	selection = [ selector { "," selector } ]
//	selector  = key "=" value
//	aggregate = "mean" | "min" | "max"
//	op        = ">" | ">=" | "<" | "<=" | "~"
//
// A side names what it compares. Without an aggregate it names exactly one scenario:
// either by all of that scenario's parameters (its ID), or by some of them when only one
// scenario has those values; a selection that fits several scenarios is an error that
// lists them. With an aggregate it names every scenario whose parameters include the
// selection, and each repeat round (repeat r of every named scenario) gives one value:
// their mean, smallest or largest. A percentile, the maximum or the mean latency of
// several scenarios is not their mean (a mean of p99s is not the p99 of their records), so
// latency metrics take only min and max: the best and the worst scenario. The two sides of
// a claim must name different scenarios ([Claim.Resolve]). A plain number stands for a
// constant in the metric's unit (records/s, MiB/s, milliseconds, cores). "~" means "equal
// within a tolerance", 10% unless "within N%" says otherwise.
//
// # Metrics
//
// Observed values are keyed by the canonical names; claims may use the aliases:
//
//	records_per_sec  (throughput, rps)   acknowledged records per second
//	mb_per_sec       (mbps)              MiB per second
//	p50, p95, p99, p999 (p99.9), max, avg  produce latency in milliseconds
//	broker_cpu       (cpu)               broker CPU, in cores
//	client_cpu                           client CPU, in cores
//
// # Verdicts
//
// Each side has one value per valid repeat (per complete round for an aggregate). Two
// measured sides are compared with the exact one-sided Mann-Whitney rank test, a side
// against a constant with the exact sign test; a claim is confirmed when the test of the
// claim gives p <= 0.05, refuted when the test of its opposite does, and inconclusive
// otherwise. "~" is two such tests at once (the ratio is above the lower edge of the band
// and below the upper edge). Both tests are exact counts of orderings, with no assumption
// about how repeats are distributed, which matters with three to ten repeats.
//
// A verdict needs [MinRepeats] valid repeats on each measured side, [MinRepeatsConstant]
// against a constant: these are the smallest counts at which the tests can reach p <= 0.05
// at all (3 against 3: one ordering in C(6,3) = 20 puts every left repeat above every right
// one, p = 1/20; 5 against a constant: 1/2^5 = 1/32, while 4 gives 1/16). With fewer, the
// outcome is "indicative", which says which way the medians point and how many repeats are
// missing. See [Claim.Evaluate].
//
// The package is pure: it knows nothing of Kafka, YAML or files.
package claim

import (
	"strconv"
	"strings"
)

// Claim is one parsed hypothesis.
type Claim struct {
	// Text is the claim as written, trimmed.
	Text string
	// Note says where the claim comes from or why it is expected (optional; set by the study).
	Note string
	// Left and Right are the two compared sides.
	Left, Right Side
	// Op is the comparison.
	Op Op
	// Tolerance is the relative tolerance of "~" (0.10 for 10%); zero for other operators.
	Tolerance float64
}

// Op is a comparison operator.
type Op string

// The comparison operators.
const (
	Greater      Op = ">"
	GreaterEqual Op = ">="
	Less         Op = "<"
	LessEqual    Op = "<="
	About        Op = "~"
)

// DefaultTolerance is the relative tolerance of "~" when the claim gives none.
const DefaultTolerance = 0.10

// Side is one side of a claim: Coef x Metric(Selector), or the constant Coef when Metric is
// empty.
type Side struct {
	// Coef multiplies the metric (1 when absent); for a constant side it is the constant.
	Coef float64
	// Aggregate is "", or "mean", "min" or "max" when the side combines several scenarios.
	Aggregate string
	// Metric is the canonical metric name; empty for a constant.
	Metric string
	// Selector lists the key=value pairs in the order written.
	Selector []Param
}

// Param is one key=value pair of a selector.
type Param struct {
	Key, Value string
}

// IsConstant reports whether the side is a plain number.
func (s Side) IsConstant() bool { return s.Metric == "" }

// Matches reports whether a scenario with params is selected by the side: every selector
// key is present in params with the same value.
func (s Side) Matches(params map[string]string) bool {
	for _, p := range s.Selector {
		if v, ok := params[p.Key]; !ok || v != p.Value {
			return false
		}
	}
	return true
}

// String renders the side canonically, in a form Parse accepts, e.g.
// "2 x records_per_sec(batch=16KiB)" or
// "mean(mb_per_sec(compression=gzip))".
func (s Side) String() string {
	if s.IsConstant() {
		return strconv.FormatFloat(s.Coef, 'f', -1, 64)
	}
	var b strings.Builder
	if s.Coef != 1 {
		b.WriteString(strconv.FormatFloat(s.Coef, 'f', -1, 64))
		b.WriteString(" x ")
	}
	if s.Aggregate != "" {
		b.WriteString(s.Aggregate)
		b.WriteByte('(')
	}
	b.WriteString(s.Metric)
	b.WriteByte('(')
	for i, p := range s.Selector {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p.Key)
		b.WriteByte('=')
		b.WriteString(p.Value)
	}
	b.WriteByte(')')
	if s.Aggregate != "" {
		b.WriteByte(')')
	}
	return b.String()
}

// Sides returns the non-constant sides, which a study checks against its scenarios.
func (c Claim) Sides() []Side {
	var out []Side
	for _, s := range []Side{c.Left, c.Right} {
		if !s.IsConstant() {
			out = append(out, s)
		}
	}
	return out
}
