package runner

import (
	"testing"
	"time"
)

// The rule a run's note states follows the study's jit_warmup: the climbing rule under a
// bound above 15 s, a fixed length otherwise.
func TestWarmupRule(t *testing.T) {
	for _, tc := range []struct {
		atMost time.Duration
		want   string
	}{
		{time.Minute, "15s, and on while one of its last two 5 s slices beat every earlier one by more than 10%, up to 1m0s"},
		{15 * time.Second, "15s"},
		{5 * time.Second, "5s"},
	} {
		if got := warmupRule(tc.atMost); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.atMost, got, tc.want)
		}
	}
}
