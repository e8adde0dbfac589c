package runner

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/zones"
)

// window is the measured part of a repeat: it starts when the warm-up ends and collects one
// client row per tick, with the process CPU spent in that tick.
type window struct {
	mu       sync.Mutex
	start    time.Time
	end      time.Time
	cpuStart time.Duration
	cpuEnd   time.Duration
	lastCPU  time.Duration
	lastT    time.Time
	rows     []results.ClientRow
	consumed map[int]int64 // consumed records by second since start
	// preConsumed counts the records consumed before the window began (the warm-up's).
	preConsumed int64
	// proxyPID is the remote listener's proxy process when the scenario uses it; its CPU
	// over the window is proxyEnd - proxyStart.
	proxyPID                 int
	proxyStart, proxyEnd     time.Duration
	proxyStartOK, proxyEndOK bool
}

// proxyCPU reads the proxy process's CPU time; ok is false without one or when unreadable.
func (w *window) proxyCPU() (time.Duration, bool) {
	if w.proxyPID <= 0 {
		return 0, false
	}
	cpu, err := zones.ProcessCPU(w.proxyPID)
	return cpu, err == nil
}

func newWindow() *window { return &window{consumed: map[int]int64{}} }

func (w *window) begin(t time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.start.IsZero() {
		w.start, w.cpuStart = t, load.ProcessCPU().Total()
		w.lastCPU, w.lastT = w.cpuStart, t
		w.proxyStart, w.proxyStartOK = w.proxyCPU()
	}
}

func (w *window) produceTick(t load.Tick) {
	now := time.Now()
	if t.Warmup {
		return
	}
	// The first steady tick: the window began at most one interval ago.
	w.begin(now.Add(-t.Interval))
	w.mu.Lock()
	defer w.mu.Unlock()
	cpu := load.ProcessCPU().Total()
	cores := 0.0
	if dt := now.Sub(w.lastT).Seconds(); dt > 0 {
		cores = (cpu - w.lastCPU).Seconds() / dt
	}
	w.lastCPU, w.lastT = cpu, now
	w.rows = append(w.rows, results.ClientRow{
		T: now.Sub(w.start).Seconds(), Records: t.Acked, Failed: t.Failed, Bytes: t.Bytes,
		RecordsPerSec: t.RecordsPerSec, MiBPerSec: t.MiBPerSec,
		P50Ms: usToMs(float64(t.DueLatency.P50Us)), P99Ms: usToMs(float64(t.DueLatency.P99Us)),
		MaxMs: usToMs(float64(t.DueLatency.MaxUs)), CPUCores: cores,
	})
}

func (w *window) consumeTick(t load.ConsumeTick) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.start.IsZero() {
		w.preConsumed += t.Records // still in the producers' warm-up
		return
	}
	w.consumed[int(time.Since(w.start).Seconds())] += t.Records
}

func (w *window) finish(t time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.start.IsZero() {
		w.start, w.cpuStart = t, load.ProcessCPU().Total()
		w.proxyStart, w.proxyStartOK = w.proxyCPU()
	}
	w.end, w.cpuEnd = t, load.ProcessCPU().Total()
	w.proxyEnd, w.proxyEndOK = w.proxyCPU()
}

// clientRows returns the produce rows with the consumed counts merged in. A consume-only
// window gets one row per second of consumption, and a last row with what the consumers
// read after their last tick (total is their final count), so a window shorter than a tick
// still has a row.
func (w *window) clientRows(total int64) []results.ClientRow {
	rows := append([]results.ClientRow(nil), w.rows...)
	if len(rows) > 0 {
		for s, n := range w.consumed {
			i := min(max(s, 0), len(rows)-1)
			rows[i].Consumed += n
		}
		return rows
	}
	secs := make([]int, 0, len(w.consumed))
	for s := range w.consumed {
		secs = append(secs, s)
	}
	sort.Ints(secs)
	for _, s := range secs {
		rows = append(rows, results.ClientRow{T: float64(s + 1), Consumed: w.consumed[s]})
		total -= w.consumed[s]
	}
	if total > 0 {
		rows = append(rows, results.ClientRow{T: w.end.Sub(w.start).Seconds(), Consumed: total})
	}
	return rows
}

