package study

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/kbench/kbench/internal/claim"
)

// finish expands and validates the scenarios, then decodes the sections that refer to
// them: hypotheses and reference.
func (p *parsed) finish() (*Plan, error) {
	points, err := p.expand()
	if err != nil {
		return nil, err
	}
	for _, pt := range points {
		if err := p.resolveShape(&pt); err != nil {
			return nil, err
		}
		if err := p.validate(pt); err != nil {
			return nil, err
		}
		p.plan.Scenarios = append(p.plan.Scenarios, pt.s)
	}
	if p.hypotheses != nil {
		if err := p.hypothesisList(p.hypotheses); err != nil {
			return nil, err
		}
	}
	if p.reference != nil {
		if err := p.referenceSection(p.reference); err != nil {
			return nil, err
		}
	}
	return &p.plan, nil
}

// hypothesisList decodes claims, each a string or {claim: ..., note: ...}, and checks
// that every selector names a parameter and value of this study and that each side names
// exactly the scenarios it compares: one, or several under an explicit aggregate, and
// never a scenario of the other side.
func (p *parsed) hypothesisList(n *yaml.Node) error {
	d := p.d
	return d.list(n, "hypotheses", func(i int, item *yaml.Node) error {
		field := index("hypotheses", i)
		var text, note string
		textNode := item
		if item.Kind == yaml.MappingNode {
			err := d.mapping(item, field, map[string]func(k, v *yaml.Node) error{
				"claim": func(_, v *yaml.Node) error { textNode = v; return d.str(v, field+".claim", &text) },
				"note":  func(_, v *yaml.Node) error { return d.str(v, field+".note", &note) },
			})
			if err != nil {
				return err
			}
			if text == "" {
				return d.errorf(item, field+".claim", "missing: the claim to test, e.g. throughput(batch=16KiB) > throughput(batch=1KiB)")
			}
		} else if err := d.str(item, field, &text); err != nil {
			return err
		}
		c, err := claim.Parse(text)
		if err != nil {
			return d.wrap(textNode, field, err)
		}
		c.Note = note
		for _, side := range c.Sides() {
			if err := p.checkSelector(side, textNode, field); err != nil {
				return err
			}
		}
		if _, _, err := c.Resolve(p.plan.claimScenarios()); err != nil {
			return d.errorf(textNode, field, "hypothesis %q: %v", c.Text, err)
		}
		p.plan.Hypotheses = append(p.plan.Hypotheses, c)
		return nil
	})
}

// claimScenarios returns the scenarios as a claim resolves its sides against them.
func (p *Plan) claimScenarios() []claim.Scenario {
	out := make([]claim.Scenario, len(p.Scenarios))
	for i, s := range p.Scenarios {
		out[i] = claim.Scenario{ID: s.ID, Params: s.Params}
	}
	return out
}

func (p *parsed) checkSelector(side claim.Side, n *yaml.Node, field string) error {
	for _, sel := range side.Selector {
		if !slices.Contains(p.plan.Parameters, sel.Key) {
			return p.d.errorf(n, field, "%s: %q is not a parameter of this study %s", side, sel.Key, choices(p.plan.Parameters))
		}
		var values []string
		for _, s := range p.plan.Scenarios {
			if v, ok := s.Params[sel.Key]; ok && !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
		if !slices.Contains(values, sel.Value) {
			return p.d.errorf(n, field, "%s: %s has no value %q %s", side, sel.Key, sel.Value, choices(values))
		}
	}
	for _, s := range p.plan.Scenarios {
		if side.Matches(s.Params) {
			return nil
		}
	}
	return p.d.errorf(n, field, "%s matches no scenario", side)
}

// referenceSection decodes the source's published figures:
//
//	reference:
//	  source: Table 1-2, 3 brokers of 2 vCPU
//	  scenarios:
//	    batch=1KiB: {records_per_sec: 37697, broker_cpu_percent: [54, 55, 51.65]}
func (p *parsed) referenceSection(n *yaml.Node) error {
	d := p.d
	ref := &p.plan.Reference
	ref.Scenarios = map[string]Figures{}
	ids := make([]string, len(p.plan.Scenarios))
	for i, s := range p.plan.Scenarios {
		ids[i] = s.ID
	}
	metrics := ReferenceMetrics()
	return d.mapping(n, "reference", map[string]func(k, v *yaml.Node) error{
		"source": func(_, v *yaml.Node) error { return d.str(v, "reference.source", &ref.Source) },
		"scenarios": func(_, v *yaml.Node) error {
			return d.pairs(v, "reference.scenarios", func(k, v *yaml.Node) error {
				field := "reference.scenarios." + k.Value
				if !slices.Contains(ids, k.Value) {
					return d.errorf(k, field, "%q is not a scenario of this study %s", k.Value, choices(ids))
				}
				figs := Figures{}
				err := d.pairs(v, field, func(mk, mv *yaml.Node) error {
					mfield := field + "." + mk.Value
					if !slices.Contains(metrics, mk.Value) {
						return d.errorf(mk, mfield, "unknown metric %q %s", mk.Value, choices(metrics))
					}
					nums, err := p.numbers(mv, mfield)
					figs[mk.Value] = nums
					return err
				})
				ref.Scenarios[k.Value] = figs
				return err
			})
		},
	})
}

// numbers decodes a number or a list of numbers.
func (p *parsed) numbers(n *yaml.Node, field string) ([]float64, error) {
	one := func(v *yaml.Node, f string) (float64, error) {
		s, err := p.d.scalar(v, f)
		if err != nil {
			return 0, err
		}
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, p.d.errorf(v, f, "%q is not a number", s)
		}
		return x, nil
	}
	if n.Kind == yaml.SequenceNode {
		var out []float64
		err := p.d.list(n, field, func(i int, v *yaml.Node) error {
			x, err := one(v, index(field, i))
			out = append(out, x)
			return err
		})
		return out, err
	}
	x, err := one(n, field)
	return []float64{x}, err
}

// String renders the figures briefly, metrics sorted and per-broker values joined by
// "/": "broker_cpu_percent=54/55/51.65 records_per_sec=37697".
func (f Figures) String() string {
	var b strings.Builder
	for i, k := range slices.Sorted(maps.Keys(f)) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k)
		b.WriteByte('=')
		for j, v := range f[k] {
			if j > 0 {
				b.WriteByte('/')
			}
			b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	return b.String()
}
