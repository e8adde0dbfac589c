package claim

import (
	"fmt"
	"slices"
	"strings"
)

// Scenario is what a side is resolved against: a scenario's ID and swept parameters.
type Scenario struct {
	// ID names the scenario, e.g. "batch=16KiB,acks=all".
	ID string
	// Params are its swept parameters, e.g. {"batch": "16KiB", "acks": "all"}.
	Params map[string]string
}

// Resolve returns the IDs of the scenarios a side names, in the order given; see the
// package documentation. A constant side names none. It is an error when a side names no
// scenario, or several without an aggregate.
func (s Side) Resolve(scenarios []Scenario) ([]string, error) {
	if s.IsConstant() {
		return nil, nil
	}
	var matched []string
	for _, sc := range scenarios {
		if s.Aggregate == "" && s.exactly(sc.Params) {
			return []string{sc.ID}, nil
		}
		if s.Matches(sc.Params) {
			matched = append(matched, sc.ID)
		}
	}
	switch {
	case len(matched) == 0:
		return nil, fmt.Errorf("%s matches no scenario", s)
	case len(matched) > 1 && s.Aggregate == "":
		agg := Mean
		if IsLatency(s.Metric) {
			agg = Max
		}
		return nil, fmt.Errorf("%s selects %d scenarios (%s): name one by all its parameters, or ask for an aggregate such as %s(%s)",
			s, len(matched), strings.Join(matched, "; "), agg, s)
	}
	return matched, nil
}

// exactly reports whether the selector lists every parameter of a scenario, and only
// those: the selector is the scenario's ID.
func (s Side) exactly(params map[string]string) bool {
	return len(s.Selector) == len(params) && s.Matches(params)
}

// Resolve resolves both sides and checks that they name different scenarios: a claim
// whose sides share a scenario compares something with part of itself.
func (c Claim) Resolve(scenarios []Scenario) (left, right []string, err error) {
	if left, err = c.Left.Resolve(scenarios); err != nil {
		return nil, nil, err
	}
	if right, err = c.Right.Resolve(scenarios); err != nil {
		return nil, nil, err
	}
	var shared []string
	for _, id := range left {
		if slices.Contains(right, id) {
			shared = append(shared, id)
		}
	}
	if len(shared) > 0 {
		return nil, nil, fmt.Errorf("both sides select scenario(s) %s", strings.Join(shared, "; "))
	}
	return left, right, nil
}
