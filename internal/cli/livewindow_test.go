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

// TestConsumeWindowJoinsTicks: five one-second ticks of 100 to 500 records (1 MiB each
// 100), 200 ms of rebalance in the second, make one 5 s line: by hand, 1,500 records over
// 5 s is 300 records/s, 15 MiB over 5 s 3 MiB/s, 200 ms of rebalance, the totals the last
// tick's.
func TestConsumeWindowJoinsTicks(t *testing.T) {
	cfg := load.ConsumerConfig{TickInterval: 5 * time.Second}
	w := liveConsumeWindow(&cfg, true)
	if cfg.TickInterval != time.Second || w.n != 5 {
		t.Fatalf("ticks %v, %d per window; want 1s, 5", cfg.TickInterval, w.n)
	}
	var out load.ConsumeTick
	var full bool
	var total int64
	for i := range int64(5) {
		n := 100 * (i + 1)
		total += n
		tk := load.ConsumeTick{Elapsed: time.Duration(i+1) * time.Second, Interval: time.Second,
			Records: n, Bytes: n << 20 / 100, TotalRecords: total, TotalBytes: total << 20 / 100}
		if i == 1 {
			tk.Rebalance = 200 * time.Millisecond
		}
		out, full = w.add(tk)
		if full != (i == 4) {
			t.Fatalf("tick %d: window complete %v", i+1, full)
		}
	}
	if out.Records != 1500 || out.Interval != 5*time.Second || out.RecordsPerSec != 300 || out.MiBPerSec != 3 ||
		out.Rebalance != 200*time.Millisecond || out.TotalRecords != 1500 || out.Elapsed != 5*time.Second {
		t.Errorf("window %+v; want 1500 records over 5s, 300 records/s, 3 MiB/s, 200ms rebalance, total 1500 at 5s", out)
	}
}
