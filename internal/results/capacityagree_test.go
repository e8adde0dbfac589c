package results

import (
	"math"
	"slices"
	"testing"
)

// Agree's figures, computed by hand: the median of the lower ends found, the highest over
// the lowest less one, and within only when every search found one inside the precision.
func TestAgree(t *testing.T) {
	for _, tc := range []struct {
		name          string
		lowers        []float64
		median, apart float64
		within        bool
	}{
		// A bench run of three searches on 3 brokers, log dirs in memory.
		{"recorded, 34.5% apart", []float64{58186, 78233, 69148}, 69148, 20047.0 / 58186, false},
		{"within 5%", []float64{100, 104}, 102, 0.04, true},
		{"one found none", []float64{100, 0, 103}, 101.5, 0.03, false},
		{"none found", []float64{0, 0}, 0, 0, false},
		{"one search", []float64{61060}, 61060, 0, true},
		// -1: a search without brackets (it failed before its first trial).
		{"one without brackets", []float64{100, -1}, 100, 0, false},
	} {
		var searches []*Capacity
		want := slices.Clone(tc.lowers)
		for i, l := range tc.lowers {
			if l < 0 {
				searches, want[i] = append(searches, &Capacity{}), 0
				continue
			}
			searches = append(searches, &Capacity{Brackets: []CapacityBracket{{SLO: CapacitySLO{Percentile: 99, LimitMs: 50}, Lower: l}}})
		}
		got := Agree(searches, 0.05)
		if len(got) != 1 {
			t.Fatalf("%s: %d agreements, want 1", tc.name, len(got))
		}
		a := got[0]
		if !slices.Equal(a.Lowers, want) || a.Median != tc.median || math.Abs(a.Apart-tc.apart) > 1e-12 || a.WithinPrecision != tc.within {
			t.Errorf("%s: %+v, want lowers %v, median %v, apart %v, within %v", tc.name, a, want, tc.median, tc.apart, tc.within)
		}
	}
}

func TestAgreementText(t *testing.T) {
	slo := CapacitySLO{Percentile: 99, LimitMs: 50}
	for _, tc := range []struct {
		a    CapacityAgreement
		want string
	}{
		{CapacityAgreement{SLO: slo, Lowers: []float64{58186, 78233, 69148}, Median: 69148, Apart: 78233.0/58186 - 1},
			"3 searches at p99 <= 50 ms: lower ends 58,186, 78,233 and 69,148 records/s (median 69,148), 34.5% apart: more than the 5% precision, so on this cluster a search's answer moves that far from one run to the next"},
		{CapacityAgreement{SLO: slo, Lowers: []float64{100, 104}, Median: 102, Apart: 0.04, WithinPrecision: true},
			"2 searches at p99 <= 50 ms: lower ends 100 and 104 records/s (median 102), 4.0% apart: within the 5% precision"},
		{CapacityAgreement{SLO: slo, Lowers: []float64{100, 0, 103}, Median: 101.5, Apart: 0.03},
			"3 searches at p99 <= 50 ms: lower ends 100, none and 103 records/s (median 102), 3.0% apart: search 2 found no lower end"},
		{CapacityAgreement{SLO: slo, Lowers: []float64{0, 0}},
			"2 searches at p99 <= 50 ms: none found a lower end"},
		{CapacityAgreement{SLO: slo, Lowers: []float64{0, 90, 0}, Median: 90},
			"3 searches at p99 <= 50 ms: lower ends none, 90 and none records/s: searches 1 and 3 found no lower end"},
		{CapacityAgreement{SLO: CapacitySLO{Percentile: 99.9, LimitMs: 200}, Lowers: []float64{100, 101}, Median: 100.5, Apart: 0.01, WithinPrecision: true},
			"2 searches at p999 <= 200 ms: lower ends 100 and 101 records/s (median 101), 1.0% apart: within the 5% precision"},
	} {
		if got := tc.a.Text(0.05); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
