// Latency histograms: HdrHistogram in microseconds, one per worker, merged on a tick.

package metrics

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	hdrhistogram "github.com/HdrHistogram/hdrhistogram-go"
)

// The trackable range and precision of every latency histogram kbench keeps. They are fixed so
// that histograms from different workers, runs and kbench versions merge and compare.
const (
	// LatencyMinMicros is the lowest latency told apart from zero: 1 microsecond.
	LatencyMinMicros int64 = 1
	// LatencyMaxMicros is the highest latency tracked: 10 minutes. Longer values are clamped
	// to it (and counted in Histogram.Clamped), never dropped, so counts stay exact.
	LatencyMaxMicros int64 = 10 * 60 * 1000 * 1000
	// LatencySigFigs is the number of significant decimal digits kept: 3 (0.1 % error).
	LatencySigFigs = 3
)

// Histogram is a latency distribution in microseconds. It is not safe for concurrent use; a
// Recorder wraps one for a worker that records while another goroutine reads.
type Histogram struct {
	h       *hdrhistogram.Histogram
	clamped int64
}

// NewHistogram returns an empty histogram with the fixed range and precision above.
func NewHistogram() *Histogram {
	return &Histogram{h: hdrhistogram.New(LatencyMinMicros, LatencyMaxMicros, LatencySigFigs)}
}

// Record adds one latency. Negative durations count as 0 and durations beyond
// LatencyMaxMicros as LatencyMaxMicros.
func (h *Histogram) Record(d time.Duration) { h.RecordMicros(d.Microseconds()) }

// RecordMicros adds one latency given in microseconds, clamped as Record does.
func (h *Histogram) RecordMicros(us int64) {
	switch {
	case us < 0:
		us = 0
		h.clamped++
	case us > LatencyMaxMicros:
		us = LatencyMaxMicros
		h.clamped++
	}
	// Within the range RecordValue cannot fail.
	_ = h.h.RecordValue(us)
}

// CountAbove is how many recorded latencies are above d, at the histogram's precision: a
// value counts as above when the lowest value of its bucket is. A latency SLO read as a loss
// ratio ("at most 1 % of records later than 50 ms") counts with it.
func (h *Histogram) CountAbove(d time.Duration) int64 {
	us := d.Microseconds()
	var n int64
	h.forEachCount(func(lowest, _, count int64) {
		if lowest > us {
			n += count
		}
	})
	return n
}

// Merge adds every value of o to h.
func (h *Histogram) Merge(o *Histogram) {
	// Bucket by bucket: hdrhistogram's own Merge walks every bucket of o through its
	// iterator, ten times as long.
	o.forEachCount(func(lowest, _, count int64) { _ = h.h.RecordValues(lowest, count) })
	h.clamped += o.clamped
}

// Reset empties h (used to throw away warm-up).
func (h *Histogram) Reset() {
	h.h.Reset()
	h.clamped = 0
}

// Clone returns an independent copy of h.
func (h *Histogram) Clone() *Histogram {
	return &Histogram{h: h.h.Clone(), clamped: h.clamped}
}

// Count is the number of values recorded.
func (h *Histogram) Count() int64 { return h.h.TotalCount() }

// Clamped is the number of values that were outside the trackable range and recorded at its
// nearest end.
func (h *Histogram) Clamped() int64 { return h.clamped }

// Quantile returns the latency at quantile q (0..1); 0 when the histogram is empty.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return time.Duration(h.h.ValueAtQuantile(q*100)) * time.Microsecond
}

// Max returns the highest latency recorded (to the histogram's precision).
func (h *Histogram) Max() time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return time.Duration(h.h.Max()) * time.Microsecond
}

// Mean returns the average latency.
func (h *Histogram) Mean() time.Duration {
	if h.Count() == 0 {
		return 0
	}
	return time.Duration(h.h.Mean() * float64(time.Microsecond))
}

// LatencySummary is a histogram reduced to the figures reports print, in microseconds.
type LatencySummary struct {
	Count   int64   `json:"count"`
	AvgUs   float64 `json:"avg_us"`
	P50Us   int64   `json:"p50_us"`
	P90Us   int64   `json:"p90_us"`
	P95Us   int64   `json:"p95_us"`
	P99Us   int64   `json:"p99_us"`
	P999Us  int64   `json:"p99_9_us"`
	P9999Us int64   `json:"p99_99_us"`
	MaxUs   int64   `json:"max_us"`
	Clamped int64   `json:"clamped,omitempty"`
}

