package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/capacity"
)

// TestCapTrials holds a search to --max-rate 1000: the unthrottled trial runs at 1000, a
// trial at 800 runs as is, one at 1500 is refused; without a cap nothing changes.
func TestCapTrials(t *testing.T) {
	var got []float64
	run := func(_ context.Context, rate float64, _ time.Duration) (capacity.Outcome, error) {
		got = append(got, rate)
		return capacity.Outcome{Achieved: 1005}, nil // 0.5% over 1000: measurement noise
	}
	capped := capTrials(run, 1000)
	for _, rate := range []float64{0, 800} {
		o, err := capped(context.Background(), rate, time.Second)
		if err != nil {
			t.Errorf("rate %v: %v", rate, err)
		}
		// The bounding trial's achieved rate is held to the cap, so the search's first paced
		// trial (at that rate) is not refused; a paced trial's is kept as measured.
		if want := map[float64]float64{0: 1000, 800: 1005}[rate]; o.Achieved != want {
			t.Errorf("rate %v: achieved %v, want %v", rate, o.Achieved, want)
		}
	}
	if _, err := capped(context.Background(), 1500, time.Second); err == nil || !strings.Contains(err.Error(), "above --max-rate 1000") {
		t.Errorf("rate 1500: error %v, want one naming --max-rate", err)
	}
	if _, err := capTrials(run, 0)(context.Background(), 0, time.Second); err != nil {
		t.Fatal(err)
	}
	if want := []float64{1000, 800, 0}; len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("trials ran at %v, want %v", got, want)
	}
}
