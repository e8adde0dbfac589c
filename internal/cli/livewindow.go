package cli

import (
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

// liveTick is the tick the live page and /metrics get: one a second.
const liveTick = time.Second

// tickWindow joins n one-second ticks into one window of the printed lines, so that with
// --web or --metrics-addr the load ticks every second while the lines keep their
// --reporting-interval: counts add, histograms merge and the rates are recomputed, as one
// long tick would have them.
type tickWindow struct {
	n, seen int
	sum     load.Tick
}

// liveWindow sets cfg's ticks to one a second and returns the window that groups them
// into its reporting interval, when live figures are wanted and the interval is whole
// seconds; otherwise it leaves cfg alone and returns a window of one tick.
func liveWindow(cfg *load.ProducerConfig, live bool) *tickWindow {
	return &tickWindow{n: liveTicks(&cfg.TickInterval, live)}
}

// liveTicks sets interval to one second and returns how many of those make the interval
// it was, when live figures are wanted and it is whole seconds; otherwise 1, interval
// unchanged.
func liveTicks(interval *time.Duration, live bool) int {
	if !live || *interval <= liveTick || *interval%liveTick != 0 {
		return 1
	}
	n := int(*interval / liveTick)
	*interval = liveTick
	return n
}

// add takes one tick and returns the window's when it is complete.
func (w *tickWindow) add(t load.Tick) (load.Tick, bool) {
	if w.n <= 1 {
		return t, true
	}
	if w.seen == 0 {
		w.sum = t
		w.sum.DueHistogram, w.sum.SendHistogram = clone(t.DueHistogram), clone(t.SendHistogram)
	} else {
		s := &w.sum
		s.Elapsed, s.Interval, s.Warmup = t.Elapsed, s.Interval+t.Interval, t.Warmup
		s.Acked, s.Failed, s.Bytes = s.Acked+t.Acked, s.Failed+t.Failed, s.Bytes+t.Bytes
		s.TotalAcked, s.TotalFailed, s.TotalBytes, s.TotalDueLatency = t.TotalAcked, t.TotalFailed, t.TotalBytes, t.TotalDueLatency
		s.Buffered, s.BufferedBytes = t.Buffered, t.BufferedBytes // gauges: the latest
		merge(s.DueHistogram, t.DueHistogram)
		merge(s.SendHistogram, t.SendHistogram)
	}
	w.seen++
	if w.seen < w.n {
		return load.Tick{}, false
	}
	w.seen = 0
	out := w.sum
	if out.DueHistogram != nil {
		out.DueLatency = out.DueHistogram.Summary()
	}
	if out.SendHistogram != nil {
		out.SendLatency = out.SendHistogram.Summary()
	}
	out.RecordsPerSec, out.MiBPerSec = 0, 0
	if s := out.Interval.Seconds(); s > 0 {
		out.RecordsPerSec = float64(out.Acked) / s
		out.MiBPerSec = float64(out.Bytes) / s / (1024 * 1024)
	}
	return out, true
}

func clone(h *metrics.Histogram) *metrics.Histogram {
	if h == nil {
		return nil
	}
	return h.Clone()
}

func merge(dst, src *metrics.Histogram) {
	if dst != nil && src != nil {
		dst.Merge(src)
	}
}

// consumeTickWindow is tickWindow for consumers' ticks: kbench consume --show-detailed-stats
// keeps its --reporting-interval lines while the live page gets a tick a second.
type consumeTickWindow struct {
	n, seen int
	sum     load.ConsumeTick
}

func liveConsumeWindow(cfg *load.ConsumerConfig, live bool) *consumeTickWindow {
	return &consumeTickWindow{n: liveTicks(&cfg.TickInterval, live)}
}

// add takes one tick and returns the window's when it is complete: counts, intervals and
// rebalance time add; the totals and the latency summary are the last tick's.
func (w *consumeTickWindow) add(t load.ConsumeTick) (load.ConsumeTick, bool) {
	if w.n <= 1 {
		return t, true
	}
	if w.seen == 0 {
		w.sum = t
	} else {
		s := &w.sum
		s.Elapsed, s.Interval, s.Rebalance = t.Elapsed, s.Interval+t.Interval, s.Rebalance+t.Rebalance
		s.Records, s.Bytes = s.Records+t.Records, s.Bytes+t.Bytes
		s.TotalRecords, s.TotalBytes, s.EndToEnd = t.TotalRecords, t.TotalBytes, t.EndToEnd
	}
	w.seen++
	if w.seen < w.n {
		return load.ConsumeTick{}, false
	}
	w.seen = 0
	out := w.sum
	out.RecordsPerSec, out.MiBPerSec = 0, 0
	if s := out.Interval.Seconds(); s > 0 {
		out.RecordsPerSec = float64(out.Records) / s
		out.MiBPerSec = float64(out.Bytes) / s / (1024 * 1024)
	}
	return out, true
}
