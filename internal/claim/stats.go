package claim

import (
	"fmt"
	"math"
	"slices"
)

// Stats summarises one side's values, one per repeat, after the side's coefficient has
// been applied.
type Stats struct {
	N                int
	Median, Min, Max float64
}

func summarize(samples []float64) (Stats, error) {
	if len(samples) == 0 {
		return Stats{}, fmt.Errorf("no samples")
	}
	s := slices.Clone(samples)
	for _, v := range s {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Stats{}, fmt.Errorf("sample %v is not a finite number", v)
		}
	}
	slices.Sort(s)
	st := Stats{N: len(s), Min: s[0], Max: s[len(s)-1]}
	if len(s)%2 == 1 {
		st.Median = s[len(s)/2]
	} else {
		st.Median = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return st, nil
}

func (s Stats) scale(k float64) Stats {
	out := Stats{N: s.N, Median: s.Median * k, Min: s.Min * k, Max: s.Max * k}
	if k < 0 {
		out.Min, out.Max = out.Max, out.Min
	}
	return out
}
