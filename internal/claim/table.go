package claim

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Observed is one scenario's results as a [Table] holds them.
type Observed struct {
	// Params are the scenario's swept parameters, e.g. {"batch": "16KiB", "acks": "all"}.
	Params map[string]string
	// Values maps a canonical metric name to its value in each repeat, in repeat order.
	// Repeats that were marked invalid should be left out.
	Values map[string][]float64
}

// Table returns a Lookup over observed scenarios. A selector matching several scenarios
// yields, for repeat i, the mean of those scenarios' repeat i; when they have different
// repeat counts, only the repeats all of them have are used.
func Table(observed []Observed) Lookup {
	return func(metric string, params map[string]string) ([]float64, error) {
		sel := Side{Coef: 1, Metric: metric}
		for _, k := range slices.Sorted(maps.Keys(params)) {
			sel.Selector = append(sel.Selector, Param{Key: k, Value: params[k]})
		}
		var matched [][]float64
		for _, o := range observed {
			if !sel.Matches(o.Params) {
				continue
			}
			v := o.Values[metric]
			if len(v) == 0 {
				return nil, fmt.Errorf("no %s values for scenario %s", metric, paramString(o.Params))
			}
			matched = append(matched, v)
		}
		if len(matched) == 0 {
			return nil, fmt.Errorf("no scenario matches %s", sel)
		}
		n := len(matched[0])
		for _, m := range matched {
			n = min(n, len(m))
		}
		out := make([]float64, n)
		for i := range out {
			for _, m := range matched {
				out[i] += m[i]
			}
			out[i] /= float64(len(matched))
		}
		return out, nil
	}
}

func paramString(p map[string]string) string {
	parts := make([]string, 0, len(p))
	for _, k := range slices.Sorted(maps.Keys(p)) {
		parts = append(parts, k+"="+p[k])
	}
	return strings.Join(parts, ",")
}
