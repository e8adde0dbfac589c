package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestTrendTest(t *testing.T) {
	tests := []struct {
		name   string
		series [][]float64
		tau, p float64
	}{
		// 3 values rising: S = 3, one ordering in 3! = 6 has S = 3, one S = -3
		{"rising 3", [][]float64{{1, 2, 3}}, 1, 2.0 / 6},
		// 4 values rising: 1 of 24 orderings each way
		{"rising 4", [][]float64{{1, 2, 3, 4}}, 1, 2.0 / 24},
		// two series of 3, both rising: S = 6 needs both at +3: (1/6)^2 each way
		{"two rising", [][]float64{{1, 2, 3}, {5, 6, 7}}, 1, 2.0 / 36},
		// one up, one down: S = 0, every ordering is as extreme
		{"cancel", [][]float64{{1, 2, 3}, {7, 6, 5}}, 0, 1},
		// 1 3 2: pairs (1,3)+ (1,2)+ (3,2)-: S = 1; inversions of 3 items 0..3 with
		// counts 1,2,2,1, S = 3-2I = 3,1,-1,-3: |S| >= 1 always
		{"mixed", [][]float64{{1, 3, 2}}, 1.0 / 3, 1},
		{"too short", [][]float64{{1}, nil}, 0, 1},
	}
	for _, tt := range tests {
		tau, p := TrendTest(tt.series)
		if math.Abs(tau-tt.tau) > 1e-12 || math.Abs(p-tt.p) > 1e-12 {
			t.Errorf("%s: tau %v p %v, want %v %v", tt.name, tau, p, tt.tau, tt.p)
		}
	}
}

// The trend test's error rates by simulation: 2000 seeded studies of 6 scenarios x 8
// rounds with heavy-tailed noise (lognormal sigma 0.3, one value in twenty a 2-4x outlier)
// and no drift are flagged at p <= 0.05 in at most 0.05 of them plus three binomial
// standard errors; with a drift of 12% per round (1.8x over the run, a trend of the
// noise's own size) they are flagged in at least 90%. Smaller drifts under this much noise
// are mostly missed (4% per round: about 1 in 4): they are then part of the spread.
func TestTrendTestErrorRates(t *testing.T) {
	const studies = 2000
	rng := rand.New(rand.NewPCG(3, 3))
	study := func(drift float64) [][]float64 {
		series := make([][]float64, 6)
		for s := range series {
			for r := range 8 {
				x := math.Exp(0.3*rng.NormFloat64()) * (1 + drift*float64(r))
				if rng.IntN(20) == 0 {
					x *= 2 + 2*rng.Float64()
				}
				series[s] = append(series[s], x)
			}
		}
		return series
	}
	flagged := func(drift float64) float64 {
		n := 0
		for range studies {
			if _, p := TrendTest(study(drift)); p <= 0.05 {
				n++
			}
		}
		return float64(n) / studies
	}
	if rate, max := flagged(0), 0.05+3*math.Sqrt(0.05*0.95/studies); rate > max {
		t.Errorf("no drift flagged in %.4f of studies, want <= %.4f", rate, max)
	} else {
		t.Logf("no drift: flagged in %.4f", rate)
	}
	if rate := flagged(0.12); rate < 0.9 {
		t.Errorf("12%% per round flagged in %.4f of studies, want >= 0.9", rate)
	} else {
		t.Logf("12%% per round: flagged in %.4f", rate)
	}
}

func TestTheilSen(t *testing.T) {
	// slopes 1, 1, 1 and the outlier's -4.5, 1, 5.5... median of all six pairs
	// (0,1)=1 (0,2)=1 (0,3)=31/3 (1,2)=1 (1,3)=15 (2,3)=29: 1 and 31/3 around the middle
	if got, want := TheilSen([]float64{1, 2, 3, 32}), (1+31.0/3)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("TheilSen = %v, want %v", got, want)
	}
	if got := TheilSen([]float64{5, 7, 9}); got != 2 {
		t.Errorf("TheilSen = %v, want 2", got)
	}
}
