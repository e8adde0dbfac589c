package report

import (
	"math"
	"slices"
)

// statOf summarises values; NaN values are skipped.
func statOf(values []float64) Stat {
	var vs []float64
	for _, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return Stat{}
	}
	slices.Sort(vs)
	s := Stat{N: len(vs), Min: vs[0], Max: vs[len(vs)-1]}
	if len(vs)%2 == 1 {
		s.Median = vs[len(vs)/2]
	} else {
		s.Median = (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
	}
	return s
}

// ratioStat is a/b with the range of every pairing, for effects.
func ratioStat(a, b Stat) (ratio, spread float64) {
	if a.N == 0 || b.N == 0 || b.Median == 0 || b.Min <= 0 {
		return 0, 0
	}
	ratio = a.Median / b.Median
	lo, hi := a.Min/b.Max, a.Max/b.Min
	return ratio, (hi - lo) / 2 / ratio
}

// change is the relative change from a to b (-0.5 for halved); 0 when a is 0.
func change(a, b float64) float64 {
	if a == 0 {
		return 0
	}
	return (b - a) / a
}

func abs(x float64) float64 { return math.Abs(x) }
