package study

import (
	"fmt"
	"math"
	"strings"

	"gopkg.in/yaml.v3"
)

// point is a scenario during expansion, with where each of its fields was set.
type point struct {
	s      Scenario
	origin map[string]origin
	node   *yaml.Node // the matrix or list entry that made it
}

// expand builds the scenarios: the matrix's cartesian product (first parameter slowest),
// then the listed scenarios. A study with neither has one scenario, "default".
func (p *parsed) expand() ([]point, error) {
	if err := p.checkSize(); err != nil {
		return nil, err
	}
	var points []point
	if len(p.matrix) > 0 {
		idx := make([]int, len(p.matrix))
		for {
			pt := p.newPoint()
			pt.node = p.matrix[0].values[idx[0]]
			for i, ax := range p.matrix {
				v := ax.values[idx[i]]
				if err := p.apply(&pt.s, pt.origin, ax.param, v, index("matrix."+ax.param.name, idx[i])); err != nil {
					return nil, err
				}
				pt.s.Params[ax.param.name] = v.Value
			}
			points = append(points, pt)
			// advance the odometer, last parameter fastest
			i := len(idx) - 1
			for ; i >= 0; i-- {
				idx[i]++
				if idx[i] < len(p.matrix[i].values) {
					break
				}
				idx[i] = 0
			}
			if i < 0 {
				break
			}
		}
	}
	for li, cs := range p.listed {
		pt := p.newPoint()
		pt.node = cs[0].value
		// apply in parameter order, so a listed scenario behaves like the matching matrix point
		for _, name := range p.plan.Parameters {
			for _, c := range cs {
				if c.param.name != name {
					continue
				}
				if err := p.apply(&pt.s, pt.origin, c.param, c.value, index("scenarios", li)+"."+name); err != nil {
					return nil, err
				}
				pt.s.Params[name] = c.value.Value
			}
		}
		if set := p.listedSet[li]; set != nil {
			for i := 0; i+1 < len(set.Content); i += 2 {
				k, v := set.Content[i], set.Content[i+1]
				f := index("scenarios", li) + ".set." + k.Value
				if err := pt.s.setField(k.Value, v.Value); err != nil {
					return nil, p.d.wrap(v, f, err)
				}
				pt.origin[k.Value] = origin{v, f}
			}
		}
		points = append(points, pt)
	}
	if len(points) == 0 {
		points = append(points, p.newPoint())
	}
	seen := map[string]bool{}
	for i := range points {
		points[i].s.ID = scenarioID(p.plan.Parameters, points[i].s.Params)
		if len(points[i].s.ID) > maxScenarioID {
			return nil, p.d.errorf(points[i].node, "scenarios", "scenario ID %s... is %d bytes, more than the %d a directory name may have: use shorter parameter names or values",
				points[i].s.ID[:40], len(points[i].s.ID), maxScenarioID)
		}
		if seen[points[i].s.ID] {
			return nil, p.d.errorf(points[i].node, "scenarios", "scenario %s appears twice", points[i].s.ID)
		}
		seen[points[i].s.ID] = true
	}
	return points, nil
}

// MaxScenarios caps the scenarios of one study. Even at the shortest useful measurement
// (about 30 s with warm-up) 1,000 scenarios are more than 8 hours per repeat; a larger
// matrix is almost always a mistake (one axis too many) and would be expanded in memory
// before anything ran.
const MaxScenarios = 1000

// checkSize refuses a study whose matrix and listed scenarios make more than MaxScenarios,
// before any of them is built. The product is computed with a cap so that it cannot
// overflow.
func (p *parsed) checkSize() error {
	product := 1
	if len(p.matrix) > 0 {
		for _, ax := range p.matrix {
			product *= len(ax.values)
			if product > MaxScenarios {
				break
			}
		}
	} else {
		product = 0
	}
	if total := product + len(p.listed); total > MaxScenarios {
		n := p.matrixNode
		var sizes []string
		exact := uint64(1)
		overflow := false
		for _, ax := range p.matrix {
			sizes = append(sizes, fmt.Sprint(len(ax.values)))
			if exact > math.MaxUint64/uint64(len(ax.values)) {
				overflow = true
			}
			exact *= uint64(len(ax.values))
		}
		if len(p.matrix) == 0 {
			return p.d.errorf(nil, "scenarios", "%d listed scenarios, more than the %d one study may have: split the study", len(p.listed), MaxScenarios)
		}
		what := fmt.Sprintf("%s = %d scenarios", strings.Join(sizes, " x "), exact)
		if overflow {
			what = strings.Join(sizes, " x ") + " scenarios (more than 2^64)"
		}
		if len(p.listed) > 0 && !overflow {
			what += fmt.Sprintf(" plus %d listed", len(p.listed))
		}
		return p.d.errorf(n, "matrix", "%s, more than the %d one study may have: drop an axis or some values, or split the study", what, MaxScenarios)
	}
	return nil
}

func (p *parsed) newPoint() point {
	pt := point{s: p.base.clone(), origin: map[string]origin{}}
	pt.s.Params = map[string]string{}
	for k, v := range p.baseOrigin {
		pt.origin[k] = v
	}
	return pt
}

// scenarioID joins the scenario's values in parameter order: "batch=16KiB,acks=all".
func scenarioID(order []string, params map[string]string) string {
	var parts []string
	for _, name := range order {
		if v, ok := params[name]; ok {
			parts = append(parts, name+"="+v)
		}
	}
	if len(parts) == 0 {
		return "default"
	}
	return strings.Join(parts, ",")
}
