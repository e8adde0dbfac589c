package capacity

import (
	"testing"
	"time"

	"github.com/kbench/kbench/internal/metrics"
)

// TestAtLowerCPU adds up what the trials at the lower end used: a 40 s trial that kept 1.5
// cores busy (60 s of CPU) and a 60 s one at 1.8 (108 s) are 168 s over 100 s, 1.68 cores;
// the load's 15 and 22.5 s, 0.375; a task waiting for a CPU a quarter of each, 25 s, 25%.
// A trial at another rate and one set aside at the lower end do not count; a lower end where
// one trial could not read the host has the load's share only.
func TestAtLowerCPU(t *testing.T) {
	h := metrics.NewHistogram()
	h.Record(10 * time.Millisecond)
	trial := func(rate float64, wall, busy time.Duration, disturbed bool) Trial {
		return Trial{Offered: rate, Disturbed: disturbed, outcome: Outcome{Latency: h},
			CPU: CPUUse{Wall: wall, HostBusy: busy, HostCPUs: 2, HostRead: busy > 0, Load: wall * 15 / 40,
				HostWaited: wall / 4, HostWaitedRead: busy > 0}}
	}
	s := &search{trials: []Trial{
		trial(100_000, 40*time.Second, 60*time.Second, false),
		trial(110_000, 40*time.Second, 80*time.Second, false),
		trial(100_000, 60*time.Second, 108*time.Second, false),
		trial(100_000, 40*time.Second, 80*time.Second, true),
	}}
	b := Bracket{SLO: SLO{99, 50 * time.Millisecond}, Lower: 100_000}
	s.atLower(&b)
	c := b.AtLowerCPU
	if c.Wall != 100*time.Second || c.HostBusy != 168*time.Second || c.HostBusyCores() != 1.68 || c.HostCPUs != 2 || !c.HostRead ||
		c.Load != 37500*time.Millisecond || c.LoadCores() != 0.375 || !c.HostWaitedRead || c.HostWaited != 25*time.Second || c.HostWaitedPct() != 25 {
		t.Errorf("at the lower end: %+v", c)
	}

	s.trials = append(s.trials, trial(100_000, 40*time.Second, 0, false))
	b = Bracket{SLO: SLO{99, 50 * time.Millisecond}, Lower: 100_000}
	s.atLower(&b)
	if c := b.AtLowerCPU; c.HostRead || c.HostWaitedRead || c.HostWaitedPct() != 0 || c.HostBusy != 0 || c.HostBusyCores() != 0 || c.Load != 52500*time.Millisecond || c.LoadCores() != 0.375 {
		t.Errorf("with a trial that could not read the host: %+v", c)
	}
}
