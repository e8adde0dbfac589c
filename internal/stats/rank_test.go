package stats

import (
	"math"
	"testing"
)

func TestMannWhitneyTail(t *testing.T) {
	tests := []struct {
		n, m, k int
		want    float64
	}{
		// one ordering in C(6,3) = 20 puts all three x above all three y
		{3, 3, 9, 1.0 / 20},
		// U = 9 or 8: one ordering each (the lowest x swaps with the highest y)
		{3, 3, 8, 2.0 / 20},
		// U counts for 3 vs 3 are 1,1,2,3,3,3,3,2,1,1 for u = 0..9: P(U >= 7) = 4/20
		{3, 3, 7, 4.0 / 20},
		{3, 3, 0, 1},
		{3, 3, 10, 0},
		{1, 1, 1, 1.0 / 2},
		{2, 2, 4, 1.0 / 6},   // 1 / C(4,2)
		{2, 5, 10, 1.0 / 21}, // 1 / C(7,2)
		{4, 4, 16, 1.0 / 70}, // 1 / C(8,4)
		// partitions of 0, 1, 2 and 3 into at most 4 parts of at most 4: 1+1+2+3 = 7
		{4, 4, 13, 7.0 / 70},
		{5, 5, 25, 1.0 / 252}, // 1 / C(10,5)
	}
	for _, tt := range tests {
		if got := MannWhitneyTail(tt.n, tt.m, tt.k); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("MannWhitneyTail(%d, %d, %d) = %v, want %v", tt.n, tt.m, tt.k, got, tt.want)
		}
	}
}

func TestMinWins(t *testing.T) {
	tests := []struct {
		n, m int
		want int
	}{
		{3, 3, 9},   // P(U >= 9) = 0.05
		{2, 2, 0},   // the best p is 1/6
		{1, 19, 19}, // 1/C(20,1) = 0.05, reached only when x beats all 19
		{2, 5, 10},  // 1/21 = 0.048
		// P(U >= 15) = 2/70 = 0.029, P(U >= 14) = 4/70 = 0.057
		{4, 4, 15},
	}
	for _, tt := range tests {
		if got := MinWins(tt.n, tt.m, 0.05); got != tt.want {
			t.Errorf("MinWins(%d, %d, 0.05) = %d, want %d", tt.n, tt.m, got, tt.want)
		}
	}
}

func TestSignTail(t *testing.T) {
	tests := []struct {
		n, k int
		want float64
	}{
		{5, 5, 1.0 / 32},
		{4, 4, 1.0 / 16},
		{6, 5, 7.0 / 64}, // C(6,5)+C(6,6) = 7
		{3, 0, 1},
		{3, 4, 0},
	}
	for _, tt := range tests {
		if got := SignTail(tt.n, tt.k); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("SignTail(%d, %d) = %v, want %v", tt.n, tt.k, got, tt.want)
		}
	}
}

func TestWins(t *testing.T) {
	x, y := []float64{1, 2, 3}, []float64{2, 2}
	if got := Wins(x, y, false); got != 2 { // 3>2 twice
		t.Errorf("Wins(>) = %d, want 2", got)
	}
	if got := Wins(x, y, true); got != 4 { // 2>=2 twice, 3>=2 twice
		t.Errorf("Wins(>=) = %d, want 4", got)
	}
}

func TestRatioInterval(t *testing.T) {
	// ratios: 10/5=2, 10/6=1.667, 10/4=2.5, 12/5=2.4, 12/6=2, 12/4=3, 14/5=2.8, 14/6=2.333,
	// 14/4=3.5; with 3 vs 3, k = 9, so the bounds are the smallest and largest ratio.
	lo, hi, ok := RatioInterval([]float64{10, 12, 14}, []float64{5, 6, 4}, 0.05)
	if !ok || math.Abs(lo-10.0/6) > 1e-12 || hi != 3.5 {
		t.Errorf("RatioInterval 3 vs 3 = %v, %v, %v; want 1.667, 3.5, true", lo, hi, ok)
	}
	// 4 vs 4: k = 15 of 16 ratios, so the bounds are the 2nd smallest and 2nd largest.
	// x/y with y = 1: the ratios are x[i]/y[j] for x = 1..4 and y = {1, 1, 1, 1}: each x
	// four times; sorted 1,1,1,1,2,...,4,4,4,4: 2nd smallest 1, 2nd largest 4.
	lo, hi, ok = RatioInterval([]float64{1, 2, 3, 4}, []float64{1, 1, 1, 1}, 0.05)
	if !ok || lo != 1 || hi != 4 {
		t.Errorf("RatioInterval 4 vs 4 = %v, %v, %v; want 1, 4, true", lo, hi, ok)
	}
	if _, _, ok := RatioInterval([]float64{1, 2}, []float64{1, 2}, 0.05); ok {
		t.Error("RatioInterval 2 vs 2 at 0.05 should be undefined (best p is 1/6)")
	}
	if _, _, ok := RatioInterval([]float64{1, 2, 3}, []float64{0, 2, 3}, 0.05); ok {
		t.Error("RatioInterval with a zero should be undefined")
	}
}
