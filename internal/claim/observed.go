package claim

import (
	"fmt"
	"math"
	"slices"
)

// Observed is one scenario's results, as a claim is evaluated against them. Every scenario
// of the run belongs here, including those without a valid repeat, so that a side naming
// one of them is reported instead of silently shrinking.
type Observed struct {
	Scenario
	// Repeats are the scenario's valid repeats; invalid ones are left out.
	Repeats []Repeat
}

// Repeat is one valid repeat's figures.
type Repeat struct {
	// N is the repeat's number (1-based); an aggregate combines the repeats of its
	// scenarios that share a number, which ran in the same round.
	N int
	// Values maps a canonical metric name to its value; a metric the repeat did not
	// measure is absent.
	Values map[string]float64
}

// sample holds a side's values, one per repeat (or per round for an aggregate), before
// the side's coefficient is applied.
type sample struct {
	values []float64
	// unit names what one value stands for: "repeat" or "round".
	unit string
}

// values returns the values of a side that names the scenarios ids.
func (s Side) values(ids []string, observed []Observed) (sample, error) {
	if s.IsConstant() {
		return sample{values: []float64{s.Coef}, unit: "constant"}, nil
	}
	byRepeat := make([]map[int]float64, len(ids))
	for i, id := range ids {
		j := slices.IndexFunc(observed, func(o Observed) bool { return o.ID == id })
		if j < 0 {
			return sample{}, fmt.Errorf("scenario %s has no results", id)
		}
		o := observed[j]
		if len(o.Repeats) == 0 {
			return sample{}, fmt.Errorf("scenario %s has no valid repeat", id)
		}
		byRepeat[i] = map[int]float64{}
		for _, r := range o.Repeats {
			v, ok := r.Values[s.Metric]
			if !ok {
				continue
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return sample{}, fmt.Errorf("scenario %s repeat %d: %s %v is not a finite number", id, r.N, s.Metric, v)
			}
			byRepeat[i][r.N] = v
		}
		if len(byRepeat[i]) == 0 {
			return sample{}, fmt.Errorf("scenario %s has no valid repeat with a %s value", id, s.Metric)
		}
	}
	if s.Aggregate == "" {
		return sample{values: sortedValues(byRepeat[0]), unit: "repeat"}, nil
	}
	return s.rounds(ids, byRepeat)
}

// rounds combines, for every repeat number that all scenarios have, their values into one.
func (s Side) rounds(ids []string, byRepeat []map[int]float64) (sample, error) {
	var numbers []int
	for n := range byRepeat[0] {
		complete := true
		for _, m := range byRepeat[1:] {
			if _, ok := m[n]; !ok {
				complete = false
			}
		}
		if complete {
			numbers = append(numbers, n)
		}
	}
	if len(numbers) == 0 {
		return sample{}, fmt.Errorf("no repeat number is valid in every scenario it names (%d scenarios)", len(ids))
	}
	slices.Sort(numbers)
	out := sample{unit: "round"}
	for _, n := range numbers {
		var sum float64
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, m := range byRepeat {
			sum += m[n]
			lo, hi = math.Min(lo, m[n]), math.Max(hi, m[n])
		}
		switch s.Aggregate {
		case Mean:
			out.values = append(out.values, sum/float64(len(byRepeat)))
		case Min:
			out.values = append(out.values, lo)
		case Max:
			out.values = append(out.values, hi)
		}
	}
	return out, nil
}

// sortedValues returns a map's values in the order of their repeat numbers.
func sortedValues(m map[int]float64) []float64 {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make([]float64, len(keys))
	for i, k := range keys {
		out[i] = m[k]
	}
	return out
}
