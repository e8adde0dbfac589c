package cli

import (
	"testing"
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

func TestLiveWindow(t *testing.T) {
	for _, tc := range []struct {
		interval   time.Duration
		live       bool
		wantTick   time.Duration
		wantPerWin int
	}{
		{5 * time.Second, true, time.Second, 5},
		{5 * time.Second, false, 5 * time.Second, 1},
		{1500 * time.Millisecond, true, 1500 * time.Millisecond, 1}, // not whole seconds
		{time.Second, true, time.Second, 1},
	} {
		cfg := load.ProducerConfig{TickInterval: tc.interval}
		w := liveWindow(&cfg, tc.live)
		if cfg.TickInterval != tc.wantTick || w.n != tc.wantPerWin {
			t.Errorf("%v live %v: ticks %v, %d per window; want %v, %d", tc.interval, tc.live, cfg.TickInterval, w.n, tc.wantTick, tc.wantPerWin)
		}
	}
}

// TestTickWindowJoinsTicks: three one-second ticks of 100, 200 and 300 records at 1, 2 and
// 3 ms make one window line's tick: by hand, 600 records over 3 s is 200 records/s, 6 MiB
// over 3 s is 2 MiB/s, the max 3 ms, and the warm-up state is the last tick's.
func TestTickWindowJoinsTicks(t *testing.T) {
	w := &tickWindow{n: 3}
	var out load.Tick
	var full bool
	for i, n := range []int64{100, 200, 300} {
		h := metrics.NewHistogram()
		for range n {
			h.Record(time.Duration(i+1) * time.Millisecond)
		}
		out, full = w.add(load.Tick{Elapsed: time.Duration(i+1) * time.Second, Interval: time.Second, Warmup: i == 0,
			Acked: n, Bytes: n * 1024 * 1024 / 100, TotalAcked: 100 * int64(i+1), DueHistogram: h, SendHistogram: h})
		if full != (i == 2) {
			t.Fatalf("tick %d: window complete %v", i+1, full)
		}
	}
	if out.Acked != 600 || out.Interval != 3*time.Second || out.RecordsPerSec != 200 || out.Warmup {
		t.Errorf("window %d records over %v, %v records/s, warm-up %v; want 600, 3s, 200, false", out.Acked, out.Interval, out.RecordsPerSec, out.Warmup)
	}
	// 3 ms at the histogram's precision: above 2048 µs a bucket holds two microseconds, and
	// the max is its highest, 3001 µs.
	if out.MiBPerSec != 2 || out.DueLatency.MaxUs != 3001 || out.DueHistogram.Count() != 600 {
		t.Errorf("window %v MiB/s, max %d µs, %d latencies; want 2, 3001, 600", out.MiBPerSec, out.DueLatency.MaxUs, out.DueHistogram.Count())
	}
	// The next window starts afresh.
	if _, full := w.add(load.Tick{Interval: time.Second, Acked: 1}); full {
		t.Error("a new window completed after one tick")
	}
}
