package study

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// param is a swept parameter: either one field set to the written value, or named
// values each setting several fields.
type param struct {
	name  string
	field string              // the field a written value sets; "" for named values
	named map[string][]assign // value name -> fields it sets
	order []string            // value names in file order
	node  *yaml.Node          // where the parameter was declared (nil for shorthands)
}

// assign is one field set by a named value.
type assign struct {
	path, value string
	node        *yaml.Node
}

// axis is one matrix dimension.
type axis struct {
	param  *param
	values []*yaml.Node
}

// choice is one parameter value of a listed scenario.
type choice struct {
	param *param
	value *yaml.Node
}

// parameters decodes the parameters section:
//
//	parameters:
//	  batch: producers.properties.batch.size     # a value sets one field
//	  replication:                               # named values set several fields
//	    async: {producers.properties.acks: "1"}
//	    sync:  {producers.properties.acks: all, topic.configs.min.insync.replicas: 2}
func (p *parsed) parameters(n *yaml.Node) error {
	d := p.d
	return d.pairs(n, "parameters", func(k, v *yaml.Node) error {
		field := "parameters." + k.Value
		if err := checkParamName(k.Value); err != nil {
			return d.wrap(k, field, err)
		}
		pr := &param{name: k.Value, node: k}
		switch v.Kind {
		case yaml.ScalarNode:
			if !validField(v.Value) {
				return d.errorf(v, field, "unknown field %q %s", v.Value, choices(fieldChoices()))
			}
			pr.field = v.Value
		case yaml.MappingNode:
			pr.named = map[string][]assign{}
			err := d.pairs(v, field, func(vk, vv *yaml.Node) error {
				vfield := field + "." + vk.Value
				if err := checkParamValue(vk.Value); err != nil {
					return d.wrap(vk, vfield, err)
				}
				pr.order = append(pr.order, vk.Value)
				pr.named[vk.Value] = nil // a value may change nothing: {}
				return d.pairs(vv, vfield, func(fk, fv *yaml.Node) error {
					if !validField(fk.Value) {
						return d.errorf(fk, vfield+"."+fk.Value, "unknown field %q %s", fk.Value, choices(fieldChoices()))
					}
					s, err := d.scalar(fv, vfield+"."+fk.Value)
					if err != nil {
						return err
					}
					pr.named[vk.Value] = append(pr.named[vk.Value], assign{path: fk.Value, value: s, node: fv})
					return nil
				})
			})
			if err != nil {
				return err
			}
		default:
			return d.errorf(v, field, "want a field such as topic.replicas, or a mapping of named values, got %s", kindName(v))
		}
		p.params[k.Value] = pr
		return nil
	})
}

// lookupParam finds a declared parameter, a shorthand, or a field path used as a name.
func (p *parsed) lookupParam(k *yaml.Node, field string) (*param, error) {
	if pr, ok := p.params[k.Value]; ok {
		return pr, nil
	}
	path, ok := Shorthands[k.Value]
	if !ok && validField(k.Value) {
		path, ok = k.Value, true
	}
	if !ok {
		names := slices.Sorted(maps.Keys(p.params))
		names = append(names, slices.Sorted(maps.Keys(Shorthands))...)
		return nil, p.d.errorf(k, field, "unknown parameter %q: declare it under parameters, or use a field path or one of %s", k.Value, choices(names))
	}
	pr := &param{name: k.Value, field: path}
	p.params[k.Value] = pr
	return pr, nil
}

// matrixSection decodes `matrix: {name: [v1, v2], ...}`; the product is taken in file
// order, the first parameter varying slowest.
func (p *parsed) matrixSection(n *yaml.Node) error {
	d := p.d
	return d.pairs(n, "matrix", func(k, v *yaml.Node) error {
		field := "matrix." + k.Value
		pr, err := p.lookupParam(k, field)
		if err != nil {
			return err
		}
		ax := axis{param: pr}
		seen := map[string]bool{}
		err = d.list(v, field, func(i int, item *yaml.Node) error {
			f := index(field, i)
			s, err := d.scalar(item, f)
			if err != nil {
				return err
			}
			if seen[s] {
				return d.errorf(item, f, "value %q appears twice", s)
			}
			seen[s] = true
			if err := p.checkValue(pr, item, f); err != nil {
				return err
			}
			ax.values = append(ax.values, item)
			return nil
		})
		if err != nil {
			return err
		}
		if len(ax.values) == 0 {
			return d.errorf(v, field, "no values")
		}
		p.addParameter(pr.name)
		p.matrix = append(p.matrix, ax)
		return nil
	})
}

