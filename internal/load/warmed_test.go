package load

import (
	"testing"
	"time"
)

func TestWarmedString(t *testing.T) {
	for _, tc := range []struct {
		w    Warmed
		want string
	}{
		{Warmed{Took: 45 * time.Second, Rates: []float64{5624.4, 9810, 54325.6}},
			"warm after 45s: 5,624, 9,810, 54,326 records/s in its 5 s slices"},
		{Warmed{Took: 15 * time.Second, Rates: []float64{812}}, "warm after 15s: 812 records/s in its 5 s slices"},
	} {
		if got := tc.w.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.w, got, tc.want)
		}
	}
}

// The rule a warm-up states follows its bound: the climbing rule above 15 s, a fixed length
// otherwise.
func TestWarmRule(t *testing.T) {
	for _, tc := range []struct {
		atMost time.Duration
		want   string
	}{
		{time.Minute, "15s, and on while one of its last two 5 s slices beat every earlier one by more than 10%, up to 1m0s"},
		{15 * time.Second, "15s"},
		{5 * time.Second, "5s"},
	} {
		if got := WarmRule(tc.atMost); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.atMost, got, tc.want)
		}
	}
}
