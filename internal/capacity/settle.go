package capacity

import (
	"context"
	"fmt"
	"time"
)

// Probe is what one settle probe measured.
type Probe struct {
	// P50 is its median acknowledgement latency, Elapsed the wall time it took, Acked the
	// records it wrote (to the search's topic: they are accounted for like a trial's).
	P50, Elapsed time.Duration
	Acked        int64
}

// ProbeFunc sends a short, light probe.
type ProbeFunc func(ctx context.Context) (Probe, error)

// Settler brings a cluster back to rest between trials with a measured check rather than a
// fixed sleep: a trial near or past capacity leaves debt behind (requests queued on the
// brokers, followers catching up, dirty pages being written back, a garbage collection
// due) that the next trial would pay, failing at a rate it sustains from rest. Probes run
// back to back until one's median latency is back near the idle baseline, or MaxWait ends.
// A Settler serves one search: it lowers its baseline when a probe shows a quieter rest.
type Settler struct {
	Probe ProbeFunc
	// Baseline is the idle cluster's probe median, measured before the first trial.
	Baseline time.Duration
	// MaxWait bounds the wait (default DefaultSettleWait); the trial then runs anyway, and
	// its Settle says the cluster was not at rest.
	MaxWait time.Duration
}

// DefaultSettleWait bounds a settle: long enough for the page cache's dirty data to be
// written back after a burst (the kernel starts at 30 s old, dirty_expire_centisecs) and
// for followers to catch up, short enough that a cluster busy with something else cannot
// stall the search for long.
const DefaultSettleWait = 30 * time.Second

// atRest says whether a probe median p50 is back near the idle baseline: within half as much
// again plus a millisecond (idle medians on one host are 1-3 ms, and vary by a millisecond
// between probes at rest).
func atRest(p50, baseline time.Duration) bool {
	return p50 <= baseline+baseline/2+time.Millisecond
}

// MeasureBaseline probes the idle cluster n times and keeps the lowest median (the first
// probe may still pay for connections and metadata); acked is what the probes wrote.
func MeasureBaseline(ctx context.Context, probe ProbeFunc, n int) (best time.Duration, acked int64, err error) {
	for i := range max(1, n) {
		p, err := probe(ctx)
		if err != nil {
			return 0, acked, fmt.Errorf("idle baseline probe: %w", err)
		}
		acked += p.Acked
		if i == 0 || p.P50 < best {
			best = p.P50
		}
	}
	return best, acked, nil
}

// Settle is a SettleFunc: probes until the cluster is at rest or MaxWait has passed.
func (s *Settler) Settle(ctx context.Context) (Settle, error) {
	wait := s.MaxWait
	if wait <= 0 {
		wait = DefaultSettleWait
	}
	var st Settle
	for st.Waited < wait {
		p, err := s.Probe(ctx)
		if err != nil {
			return st, fmt.Errorf("settle probe: %w", err)
		}
		p50 := p.P50
		st.Probes++
		st.Records += p.Acked
		st.Waited += max(p.Elapsed, time.Millisecond) // a probe that reports no time still counts
		st.ProbeP50 = p50
		if p50 < s.Baseline {
			// A cluster measured idle but cold (a fresh JVM, caches empty) was not at its
			// rest: the lowest probe seen is.
			s.Baseline = p50
		}
		st.Baseline = s.Baseline
		if atRest(p50, s.Baseline) {
			st.Settled = true
			return st, nil
		}
	}
	return st, nil
}
