package capacity

import (
	"testing"
	"time"

	"github.com/kbench/kbench/internal/metrics"
)

// TestAtLowerCPU adds up what the trials at the lower end cost: a 40 s trial that kept 1.5
// cores busy (60 s of CPU) and a 60 s one at 1.8 (108 s) are 168 s over 100 s, 1.68 cores,
// and over their 10,000,000 records 16.8 µs a record. A trial at another rate and one set
// aside at the lower end do not count; a lower end where one trial could not read the host
// has the load's share only.
func TestAtLowerCPU(t *testing.T) {
	h := metrics.NewHistogram()
	h.Record(10 * time.Millisecond)
	trial := func(rate float64, busy time.Duration, cores float64, records int64, disturbed bool) Trial {
		return Trial{Offered: rate, Records: Records{Acked: records}, Disturbed: disturbed, outcome: Outcome{Latency: h},
			CPU: CPUUse{HostBusy: busy, HostBusyCores: cores, HostCPUs: 2, HostRead: busy > 0, Load: busy / 4}}
	}
	s := &search{trials: []Trial{
		trial(100_000, 60*time.Second, 1.5, 4_000_000, false),
		trial(110_000, 80*time.Second, 2, 4_400_000, false),
		trial(100_000, 108*time.Second, 1.8, 6_000_000, false),
		trial(100_000, 100*time.Second, 2, 1_000_000, true),
	}}
	b := Bracket{SLO: SLO{99, 50 * time.Millisecond}, Lower: 100_000}
	s.atLower(&b)
	c := b.AtLowerCPU
	if b.AtLowerRecords != 10_000_000 || c.HostBusy != 168*time.Second || c.HostBusyCores != 1.68 || c.HostCPUs != 2 || !c.HostRead ||
		c.Load != 42*time.Second || PerRecord(c.HostBusy, b.AtLowerRecords) != 16800*time.Nanosecond {
		t.Errorf("at the lower end: %+v over %d records", c, b.AtLowerRecords)
	}

	s.trials = append(s.trials, trial(100_000, 0, 0, 1_000_000, false))
	b = Bracket{SLO: SLO{99, 50 * time.Millisecond}, Lower: 100_000}
	s.atLower(&b)
	if c := b.AtLowerCPU; c.HostRead || c.HostBusy != 0 || c.Load != 42*time.Second || b.AtLowerRecords != 11_000_000 {
		t.Errorf("with a trial that could not read the host: %+v over %d records", c, b.AtLowerRecords)
	}
}
