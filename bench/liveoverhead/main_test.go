package main

import "testing"

func TestOverheadAndMedian(t *testing.T) {
	// 2.02 CPU-s per million on against 2.00 off is 1% more.
	if got := overhead(2.00, 2.02); got < 0.999 || got > 1.001 {
		t.Errorf("overhead(2.00, 2.02) = %v, want 1", got)
	}
	for _, tc := range []struct {
		v    []float64
		want float64
	}{{[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 3, 2}, 2.5}} {
		if got := median(tc.v); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.v, got, tc.want)
		}
	}
}
