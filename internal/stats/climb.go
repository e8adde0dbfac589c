package stats

import "slices"

// Warming says whether a system whose throughput was measured again and again (rates, in
// order) is still warming up: one of its last patience measures climbed by more than by
// (0.10: 10%) on the best before it. With patience measures or fewer there is not enough to
// tell, and it says true: measure again. A cold JVM speeds up under load for a while, and a
// measure is noisy: patience 2 rides out one measure that read low (see the simulation in
// the test for how often each stops short).
func Warming(rates []float64, by float64, patience int) bool {
	if len(rates) <= patience {
		return true
	}
	for end := len(rates); end > len(rates)-patience; end-- {
		if rates[end-1] > (1+by)*slices.Max(rates[:end-1]) {
			return true
		}
	}
	return false
}
