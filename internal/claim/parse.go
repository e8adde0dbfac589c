package claim

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Parse parses one claim; see the package documentation for the grammar. Errors name the
// column (1-based) where parsing failed and what was expected there.
func Parse(text string) (Claim, error) {
	p := &parser{src: strings.TrimSpace(text)}
	c, err := p.claim()
	if err != nil {
		return Claim{}, fmt.Errorf("claim %q: %w", p.src, err)
	}
	return c, nil
}

// MustParse is Parse for claims known to be valid, such as literals in tests; it panics on
// error.
func MustParse(text string) Claim {
	c, err := Parse(text)
	if err != nil {
		panic(err)
	}
	return c
}

type parser struct {
	src string
	pos int
}

func (p *parser) claim() (Claim, error) {
	c := Claim{Text: p.src}
	if p.src == "" {
		return c, fmt.Errorf("empty claim")
	}
	var err error
	if c.Left, err = p.side(); err != nil {
		return c, err
	}
	if c.Op, err = p.op(); err != nil {
		return c, err
	}
	if c.Right, err = p.side(); err != nil {
		return c, err
	}
	if c.Op == About {
		c.Tolerance = DefaultTolerance
	}
	p.space()
	if p.keyword("within") {
		if c.Op != About {
			return c, p.errorf(`"within" applies only to "~"`)
		}
		n, err := p.number()
		if err != nil {
			return c, err
		}
		p.space()
		if !p.consume("%") {
			return c, p.errorf(`expected "%%" after the tolerance`)
		}
		if n <= 0 || n >= 100 {
			return c, fmt.Errorf("tolerance %v%% is outside (0, 100)", n)
		}
		c.Tolerance = n / 100
	}
	p.space()
	if p.pos < len(p.src) {
		return c, p.errorf("unexpected %q", p.src[p.pos:])
	}
	if c.Left.IsConstant() && c.Right.IsConstant() {
		return c, fmt.Errorf("both sides are constants; at least one must be a metric such as throughput(...)")
	}
	if !c.Left.IsConstant() && !c.Right.IsConstant() && c.Left.Metric != c.Right.Metric {
		return c, fmt.Errorf("the sides compare different metrics, %s and %s", c.Left.Metric, c.Right.Metric)
	}
	return c, nil
}

// side parses `[number x] metric(selector) [x number]` or a plain number.
func (p *parser) side() (Side, error) {
	p.space()
	if p.peekNumber() {
		n, err := p.number()
		if err != nil {
			return Side{}, err
		}
		if !p.times() {
			return Side{Coef: n}, nil
		}
		s, err := p.term()
		s.Coef = n
		return s, err
	}
	s, err := p.term()
	if err != nil {
		return s, err
	}
	s.Coef = 1
	save := p.pos
	if p.times() {
		p.space()
		if !p.peekNumber() {
			p.pos = save
			return s, p.errorf("expected a number after the multiplication sign")
		}
		if s.Coef, err = p.number(); err != nil {
			return s, err
		}
	}
	return s, nil
}

// term parses metric(selector) or aggregate(metric(selector)).
func (p *parser) term() (Side, error) {
	p.space()
	start := p.pos
	name := p.ident()
	if name == "" {
		return Side{}, p.errorf("expected a metric such as throughput(...) or a number")
	}
	if agg := strings.ToLower(name); isAggregate(agg) && p.aggregateAhead() {
		p.space()
		p.consume("(")
		inner := p.pos
		s, err := p.metricTerm()
		if err != nil {
			return s, err
		}
		p.space()
		if !p.consume(")") {
			return s, p.errorf(`expected ")" to close %s(`, agg)
		}
		if err := checkAggregate(agg, s.Metric); err != nil {
			p.pos = inner
			return s, p.errorf("%v", err)
		}
		s.Aggregate = agg
		return s, nil
	}
	p.pos = start
	return p.metricTerm()
}

// aggregateAhead reports whether "(" and then a name and "(" follow, as in
// "mean(mb_per_sec(...))", which tells the aggregate max(...) from the metric max(...).
func (p *parser) aggregateAhead() bool {
	save := p.pos
	defer func() { p.pos = save }()
	p.space()
	if !p.consume("(") {
		return false
	}
	p.space()
	if p.ident() == "" {
		return false
	}
	p.space()
	return p.consume("(")
}

