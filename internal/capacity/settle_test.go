package capacity

import (
	"context"
	"testing"
	"time"
)

// probes returns a ProbeFunc that reports the given medians in turn (the last one again
// after), each probe taking a second.
func probes(ms ...float64) ProbeFunc {
	i := 0
	return func(context.Context) (Probe, error) {
		p := ms[min(i, len(ms)-1)]
		i++
		return Probe{P50: time.Duration(p * float64(time.Millisecond)), Elapsed: time.Second, Acked: 200}, nil
	}
}

func TestSettle(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name     string
		baseline time.Duration
		probes   ProbeFunc
		want     Settle
	}{
		// At rest within 1.5 x 2 ms + 1 ms = 4 ms: the third probe (3 ms).
		{"settles", 2 * ms, probes(10, 8, 3), Settle{Waited: 3 * time.Second, Probes: 3, Settled: true, ProbeP50: 3 * ms, Baseline: 2 * ms, Records: 600}},
		// Never back within 4 ms: the wait ends at its 5 s bound, not settled.
		{"busy", 2 * ms, probes(10), Settle{Waited: 5 * time.Second, Probes: 5, ProbeP50: 10 * ms, Baseline: 2 * ms, Records: 1000}},
		// A baseline measured cold (6 ms) falls to the quieter rest a probe shows (2 ms).
		{"cold baseline", 6 * ms, probes(2), Settle{Waited: time.Second, Probes: 1, Settled: true, ProbeP50: 2 * ms, Baseline: 2 * ms, Records: 200}},
	}
	for _, tt := range tests {
		s := &Settler{Probe: tt.probes, Baseline: tt.baseline, MaxWait: 5 * time.Second}
		got, err := s.Settle(context.Background())
		if err != nil || got != tt.want {
			t.Errorf("%s: %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
	// The baseline is the lowest of the idle probes.
	if b, acked, err := MeasureBaseline(context.Background(), probes(9, 4, 5), 3); err != nil || b != 4*ms || acked != 600 {
		t.Errorf("baseline %v (%d records), %v; want 4ms and 600", b, acked, err)
	}
}