// Summary returns count, average, p50, p90, p95, p99, p99.9, p99.99 and max.
func (h *Histogram) Summary() LatencySummary {
	s := LatencySummary{Count: h.Count(), Clamped: h.clamped}
	if s.Count == 0 {
		return s
	}
	q := h.h.ValueAtPercentilesSlice([]float64{50, 90, 95, 99, 99.9, 99.99})
	s.AvgUs = h.h.Mean()
	s.P50Us, s.P90Us, s.P95Us, s.P99Us, s.P999Us, s.P9999Us = q[0], q[1], q[2], q[3], q[4], q[5]
	s.MaxUs = h.h.Max()
	return s
}

// Encode returns the histogram in HdrHistogram's compressed V2 encoding, base64 text: the form
// other HdrHistogram implementations (Java, C, Python) read too.
func (h *Histogram) Encode() (string, error) {
	b, err := h.h.Encode(hdrhistogram.V2CompressedEncodingCookieBase)
	if err != nil {
		return "", fmt.Errorf("unable to encode histogram: %w", err)
	}
	return base64.StdEncoding.EncodeToString(b), nil
}

// DecodeHistogram reads what Encode wrote. Its range must be kbench's fixed range, so that the
// result merges with every other histogram.
func DecodeHistogram(s string) (*Histogram, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("unable to decode histogram: %w", err)
	}
	d, err := hdrhistogram.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("unable to decode histogram: %w", err)
	}
	h := NewHistogram()
	if dropped := h.h.Merge(d); dropped > 0 {
		return nil, fmt.Errorf("unable to decode histogram: %d values outside %d..%d us", dropped, LatencyMinMicros, LatencyMaxMicros)
	}
	return h, nil
}

// MarshalJSON writes the histogram as its encoded string (see Encode).
func (h *Histogram) MarshalJSON() ([]byte, error) {
	s, err := h.Encode()
	if err != nil {
		return nil, err
	}
	return json.Marshal(s)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (h *Histogram) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("unable to decode histogram: %w", err)
	}
	d, err := DecodeHistogram(s)
	if err != nil {
		return err
	}
	*h = *d
	return nil
}

// Recorder is one worker's histogram: the worker records into it without contention, and a
// ticker moves what it holds into a shared cumulative histogram (see Drain).
type Recorder struct {
	mu  sync.Mutex
	cur *Histogram
}

// NewRecorder returns an empty recorder.
func NewRecorder() *Recorder { return &Recorder{cur: NewHistogram()} }

// Record adds one latency (clamped as Histogram.Record does).
func (r *Recorder) Record(d time.Duration) {
	r.mu.Lock()
	r.cur.RecordMicros(d.Microseconds())
	r.mu.Unlock()
}

// Drain adds the values recorded since the last Drain into dst and empties the recorder.
func (r *Recorder) Drain(dst *Histogram) {
	r.mu.Lock()
	dst.Merge(r.cur)
	r.cur.Reset()
	r.mu.Unlock()
}

// Merger joins a set of Recorders on each tick into an interval and a cumulative histogram.
type Merger struct {
	recorders  []*Recorder
	interval   *Histogram
	cumulative *Histogram
}

// NewMerger returns a merger over recorders.
func NewMerger(recorders ...*Recorder) *Merger {
	return &Merger{recorders: recorders, interval: NewHistogram(), cumulative: NewHistogram()}
}

// Tick drains every recorder and returns the values recorded since the previous Tick (interval)
// and since the start or the last Reset (cumulative). Both stay owned by the merger and are
// valid until the next Tick.
func (m *Merger) Tick() (interval, cumulative *Histogram) {
	m.interval.Reset()
	for _, r := range m.recorders {
		r.Drain(m.interval)
	}
	m.cumulative.Merge(m.interval)
	return m.interval, m.cumulative
}

// Reset drains the recorders and throws everything recorded so far away (the end of warm-up).
func (m *Merger) Reset() {
	m.Tick()
	m.interval.Reset()
	m.cumulative.Reset()
}
