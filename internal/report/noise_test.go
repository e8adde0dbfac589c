package report

import (
	"slices"
	"strings"
	"testing"
)

// The noise floor of the hand run, worked out from its broker cores by round (brokers
// 1+2): paced 0.50 0.53 0.59, behind 1.55 1.60 1.64, flatout 0.90 1.00 1.10, read 0.22
// 0.24 0.26, near 0.85 0.85.
func TestHandRunNoiseFloor(t *testing.T) {
	_, md := buildHand(t, readHandRun(t))
	i := strings.Index(md, "**Noise floor.**")
	if i < 0 {
		t.Fatal("no noise floor in the report")
	}
	got := mdTableAfter(t, md[i:], strings.SplitN(md[i:], "\n", 2)[0])
	// Spreads: paced 0.09/2/0.53 = 8.5%, behind 0.09/2/1.60 = 2.8%, flatout 0.2/2/1.0 =
	// 10%, read 0.04/2/0.24 = 8.3%, near 0: median 8.3%, widest flatout. Two scenarios as
	// noisy, 3 vs 3, are told apart only when every pair is won: the highest over the
	// lowest value, paced 1.18, behind 1.058, flatout 1.222, read 1.182; near (2 values)
	// none: the median of 5.8%, 18%, 18.2%, 22.2% and none is 18.2%.
	want := []string{"broker CPU", "5", "3", "±8.3%", "±10.0% (flatout)", "≥ 18%"}
	if len(got) != 4 || !slices.Equal(got[3], want) {
		t.Errorf("noise floor table:\n%q\nwant broker CPU row %q", got, want)
	}
}

func TestMedianWithInf(t *testing.T) {
	inf := 1.0 / zero()
	for _, tt := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 2, 3}, 2.5},
		{[]float64{inf, 1, 2}, 2},
		{[]float64{inf, inf, 1}, inf},
		{[]float64{inf, 1, 2, 3}, 2.5},
		{[]float64{inf, inf, 1, 2}, inf},
	} {
		if got := medianWithInf(tt.xs); got != tt.want {
			t.Errorf("medianWithInf(%v) = %v, want %v", tt.xs, got, tt.want)
		}
	}
}

func zero() float64 { return 0 }