// scenarioList decodes `scenarios: [{name: value, ..., set: {field: value}}, ...]`. The
// optional set mapping changes fields without naming the scenario.
func (p *parsed) scenarioList(n *yaml.Node) error {
	d := p.d
	setNode := p.listedSet
	return d.list(n, "scenarios", func(i int, item *yaml.Node) error {
		field := index("scenarios", i)
		var cs []choice
		err := d.pairs(item, field, func(k, v *yaml.Node) error {
			f := field + "." + k.Value
			if k.Value == "set" {
				setNode[len(p.listed)] = v
				return d.pairs(v, f, func(fk, fv *yaml.Node) error {
					if !validField(fk.Value) {
						return d.errorf(fk, f+"."+fk.Value, "unknown field %q %s", fk.Value, choices(fieldChoices()))
					}
					_, err := d.scalar(fv, f+"."+fk.Value)
					return err
				})
			}
			pr, err := p.lookupParam(k, f)
			if err != nil {
				return err
			}
			if _, err := d.scalar(v, f); err != nil {
				return err
			}
			if err := p.checkValue(pr, v, f); err != nil {
				return err
			}
			p.addParameter(pr.name)
			cs = append(cs, choice{pr, v})
			return nil
		})
		if err != nil {
			return err
		}
		if len(cs) == 0 {
			return d.errorf(item, field, "a listed scenario sets at least one parameter, e.g. {batch: 16KiB}")
		}
		p.listed = append(p.listed, cs)
		return nil
	})
}

// checkValue checks a written value's shape; whether it suits its field is checked when
// it is applied.
func (p *parsed) checkValue(pr *param, v *yaml.Node, field string) error {
	if err := checkParamValue(v.Value); err != nil {
		return p.d.wrap(v, field, err)
	}
	if pr.named != nil {
		if _, ok := pr.named[v.Value]; !ok {
			return p.d.errorf(v, field, "%q is not a value of parameter %s %s", v.Value, pr.name, choices(pr.order))
		}
	}
	return nil
}

func (p *parsed) addParameter(name string) {
	if !slices.Contains(p.plan.Parameters, name) {
		p.plan.Parameters = append(p.plan.Parameters, name)
	}
}

// apply sets a parameter's value on a scenario, recording where each field came from.
func (p *parsed) apply(s *Scenario, orig map[string]origin, pr *param, v *yaml.Node, field string) error {
	if pr.named == nil {
		if err := s.setField(pr.field, v.Value); err != nil {
			return p.d.wrap(v, field, err)
		}
		orig[pr.field] = origin{v, field}
		return nil
	}
	for _, a := range pr.named[v.Value] {
		afield := "parameters." + pr.name + "." + v.Value + "." + a.path
		if err := s.setField(a.path, a.value); err != nil {
			return p.d.wrap(a.node, afield, err)
		}
		orig[a.path] = origin{a.node, afield}
	}
	return nil
}

// checkParamName keeps names usable in scenario IDs and claim selectors.
func checkParamName(s string) error {
	if s == "set" {
		return fmt.Errorf(`"set" is reserved for a listed scenario's field changes`)
	}
	return checkParamValue(s)
}

// checkParamValue keeps values usable in scenario IDs, which name run directories
// (scenarios/<id>/), and in claim selectors: no spaces, commas, '=' or parentheses (they
// separate parameters in IDs and selectors), no '/' or '\\' (path separators), no control
// characters, and short enough for a directory name.
func checkParamValue(s string) error {
	if s == "" {
		return fmt.Errorf("empty value")
	}
	if strings.ContainsAny(s, " \t,=()") {
		return fmt.Errorf("%q may not contain spaces, commas, '=' or parentheses (it becomes part of a scenario ID)", s)
	}
	if strings.ContainsAny(s, `/\`) {
		return fmt.Errorf("%q may not contain '/' or '\\' (it becomes part of a scenario ID, which names a run directory)", s)
	}
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return fmt.Errorf("%q may not contain control characters (it becomes part of a scenario ID, which names a run directory)", s)
	}
	if i := strings.IndexFunc(s, notIDRune); i >= 0 {
		return fmt.Errorf("%q may not contain %q: a scenario ID names a run directory, so values hold letters, digits, '.', '_', '+' and '-' (write 1%% as 0.01)", s, s[i:i+utf8.RuneLen([]rune(s[i:])[0])])
	}
	if len(s) > maxParamValue {
		return fmt.Errorf("%d bytes is longer than the %d a parameter value may have (it becomes part of a scenario ID, which names a run directory)", len(s), maxParamValue)
	}
	return nil
}

// notIDRune reports a character a scenario ID may not hold (results.validID's set).
func notIDRune(r rune) bool {
	return !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("._+-", r)))
}

// maxParamValue bounds one parameter value (or name); maxScenarioID bounds the whole ID,
// a directory name, which most file systems cap at 255 bytes.
const (
	maxParamValue = 64
	maxScenarioID = 255
)