// ident consumes a metric or aggregate name and returns it ("" when none is there).
func (p *parser) ident() string {
	start := p.pos
	for p.pos < len(p.src) && (isIdent(rune(p.src[p.pos])) || p.src[p.pos] == '.') {
		p.pos++
	}
	return p.src[start:p.pos]
}

// metricTerm parses metric(selector).
func (p *parser) metricTerm() (Side, error) {
	p.space()
	start := p.pos
	name := p.ident()
	if name == "" {
		return Side{}, p.errorf("expected a metric such as throughput(...)")
	}
	metric, err := canonicalMetric(name)
	if err != nil {
		p.pos = start
		return Side{}, p.errorf("%v", err)
	}
	p.space()
	if !p.consume("(") {
		return Side{}, p.errorf(`expected "(" after %s`, p.src[start:p.pos])
	}
	end := strings.IndexByte(p.src[p.pos:], ')')
	if end < 0 {
		return Side{}, p.errorf(`missing ")"`)
	}
	body := p.src[p.pos : p.pos+end]
	s := Side{Metric: metric}
	if strings.TrimSpace(body) != "" {
		seen := map[string]bool{}
		for _, part := range strings.Split(body, ",") {
			k, v, ok := strings.Cut(part, "=")
			k, v = strings.TrimSpace(k), strings.TrimSpace(v)
			if !ok || k == "" || v == "" {
				return s, p.errorf("selector %q is not key=value", strings.TrimSpace(part))
			}
			if bad := strings.IndexFunc(k+v, func(r rune) bool { return !isValueRune(r) }); bad >= 0 {
				return s, p.errorf("selector %q may hold only letters, digits and . - _ + : /", strings.TrimSpace(part))
			}
			if seen[k] {
				return s, p.errorf("selector key %q appears twice", k)
			}
			seen[k] = true
			s.Selector = append(s.Selector, Param{Key: k, Value: v})
		}
	}
	p.pos += end + 1
	return s, nil
}

func (p *parser) op() (Op, error) {
	p.space()
	for _, op := range []Op{GreaterEqual, LessEqual, Greater, Less, About} {
		if p.consume(string(op)) {
			return op, nil
		}
	}
	return "", p.errorf("expected a comparison (>, >=, <, <=, ~)")
}

// times consumes a multiplication sign: "x", "*" or "×".
func (p *parser) times() bool {
	p.space()
	if p.consume("*") || p.consume("×") {
		return true
	}
	if p.pos < len(p.src) && p.src[p.pos] == 'x' &&
		(p.pos+1 == len(p.src) || !isIdent(rune(p.src[p.pos+1]))) {
		p.pos++
		return true
	}
	return false
}

func (p *parser) peekNumber() bool {
	return p.pos < len(p.src) && (unicode.IsDigit(rune(p.src[p.pos])) || p.src[p.pos] == '.')
}

func (p *parser) number() (float64, error) {
	p.space()
	start := p.pos
	for p.pos < len(p.src) && (unicode.IsDigit(rune(p.src[p.pos])) || p.src[p.pos] == '.' || p.src[p.pos] == '_') {
		p.pos++
	}
	n, err := strconv.ParseFloat(strings.ReplaceAll(p.src[start:p.pos], "_", ""), 64)
	if err != nil {
		p.pos = start
		return 0, p.errorf("expected a number")
	}
	return n, nil
}

func (p *parser) keyword(w string) bool {
	if strings.HasPrefix(p.src[p.pos:], w) {
		p.pos += len(w)
		return true
	}
	return false
}

func (p *parser) consume(s string) bool {
	if strings.HasPrefix(p.src[p.pos:], s) {
		p.pos += len(s)
		return true
	}
	return false
}

func (p *parser) space() {
	for p.pos < len(p.src) && unicode.IsSpace(rune(p.src[p.pos])) {
		p.pos++
	}
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("column %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

func isIdent(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// isValueRune reports whether r may appear in a selector key or value: enough for sizes
// ("16KiB"), numbers ("-1", "0.5"), names ("gzip") and ratios ("1:3").
func isValueRune(r rune) bool { return isIdent(r) || strings.ContainsRune(".-_+:/", r) }
