package runner

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
)

// catchUpTick is the consumers' tick period in a catch-up read: the drain's end is known to
// one tick.
const catchUpTick = 200 * time.Millisecond

// catchUpTail is how long the producers keep their rate after the consumers caught up
// before a catch-up read stops them (producers.duration is then an upper bound): long
// enough to show the consumers keep up.
const catchUpTail = 5 * time.Second

// catchUpLag is the time lag under which the consumers count as caught up: the p99 of the
// end-to-end latency of one tick's records. A record read during the drain is as old as
// the backlog ahead of it; the age falls steadily to the cluster's own end-to-end latency,
// so the drain's end is timed early by at most catchUpLag / (consume rate / produce rate - 1).
const catchUpLag = 500 * time.Millisecond

// catchUp times a catch-up read: it opens the consumers' start once the producers, past
// their warm-up, have had a backlog acknowledged, and marks the drain's end at the first
// consumer tick whose records are fresh. The producers' tick histograms are kept by phase.
type catchUp struct {
	target  int64
	started chan struct{} // closed when the consumers may start
	caught  chan struct{} // closed when the drain ended

	mu                           sync.Mutex
	start, end                   time.Time
	backlogRecords, backlogBytes int64
	consumed, consumedBytes      int64 // by the consumers at the drain's end
	before, during               *metrics.Histogram
	acked                        []ackedAt // the producers' total by tick, for interpolation
	producersEnded               time.Time
	bytes                        int64 // the producers' acknowledged bytes at the last tick
}

// ackedAt is the producers' acknowledged total at a tick.
type ackedAt struct {
	at    time.Time
	total int64
}

func newCatchUp(backlog int64) *catchUp {
	return &catchUp{target: backlog, started: make(chan struct{}), caught: make(chan struct{}), before: metrics.NewHistogram(), during: metrics.NewHistogram()}
}

// produceTick takes a producer tick that ended at now.
func (c *catchUp) produceTick(t load.Tick, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.acked = append(c.acked, ackedAt{now, t.TotalAcked})
	c.bytes = t.TotalBytes
	if t.Warmup {
		return
	}
	switch {
	case c.start.IsZero():
		if t.DueHistogram != nil {
			c.before.Merge(t.DueHistogram)
		}
		if t.TotalBytes >= c.target {
			c.start, c.backlogRecords, c.backlogBytes = now, t.TotalAcked, t.TotalBytes
			close(c.started)
		}
	case c.end.IsZero():
		if t.DueHistogram != nil {
			c.during.Merge(t.DueHistogram)
		}
	}
}

// consumeTick takes a consumer tick that ended at now: the first with records all but 1%
// younger than catchUpLag ends the drain.
func (c *catchUp) consumeTick(t load.ConsumeTick, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.start.IsZero() || !c.end.IsZero() || !c.producersEnded.IsZero() || t.EndToEnd.Count == 0 {
		return
	}
	if time.Duration(t.EndToEnd.P99Us)*time.Microsecond < catchUpLag {
		c.end, c.consumed, c.consumedBytes = now, t.TotalRecords, t.TotalBytes
		close(c.caught)
	}
}

// producersDone marks the producers' end: a drain still open then cannot end as a catch-up.
func (c *catchUp) producersDone(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.producersEnded = now
}

// ackedBy interpolates the producers' acknowledged total at t between the ticks around it.
func (c *catchUp) ackedBy(t time.Time) int64 {
	prev := ackedAt{}
	for _, a := range c.acked {
		if !a.at.Before(t) {
			if prev.at.IsZero() {
				return a.total
			}
			share := float64(t.Sub(prev.at)) / float64(a.at.Sub(prev.at))
			return prev.total + int64(share*float64(a.total-prev.total)+0.5)
		}
		prev = a
	}
	return prev.total
}

// result is the drain's figures; origin is the measured window's start (the client rows'
// T).
func (c *catchUp) result(origin time.Time) *results.CatchUp {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := &results.CatchUp{BacklogTarget: c.target, BacklogRecords: c.backlogRecords, BacklogBytes: c.backlogBytes,
		LagThresholdMs: float64(catchUpLag.Milliseconds())}
	before := latency(c.before.Summary())
	r.Before = &before
	switch {
	case c.start.IsZero():
		r.Note = fmt.Sprintf("the producers stopped before they had written the %s backlog (%d bytes acknowledged)", study.FormatSize(c.target), c.bytes)
		return r
	case c.end.IsZero():
		r.Start = c.start.Sub(origin).Seconds()
		r.Note = fmt.Sprintf("the consumers had not caught up when the producers stopped, %.1f s into the drain: lengthen producers.duration", c.producersEnded.Sub(c.start).Seconds())
		return r
	}
	during := latency(c.during.Summary())
	r.During = &during
	r.CaughtUp = true
	r.Start, r.End = c.start.Sub(origin).Seconds(), c.end.Sub(origin).Seconds()
	r.DrainSeconds = c.end.Sub(c.start).Seconds()
	r.ConsumedRecords = c.consumed
	r.ProducedRecords = c.ackedBy(c.end) - c.backlogRecords
	if r.DrainSeconds > 0 {
		r.ConsumeRecordsPerSec = float64(r.ConsumedRecords) / r.DrainSeconds
		r.ConsumeMiBPerSec = float64(c.consumedBytes) / (1 << 20) / r.DrainSeconds
		r.ProduceRecordsPerSec = float64(r.ProducedRecords) / r.DrainSeconds
	}
	return r
}

// histograms are the producers' due-time histograms before and during the drain, for the
// repeat's Latency.
func (c *catchUp) histograms() (before, during *metrics.Histogram) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.before.Clone(), c.during.Clone()
}

// stopProducers cancels the producers catchUpTail after the drain ended; it returns when
// it did, or when the producers ended first (done) or ctx ended.
func (c *catchUp) stopProducers(ctx context.Context, done <-chan struct{}, cancel context.CancelFunc) {
	select {
	case <-c.caught:
	case <-done:
		return
	case <-ctx.Done():
		return
	}
	select {
	case <-time.After(catchUpTail):
		cancel()
	case <-done:
	case <-ctx.Done():
	}
}
