// Package claim parses and evaluates the hypotheses a study tests, such as
//
//	throughput(batch=16KiB) > 2 x throughput(batch=1KiB)
//	p99(acks=all) > p99(acks=1)
//	cpu(replicas=3) > cpu(replicas=1)
//	mb_per_sec(compression=gzip) ~ mb_per_sec(compression=none) within 20%
//
// # Grammar
//
//	claim    = side op side [ "within" number "%" ]
//	side     = [ number ( "x" | "*" ) ] term [ ( "x" | "*" ) number ] | number
//	term     = metric "(" [ selector { "," selector } ] ")"
//	selector = key "=" value
//	op       = ">" | ">=" | "<" | "<=" | "~"
//
// A selector picks the scenarios whose parameters have all of the given values; when it
// matches several scenarios, the side is their mean (repeat by repeat). An empty selector,
// "throughput()", matches every scenario. A plain number stands for a constant in the
// metric's unit (records/s, MiB/s, milliseconds, cores). "~" means "equal within a
// tolerance", 10% unless "within N%" says otherwise.
//
// # Metrics
//
// The names a lookup receives are the canonical ones; aliases are accepted in claims:
//
//	records_per_sec  (throughput, rps)   acknowledged records per second
//	mb_per_sec       (mbps)              MiB per second
//	p50, p95, p99, p999 (p99.9), max, avg  produce latency in milliseconds
//	broker_cpu       (cpu)               broker CPU, in cores
//	client_cpu                           client CPU, in cores
//
// # Verdicts
//
// Each side has one value per repeat. A claim is confirmed when it holds for every pairing
// of repeats (for ">": the smallest left value beats the largest right value), refuted when
// its opposite holds for every pairing, and inconclusive otherwise, because the spread of the
// repeats straddles the comparison. See [Claim.Evaluate].
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

// Params returns the selector as a map, the form a lookup receives.
func (s Side) Params() map[string]string {
	m := make(map[string]string, len(s.Selector))
	for _, p := range s.Selector {
		m[p.Key] = p.Value
	}
	return m
}

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
// "2 x records_per_sec(batch=16KiB)".
func (s Side) String() string {
	if s.IsConstant() {
		return strconv.FormatFloat(s.Coef, 'f', -1, 64)
	}
	var b strings.Builder
	if s.Coef != 1 {
		b.WriteString(strconv.FormatFloat(s.Coef, 'f', -1, 64))
		b.WriteString(" x ")
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