// seriesRows turns the sampler's series into the run directory's rows, keeping those of the
// measured window; T is seconds since the window began. A row covers the interval that ends
// at its time and is kept when that interval overlaps the window, so the window's last
// moments (in the row after it) and a window shorter than one interval are covered.
func seriesRows(s metrics.Series, start, end time.Time) []results.SeriesRow {
	var out []results.SeriesRow
	keep := func(label string, rows []metrics.Row) {
		for k, r := range rows {
			// A row covers the time since the reading before it: one interval, or more
			// after a slow scrape (the first most of all: a window shorter than it would
			// otherwise have no row).
			from := r.From
			if from.IsZero() {
				from = r.Time.Add(-sampleInterval)
				if k > 0 && rows[k-1].Time.Before(from) {
					from = rows[k-1].Time
				}
			}
			if !r.Time.After(start) || !from.Before(end) {
				continue
			}
			out = append(out, results.SeriesRow{T: r.Time.Sub(start).Seconds(), Broker: label, Fields: r.Values})
		}
	}
	for _, b := range s.Brokers {
		keep(strconv.Itoa(b.ID), b.Rows)
	}
	keep(results.HostSeries, s.Host)
	sort.SliceStable(out, func(i, j int) bool { return out[i].T < out[j].T })
	return out
}

// awaitRows waits until every broker has a row covering end (at or after it), so the
// window's end is measured too: at most until the sampler's next reading has had its
// scrapes' timeout (a JMX scrape on a busy host can take longer than an interval, and a
// window shorter than one would otherwise have no row at all); not after cancellation.
func awaitRows(ctx context.Context, s *metrics.Sampler, end time.Time) {
	deadline := end.Add(s.MaxRowDelay())
	for ctx.Err() == nil && time.Now().Before(deadline) && !rowsReach(s.Snapshot(), end) {
		time.Sleep(sampleInterval / 20)
	}
}

// rowsReach reports whether every broker has a row at or after t.
func rowsReach(s metrics.Series, t time.Time) bool {
	for _, b := range s.Brokers {
		if len(b.Rows) == 0 || b.Rows[len(b.Rows)-1].Time.Before(t) {
			return false
		}
	}
	return true
}

// fill writes the measurement into rep: summary, histograms, time series, configs and
// validity.
func (m *measurement) fill(rep *results.Repeat, filled int64) {
	w := m.window
	// The window as the producers saw it: its start from the load itself, since a short
	// steady state can end before the first progress tick marks it.
	start, cpu := m.brokerStart(), (w.cpuEnd - w.cpuStart).Seconds()
	if p := m.prod; p != nil && p.SteadyCPU != nil {
		cpu = p.SteadyCPU.Seconds
	}
	s := &rep.Summary
	s.TargetRate = m.rate
	s.ClientCPUSeconds = cpu
	if w.proxyStartOK && w.proxyEndOK {
		s.ProxyCPUSeconds = (w.proxyEnd - w.proxyStart).Seconds()
	}
	rep.Latency = map[string][]results.Bucket{}
	if m.prod != nil {
		stats := m.prod.Total
		if m.prod.Steady != nil {
			stats = *m.prod.Steady
		}
		s.RecordsAcked, s.RecordsFailed, s.Bytes = stats.Acked, stats.Failed, stats.Bytes
		s.Elapsed, s.RecordsPerSec, s.MiBPerSec = stats.ElapsedSeconds, stats.RecordsPerSec, stats.MiBPerSec
		s.Latency = latency(stats.DueLatency)
		if m.rate > 0 {
			send := latency(stats.SendLatency)
			s.SendLatency = &send
		}
		rep.Latency[results.LatencyDue] = buckets(stats.DueHistogram)
		rep.Latency[results.LatencySend] = buckets(stats.SendHistogram)
		s.Errors = m.prod.Errors
		rep.ProducerConfig = results.Redact(m.prod.Settings)
	}
	if m.cons != nil {
		c := m.cons
		s.Consumer = &results.Consumer{Records: c.Records, Bytes: c.Bytes, Elapsed: c.FetchSeconds,
			RecordsPerSec: c.FetchRecordsPerSec, MiBPerSec: c.FetchMiBPerSec, RebalanceMs: c.RebalanceSeconds * 1000}
		if c.EndToEnd.Count > 0 {
			e2e := latency(c.EndToEnd)
			s.EndToEnd = &e2e
			rep.Latency[results.LatencyEndToEnd] = buckets(c.EndToEndHistogram)
		}
		rep.ConsumerConfig = results.Redact(c.Settings)
		if m.consumeOnly {
			s.RecordsAcked, s.Bytes, s.Elapsed = c.Records, c.Bytes, c.FetchSeconds
			s.RecordsPerSec, s.MiBPerSec = c.FetchRecordsPerSec, c.FetchMiBPerSec
		}
	}
	if s.RecordsAcked > 0 {
		s.ClientCPUPerMillion = cpu / float64(s.RecordsAcked) * 1e6
	}
	m.splitCPU(s, cpu)
	consumed := int64(0)
	if m.cons != nil {
		consumed = m.cons.Records
	}
	rep.Client = w.clientRows(consumed)
	rep.Brokers = seriesRows(m.series, start, w.end)
	// Each row weighs by its overlap with the window: the row after the window's end covers
	// its last moments only.
	rep.BrokerSummary = results.SummarizeWindow(rep.Brokers, 0, w.end.Sub(start).Seconds(), sampleInterval.Seconds())
	s.Records = m.records(filled)
	rep.Validity = m.validity(filled)
}

