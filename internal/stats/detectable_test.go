package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDetectableRatio(t *testing.T) {
	tests := []struct {
		name  string
		x, y  []float64
		alpha float64
		want  float64 // 0: not detectable
	}{
		// No noise: any shift separates the sides.
		{"no noise", []float64{100, 100, 100}, []float64{50, 50, 50}, 0.05, 1},
		// 3 vs 3 needs all 9 pairs (P(U >= 9) = 1/20): y's lowest (90 r) above x's highest
		// (110): r = 110/90 = 1.2222.
		{"3 vs 3, +-10%", []float64{90, 100, 110}, []float64{900, 1000, 1100}, 0.05, 110.0 / 90},
		// 2 vs 2 cannot reach 0.05 (best p 1/6).
		{"2 vs 2", []float64{1, 2}, []float64{3, 4}, 0.05, 0},
		// 5 vs 5 needs 21 of 25 pairs (12/252 = 0.048; 20 would be 19/252 = 0.075). With the
		// same deviations d = ln(0.8, 0.9, 1, 1.1, 1.25) on both sides, the 21st smallest of
		// the 25 differences d_i - d_j is the 5th largest: the largest are ln(1.25/0.8),
		// ln(1.25/0.9), ln(1.1/0.8), then ln(1.25/1) and ln(1/0.8), both ln 1.25.
		{"5 vs 5", []float64{80, 90, 100, 110, 125}, []float64{8, 9, 10, 11, 12.5}, 0.05, 1.25},
	}
	for _, tt := range tests {
		r, ok := DetectableRatio(tt.x, tt.y, tt.alpha)
		if tt.want == 0 {
			if ok {
				t.Errorf("%s: %v, want not detectable", tt.name, r)
			}
			continue
		}
		if !ok || math.Abs(r-tt.want) > 1e-9 {
			t.Errorf("%s: %v (ok %v), want %v", tt.name, r, ok, tt.want)
		}
	}
}

// TestDetectableRatioIsTheRejectionEdge checks the floor against the test itself, by an
// independent path: y shifted just above the floor is rejected by the rank test at alpha,
// just below it is not.
func TestDetectableRatioIsTheRejectionEdge(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 200 {
		n, m := 3+rng.IntN(6), 3+rng.IntN(6)
		x, y := make([]float64, n), make([]float64, m)
		for i := range x {
			x[i] = 1000 * math.Exp(0.2*rng.NormFloat64())
		}
		for i := range y {
			y[i] = 1000 * math.Exp(0.2*rng.NormFloat64())
		}
		r, ok := DetectableRatio(x, y, 0.05)
		if !ok {
			t.Fatalf("%d vs %d not detectable", n, m)
		}
		// Shifted copies with the same deviations, y's median r times x's.
		mx, my := Median(x), Median(y)
		shift := func(f float64) []float64 {
			out := make([]float64, m)
			for i, v := range y {
				out[i] = v / my * mx * f
			}
			return out
		}
		if p := MannWhitneyTail(m, n, Wins(shift(r*1.000001), x, false)); p > 0.05*(1+1e-9) {
			t.Errorf("%d vs %d: shifted by %v, p = %v, want rejected", n, m, r*1.000001, p)
		}
		if r > 1.0001 {
			if p := MannWhitneyTail(m, n, Wins(shift(r*0.9999), x, false)); p <= 0.05 {
				t.Errorf("%d vs %d: shifted by %v (under the floor %v), p = %v, want not rejected", n, m, r*0.9999, r, p)
			}
		}
	}
}

func TestLookAlpha(t *testing.T) {
	if got := LookAlpha(0.05, 8); got != 0.00625 {
		t.Errorf("LookAlpha(0.05, 8) = %v, want 0.00625", got)
	}
	if got := LookAlpha(0.05, 0); got != 0.05 {
		t.Errorf("LookAlpha(0.05, 0) = %v, want 0.05", got)
	}
}

func TestDecidingLooks(t *testing.T) {
	tests := []struct {
		lo, hi, want int
	}{
		// at 0.05/6 = 0.0083, 3 vs 3 (1/20) and 4 vs 4 (1/70 = 0.014) cannot reject, 5 vs 5
		// (1/252 = 0.004) to 10 can: 6 looks for 6 shares; at 0.05/5 = 0.01 the same 6
		// looks can, one more than the shares
		{3, 10, 6},
		// at 0.025, 4 (0.014) and 5 can: 2 of 2; at 0.05, 3 (0.05) too: 3 > 1
		{3, 5, 2},
		// at 0.01 all 6 looks from 5 to 10 can: one share each
		{5, 10, 6},
		{3, 3, 1},
		// 1 vs 1 (1/2) and 2 vs 2 (1/6) never reject at 0.05: none can, one share is enough
		{1, 2, 1},
	}
	for _, tt := range tests {
		if got := DecidingLooks(0.05, tt.lo, tt.hi); got != tt.want {
			t.Errorf("DecidingLooks(0.05, %d, %d) = %d, want %d", tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestDetectableSign(t *testing.T) {
	// 5 values need all 5 on one side (1/32; 4 of 5 is 6/32): over their median 1.0 they
	// are 0.8 0.9 1 1.1 1.2, so the median must be 1/0.8 = 1.25 times c for "above", and
	// 1.2 times under it for "below"
	up, down, ok := DetectableSign([]float64{110, 80, 100, 120, 90}, 0.05)
	if !ok || math.Abs(up-1.25) > 1e-9 || math.Abs(down-1.2) > 1e-9 {
		t.Errorf("DetectableSign = %v %v %v, want 1.25 1.2 true", up, down, ok)
	}
	if _, _, ok := DetectableSign([]float64{1, 2, 3, 4}, 0.05); ok {
		t.Error("4 values cannot reach 0.05 (1/16), want ok false")
	}
}

func TestMinSigns(t *testing.T) {
	// P(Bin(10, 1/2) >= 9) = 11/1024 = 0.011, >= 8: 56/1024 = 0.055
	for _, tt := range []struct{ n, want int }{{4, 0}, {5, 5}, {10, 9}} {
		if got := MinSigns(tt.n, 0.05); got != tt.want {
			t.Errorf("MinSigns(%d) = %d, want %d", tt.n, got, tt.want)
		}
	}
}
