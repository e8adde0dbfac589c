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
		{Warmed{Took: 15 * time.Second, Rates: []float64{1300, 2505, 11923}, Climbing: true},
			"still warming when its 15s ended (its rate still climbing): 1,300, 2,505, 11,923 records/s in its 5 s slices; what is measured first meets a colder cluster"},
		{Warmed{Took: 10 * time.Second, Rates: []float64{40000, 52000}, JITCores: []float64{0.8125, 0.131}},
			"warm after 10s: 40,000, 52,000 records/s in its 5 s slices; the brokers' JIT compilers used 0.81, 0.13 cores in them"},
		{Warmed{Took: 10 * time.Second, Rates: []float64{5403, 5511}, JITCores: []float64{0.3, 0.25}, Compiling: true},
			"still warming when its 10s ended (the brokers' JIT compilers still busy): 5,403, 5,511 records/s in its 5 s slices; the brokers' JIT compilers used 0.30, 0.25 cores in them; what is measured first meets a colder cluster"},
		{Warmed{Took: 10 * time.Second, Rates: []float64{1000, 5000}, JITCores: []float64{0.3, 0.25}, Climbing: true, Compiling: true},
			"still warming when its 10s ended (its rate still climbing, the brokers' JIT compilers still busy): 1,000, 5,000 records/s in its 5 s slices; the brokers' JIT compilers used 0.30, 0.25 cores in them; what is measured first meets a colder cluster"},
	} {
		if got := tc.w.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.w, got, tc.want)
		}
	}
}

// The rule a warm-up states follows its bound: two parts from 30 s (each needs its 15 s), the
// climbing rule on one above 15 s, a fixed length otherwise.
func TestWarmRule(t *testing.T) {
	for _, tc := range []struct {
		atMost time.Duration
		want   string
	}{
		{time.Minute, "15s on a replicated topic, then 15s on an unreplicated one, each on while one of its last two 5 s slices beat every earlier one by more than 10% or the brokers' JIT compilers used more than 0.1 cores in the last, up to 1m0s in all"},
		{30 * time.Second, "15s on a replicated topic, then 15s on an unreplicated one, each on while one of its last two 5 s slices beat every earlier one by more than 10% or the brokers' JIT compilers used more than 0.1 cores in the last, up to 30s in all"},
		{20 * time.Second, "15s, and on while one of its last two 5 s slices beat every earlier one by more than 10% or the brokers' JIT compilers used more than 0.1 cores in the last, up to 20s"},
		{15 * time.Second, "15s"},
		{5 * time.Second, "5s"},
	} {
		if got := WarmRule(tc.atMost); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.atMost, got, tc.want)
		}
	}
}

// A warm-up still climbs when one of its last two slices beats every earlier one by more
// than 10%; rates recorded here.
func TestStillClimbing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rates []float64
		want  bool
	}{
		// Three brokers at 0.3 core each, a minute: 11,923 is 62.5% above the best before.
		{"quota'd brokers", []float64{1300, 2505, 2820, 3509, 4442, 5595, 5625, 6753, 7335, 10161, 11923, 7892}, true},
		// 59,577 is 64.9% above 36,124; 53,392 beats nothing: the last but one still climbs.
		{"climbing a slice before the end", []float64{17270, 28180, 36124, 59577, 53392}, true},
		// 55,100 is 9.7% above 50,222: not more than 10%.
		{"levelled", []float64{5406, 31000, 50222, 48000, 55100}, false},
		{"one slice cannot tell", []float64{812}, false},
		{"two slices cannot tell", []float64{812, 5000}, false},
	} {
		if got := stillClimbing(tc.rates); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The compilers are busy above a tenth of a core in the last slice, not in any earlier one.
func TestCompiling(t *testing.T) {
	for _, tc := range []struct {
		jit  []float64
		want bool
	}{
		{[]float64{1.71, 1.56, 0.17}, true},
		{[]float64{1.71, 0.36, 0.10}, false}, // at the threshold, not above it
		{[]float64{0.01}, false},
		{nil, false}, // not read: nothing to go on
	} {
		if got := compiling(tc.jit); got != tc.want {
			t.Errorf("%v: %v, want %v", tc.jit, got, tc.want)
		}
	}
}

// A part's bound leaves each later part its 15 s; the last has what remains.
func TestPartBound(t *testing.T) {
	for _, tc := range []struct {
		atMost, took time.Duration
		left         int
		want         time.Duration
	}{
		{time.Minute, 0, 1, 45 * time.Second},
		{time.Minute, 45 * time.Second, 0, 15 * time.Second},
		{time.Minute, 20 * time.Second, 0, 40 * time.Second},
		{5 * time.Minute, 0, 1, 4*time.Minute + 45*time.Second},
		{20 * time.Second, 0, 0, 20 * time.Second},
	} {
		if got := partBound(tc.atMost, tc.took, tc.left); got != tc.want {
			t.Errorf("partBound(%s, %s, %d) = %s, want %s", tc.atMost, tc.took, tc.left, got, tc.want)
		}
	}
}