// brokerStart is the origin of the broker rows' T: the producers' steady start when they
// report it, else the window's start.
func (m *measurement) brokerStart() time.Time {
	if p := m.prod; p != nil && p.SteadyCPU != nil {
		return p.SteadyStart
	}
	return m.window.start
}

// splitCPU divides the client CPU between the roles, each per million of its own records:
// the producers' per million acknowledged in the window (cpu is the window's), the
// consumers' per million consumed from the window's start until they caught up.
func (m *measurement) splitCPU(s *results.Summary, cpu float64) {
	share := 0.0
	switch {
	case m.consumeOnly:
		s.ClientCPUSplit = results.SplitConsumerOnly
	case m.cons == nil:
		s.ClientCPUSplit, share = results.SplitProducerOnly, 1
	case m.split:
		s.ClientCPUSplit, share = results.SplitProfile, m.producerShare
	default:
		return // both roles ran, the profile did not: no split rather than a guess
	}
	if m.prod != nil {
		s.ProducerCPUSeconds = cpu * share
		if s.RecordsAcked > 0 {
			s.ProducerCPUPerMillion = s.ProducerCPUSeconds / float64(s.RecordsAcked) * 1e6
		}
	}
	if m.cons != nil {
		// The consumers' window runs from the measured window's start until they caught
		// up, past the producers' end: their CPU and records over that span.
		w := m.window
		s.ConsumerCPUSeconds = (w.cpuEnd - w.cpuStart).Seconds() * (1 - share)
		if n := m.cons.Records - w.preConsumed; n > 0 {
			s.ConsumerCPUPerMillion = s.ConsumerCPUSeconds / float64(n) * 1e6
		}
	}
}

// validity marks a repeat that missed its target rate, lost records or had errors: it is
// reported apart, never averaged in silently.
func (m *measurement) validity(filled int64) results.Validity {
	var reasons []string
	if p := m.prod; p != nil {
		if p.Total.Failed > 0 {
			reasons = append(reasons, fmt.Sprintf("%d records failed%s", p.Total.Failed, firstError(p.Errors)))
		}
		stats := p.Total
		if p.Steady != nil {
			stats = *p.Steady
		}
		if rate := sendRate(stats); m.mustReach && m.rate > 0 && rate < minRateShare*m.rate {
			reasons = append(reasons, fmt.Sprintf("missed the target rate: %.0f of %.0f records/s", rate, m.rate))
		}
		switch {
		case p.Total.Acked == 0:
			reasons = append(reasons, "no record was acknowledged")
		case stats.Acked == 0:
			reasons = append(reasons, "no record was acknowledged in the measured window (after the warm-up)")
		}
	}
	reasons = append(reasons, accountingReasons(m.records(filled))...)
	if c := m.cons; c != nil {
		if len(c.Errors) > 0 {
			reasons = append(reasons, "consumer errors"+firstError(c.Errors))
		}
	}
	return results.Validity{Valid: len(reasons) == 0, Reasons: reasons}
}

// sendRate is the rate the records went out at (results.SendRate, which the report uses too).
func sendRate(s load.ProduceStats) float64 {
	return results.SendRate(s.Acked, s.ElapsedSeconds, s.RecordsPerSec, usToMs(float64(s.SendLatency.P50Us)))
}

func firstError(errs map[string]int64) string {
	for msg, n := range errs {
		return fmt.Sprintf(" (e.g. %dx %s)", n, msg)
	}
	return ""
}

func latency(l metrics.LatencySummary) results.Latency {
	return results.Latency{Count: l.Count, AvgMs: usToMs(l.AvgUs), P50Ms: usToMs(float64(l.P50Us)),
		P90Ms: usToMs(float64(l.P90Us)), P95Ms: usToMs(float64(l.P95Us)), P99Ms: usToMs(float64(l.P99Us)),
		P999Ms: usToMs(float64(l.P999Us)), P9999Ms: usToMs(float64(l.P9999Us)), MaxMs: usToMs(float64(l.MaxUs))}
}

func usToMs(us float64) float64 { return us / 1000 }

func buckets(h *metrics.Histogram) []results.Bucket {
	if h == nil {
		return nil
	}
	var out []results.Bucket
	for _, b := range h.Buckets() {
		out = append(out, results.Bucket{UpperUs: b.UpperMicros, Count: b.Count})
	}
	return out
}
