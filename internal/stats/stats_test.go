package stats

import (
	"math"
	"testing"
)

func TestQuantile(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		xs   []float64
		q    float64
		want float64
	}{
		// odd count: the middle value
		{[]float64{3, 1, 2}, 0.5, 2},
		// even count: h = (4-1)*0.5 = 1.5, x[1] + 0.5*(x[2]-x[1]) = 2 + 0.5 = 2.5
		{[]float64{4, 1, 3, 2}, 0.5, 2.5},
		// h = 3*0.25 = 0.75: 1 + 0.75*(2-1) = 1.75
		{[]float64{1, 2, 3, 4}, 0.25, 1.75},
		// h = 3*0.9 = 2.7: 3 + 0.7*(4-3) = 3.7
		{[]float64{1, 2, 3, 4}, 0.9, 3.7},
		{[]float64{1, 2, 3, 4}, 0, 1},
		{[]float64{1, 2, 3, 4}, 1, 4},
		{[]float64{5}, 0.99, 5},
		// NaN and infinities are left out: the median of {1, 3} is 2
		{[]float64{nan, 3, math.Inf(1), 1}, 0.5, 2},
	}
	for _, tt := range tests {
		if got := Quantile(tt.xs, tt.q); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("Quantile(%v, %v) = %v, want %v", tt.xs, tt.q, got, tt.want)
		}
	}
	for _, bad := range []struct {
		xs []float64
		q  float64
	}{{nil, 0.5}, {[]float64{nan}, 0.5}, {[]float64{1}, 1.5}, {[]float64{1}, -0.1}} {
		if got := Quantile(bad.xs, bad.q); !math.IsNaN(got) {
			t.Errorf("Quantile(%v, %v) = %v, want NaN", bad.xs, bad.q, got)
		}
	}
	if got := Median([]float64{10, 30, 20, 40}); got != 25 { // (20+30)/2
		t.Errorf("Median = %v, want 25", got)
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		xs     []float64
		want   Summary
		spread float64
	}{
		// spread: half the range (3-1)/2 = 1 over the median 2 = 0.5
		{[]float64{3, 1, 2, math.NaN()}, Summary{N: 3, Median: 2, Min: 1, Max: 3}, 0.5},
		// median (100+105)/2 = 102.5; spread (110-90)/2 = 10 over 102.5
		{[]float64{90, 110, 100, 105}, Summary{N: 4, Median: 102.5, Min: 90, Max: 110}, 10 / 102.5},
		{[]float64{7}, Summary{N: 1, Median: 7, Min: 7, Max: 7}, 0},
		{nil, Summary{}, 0},
	}
	for _, tt := range tests {
		got := Summarize(tt.xs)
		if got != tt.want {
			t.Errorf("Summarize(%v) = %+v, want %+v", tt.xs, got, tt.want)
		}
		if sp := got.Spread(); math.Abs(sp-tt.spread) > 1e-12 {
			t.Errorf("Summarize(%v).Spread() = %v, want %v", tt.xs, sp, tt.spread)
		}
	}
}
