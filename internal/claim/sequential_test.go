package claim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/kbench/kbench/internal/stats"
)

// sequentialStudy runs one simulated study with repeats {min: 3, max: 10} as kbench run
// does: after each round from the third, the claim is tested at Alpha split over the looks
// that can decide (DecidingLooks: 6, the looks from 5 to 10 repeats, at 0.0083); the study
// stops at the first look that confirms or refutes it. draw gives one repeat's value
// of side a (0) or b (1). It returns the deciding outcome (Inconclusive after round 10)
// and the rounds run.
func sequentialStudy(c Claim, draw func(side int) float64) (Outcome, int) {
	const lo, hi = 3, 10
	alpha := stats.LookAlpha(Alpha, stats.DecidingLooks(Alpha, lo, hi))
	a, b := scenario("x=a", RecordsPerSec), scenario("x=b", RecordsPerSec)
	for n := 1; n <= hi; n++ {
		a.Repeats = append(a.Repeats, Repeat{N: n, Values: map[string]float64{RecordsPerSec: draw(0)}})
		b.Repeats = append(b.Repeats, Repeat{N: n, Values: map[string]float64{RecordsPerSec: draw(1)}})
		if n < lo {
			continue
		}
		if v := c.EvaluateAt([]Observed{a, b}, alpha); v.Outcome == Confirmed || v.Outcome == Refuted {
			return v.Outcome, n
		}
	}
	return Inconclusive, hi
}

// noisy is a repeat's figure on this host's noise: lognormal of sigma 0.3 (the quick
// study's spreads of +/-54% and more), with one repeat in ten an outlier at half or twice.
func noisy(rng *rand.Rand, median float64) float64 {
	v := median * math.Exp(0.3*rng.NormFloat64())
	if rng.Float64() < 0.1 {
		if rng.Float64() < 0.5 {
			v /= 2
		} else {
			v *= 2
		}
	}
	return v
}

// TestSequentialFalsePositives: 4,000 seeded A/A studies (both sides the same
// distribution) with repeats {min: 3, max: 10}: the claim "a > b" is confirmed in at most
// 5% (Alpha), whatever the looks; refuted likewise. Printed: the observed rates; without the
// split (every look at 0.05) the same studies confirm far more often, shown beside.
func TestSequentialFalsePositives(t *testing.T) {
	c := MustParse("throughput(x=a) > throughput(x=b)")
	const studies = 4000
	var confirmed, refuted, naive int
	for seed := range uint64(studies) {
		rng := rand.New(rand.NewPCG(seed, 11))
		o, _ := sequentialStudy(c, func(int) float64 { return noisy(rng, 50000) })
		switch o {
		case Confirmed:
			confirmed++
		case Refuted:
			refuted++
		}
		// The same study looked at naively: repeat until p <= 0.05.
		rng = rand.New(rand.NewPCG(seed, 11))
		a, b := scenario("x=a", RecordsPerSec), scenario("x=b", RecordsPerSec)
		for n := 1; n <= 10; n++ {
			a.Repeats = append(a.Repeats, Repeat{N: n, Values: map[string]float64{RecordsPerSec: noisy(rng, 50000)}})
			b.Repeats = append(b.Repeats, Repeat{N: n, Values: map[string]float64{RecordsPerSec: noisy(rng, 50000)}})
			if n >= 3 && c.EvaluateAt([]Observed{a, b}, Alpha).Outcome == Confirmed {
				naive++
				break
			}
		}
	}
	t.Logf("A/A: confirmed %d, refuted %d of %d (%.2f%%, %.2f%%); repeat-until-p<=0.05 would confirm %d (%.1f%%)",
		confirmed, refuted, studies, 100*float64(confirmed)/studies, 100*float64(refuted)/studies, naive, 100*float64(naive)/studies)
	if confirmed > studies*5/100 || refuted > studies*5/100 {
		t.Errorf("A/A studies confirmed %d and refuted %d of %d, want at most 5%% each", confirmed, refuted, studies)
	}
}

// TestSequentialDecidesALargeEffect: with b three times a (batch.size 64 KiB against 1 KiB,
// unthrottled, is larger), "b > a" is confirmed before the 10th round in at least 95% of
// 1,000 seeded studies; a 1.5x effect, within this noise, in at least 35% (the rest run all
// 10 rounds and end with their noise floor stated).
func TestSequentialDecidesALargeEffect(t *testing.T) {
	for _, tt := range []struct {
		ratio   float64
		atLeast int // of 1000, confirmed before round 10
	}{{3, 950}, {1.5, 350}} {
		c := MustParse("throughput(x=b) > throughput(x=a)")
		early, rounds := 0, 0
		for seed := range uint64(1000) {
			rng := rand.New(rand.NewPCG(seed, 13))
			o, n := sequentialStudy(c, func(side int) float64 {
				return noisy(rng, 20000*(1+(tt.ratio-1)*float64(side)))
			})
			if o == Confirmed && n < 10 {
				early++
			}
			rounds += n
		}
		t.Logf("b = %vx a: confirmed before round 10 in %d of 1000, %.1f rounds on average", tt.ratio, early, float64(rounds)/1000)
		if early < tt.atLeast {
			t.Errorf("b = %vx a: confirmed early in %d of 1000, want at least %d", tt.ratio, early, tt.atLeast)
		}
	}
}
