package runner

import (
	"math"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
)

// TestCatchUpTimesTheDrain feeds a catch-up's tracker the ticks of a made-up run and checks
// its figures against ones worked out by hand: producers at 1,000 records/s of 1,024 bytes,
// ticking each second, the first two in warm-up; a 5,120,000-byte backlog is reached at the
// 5 s tick; the consumers read 800 records a 200 ms tick (4,000/s) and their records are
// fresh from the ninth tick, 1.8 s into the drain.
func TestCatchUpTimesTheDrain(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return base.Add(time.Duration(s * float64(time.Second))) }
	hist := func(ms int64) *metrics.Histogram {
		h := metrics.NewHistogram()
		for range 1000 {
			h.RecordMicros(ms * 1000)
		}
		return h
	}
	produce := func(c *catchUp, k int) {
		due := int64(2) // ms before the drain, 20 during
		if k > 5 {
			due = 20
		}
		c.produceTick(load.Tick{Warmup: k <= 2, TotalAcked: int64(1000 * k), TotalBytes: int64(1024 * 1000 * k), DueHistogram: hist(due)}, at(float64(k)))
	}
	consume := func(c *catchUp, j int, fresh bool) {
		e2e := metrics.NewHistogram()
		age := int64(5_000_000) // µs: 5 s old during the drain
		if fresh {
			age = 10_000
		}
		e2e.RecordMicros(age)
		c.consumeTick(load.ConsumeTick{TotalRecords: int64(800 * j), TotalBytes: int64(800 * j * 1024), EndToEnd: e2e.Summary()}, at(5+0.2*float64(j)))
	}

	c := newCatchUp(5_120_000)
	for k := 1; k <= 5; k++ {
		produce(c, k)
	}
	select {
	case <-c.started:
	default:
		t.Fatal("the consumers were not started at the 5 s tick")
	}
	for j := 1; j <= 8; j++ {
		consume(c, j, false)
	}
	produce(c, 6)
	consume(c, 9, true)  // 6.8 s: caught up
	consume(c, 10, true) // after the end: ignored
	produce(c, 7)
	produce(c, 8)
	c.producersDone(at(8))
	r := c.result(at(2)) // the window began after the warm-up

	near := func(name string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if !r.CaughtUp || r.Note != "" {
		t.Fatalf("not caught up: %+v", r)
	}
	near("start", r.Start, 3)
	near("end", r.End, 4.8)
	near("drain", r.DrainSeconds, 1.8)
	near("backlog records", float64(r.BacklogRecords), 5000)
	near("backlog bytes", float64(r.BacklogBytes), 5_120_000)
	near("consumed", float64(r.ConsumedRecords), 7200)
	// Acknowledged by 6.8 s, between the 6 s (6,000) and 7 s (7,000) ticks: 6,800.
	near("produced", float64(r.ProducedRecords), 1800)
	near("consume rate", r.ConsumeRecordsPerSec, 4000)
	near("consume MiB/s", r.ConsumeMiBPerSec, 4000*1024.0/(1<<20))
	near("produce rate", r.ProduceRecordsPerSec, 1000)
	// Before: the 3, 4 and 5 s ticks at 2 ms; during: the 6 s tick at 20 ms (the 7 s tick
	// ended after the drain).
	if r.Before.Count != 3000 || math.Abs(r.Before.P99Ms-2) > 0.01 {
		t.Errorf("before: %d records, p99 %.3f ms; want 3000 at 2 ms", r.Before.Count, r.Before.P99Ms)
	}
	if r.During.Count != 1000 || math.Abs(r.During.P99Ms-20) > 0.05 {
		t.Errorf("during: %d records, p99 %.3f ms; want 1000 at 20 ms", r.During.Count, r.During.P99Ms)
	}

	t.Run("producers stop during the drain", func(t *testing.T) {
		c := newCatchUp(5_120_000)
		for k := 1; k <= 6; k++ {
			produce(c, k)
		}
		consume(c, 1, false)
		c.producersDone(at(6.5))
		consume(c, 9, true) // fresh only because nothing new came
		r := c.result(at(2))
		if r.CaughtUp || r.Note != "the consumers had not caught up when the producers stopped, 1.5 s into the drain: lengthen producers.duration" {
			t.Errorf("caught up %v, note %q", r.CaughtUp, r.Note)
		}
	})
	t.Run("producers stop before the backlog", func(t *testing.T) {
		c := newCatchUp(1 << 30)
		for k := 1; k <= 4; k++ {
			produce(c, k)
		}
		c.producersDone(at(4))
		r := c.result(at(2))
		if r.CaughtUp || r.Note != "the producers stopped before they had written the 1GiB backlog (4096000 bytes acknowledged)" {
			t.Errorf("caught up %v, note %q", r.CaughtUp, r.Note)
		}
	})
}

// TestFillConsumerRole records a catch-up that never caught up as an invalid repeat's
// reason, and a share run's figures beside the consumer group's view of it.
func TestFillConsumerRole(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := newCatchUp(1 << 20)
	c.produceTick(load.Tick{TotalAcked: 2000, TotalBytes: 2 << 20}, base.Add(time.Second))
	c.producersDone(base.Add(3 * time.Second))
	m := &measurement{window: &window{start: base}, catchUp: c,
		share: &load.ShareResult{Group: "g", Consumers: 6, Delivered: 1010, Distinct: 1000, Redelivered: 10, Released: 10}}
	rep := &results.Repeat{Latency: map[string][]results.Bucket{}}
	reasons := m.fillConsumerRole(rep, study.Scenario{Consumers: study.Consumers{Share: true, Release: 0.01}}, 0)
	if len(reasons) != 1 || reasons[0] != "catch-up: the consumers had not caught up when the producers stopped, 2.0 s into the drain: lengthen producers.duration" {
		t.Errorf("reasons %q", reasons)
	}
	if rep.CatchUp == nil || rep.CatchUp.Start != 1 || rep.CatchUp.CaughtUp {
		t.Errorf("catch-up %+v", rep.CatchUp)
	}
	if s := rep.Share; s == nil || s.Release != 0.01 || s.RedeliveredShare() != 10.0/1010 {
		t.Errorf("share %+v", s)
	}
	if got := shareAsConsume(m.share); got.Records != 1010 || got.Rereads != 10 {
		t.Errorf("as a consumer group's: %d records, %d re-reads; want 1010 and 10", got.Records, got.Rereads)
	}
}
