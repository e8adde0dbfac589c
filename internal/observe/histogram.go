package observe

import (
	"math"
	"slices"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/kbench/kbench/internal/metrics"
)

// nativeSchema is the native histograms' resolution: 2^3 buckets per doubling, each 9% wider
// than the one below. kbench's own histograms are finer (0.1%), so a quantile Prometheus
// computes lands in the bucket of kbench's own figure.
const nativeSchema = 3

// zeroThreshold bounds the native zero bucket: latencies of at most 1 µs, the lowest kbench
// tells apart from zero.
const zeroThreshold = 1e-6

// classicBounds are the classic buckets' upper bounds in seconds, for scrapers without native
// histograms: from half a millisecond to a minute, the range of a Kafka client's latency.
var classicBounds = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// latencyMetric is a Prometheus histogram in seconds made from one of kbench's latency
// histograms (microseconds), with native and classic buckets: the same counts in both.
type latencyMetric struct {
	desc   *prometheus.Desc
	labels []*dto.LabelPair
	h      dto.Histogram
}

func (m *latencyMetric) Desc() *prometheus.Desc { return m.desc }

func (m *latencyMetric) Write(out *dto.Metric) error {
	out.Label = m.labels
	out.Histogram = &m.h
	return nil
}

// newLatencyMetric converts h; each of h's stored buckets (at most 2% wide, a quarter of a
// native bucket) counts at its highest value, the value kbench's own quantiles report.
func newLatencyMetric(desc *prometheus.Desc, h *metrics.Histogram, labelValues ...string) prometheus.Metric {
	var (
		count, zero uint64
		sum         float64
		classic     = make([]uint64, len(classicBounds))
		native      = map[int]int64{}
	)
	for _, b := range h.Buckets() {
		v, n := float64(b.UpperMicros)/1e6, b.Count
		count += uint64(n)
		sum += v * float64(n)
		if i, _ := slices.BinarySearch(classicBounds, v); i < len(classicBounds) {
			classic[i] += uint64(n)
		}
		if v <= zeroThreshold {
			zero += uint64(n)
			continue
		}
		native[nativeIndex(v)] += n
	}
	buckets := make([]*dto.Bucket, len(classicBounds))
	var cumulative uint64
	for i, le := range classicBounds {
		cumulative += classic[i]
		buckets[i] = &dto.Bucket{CumulativeCount: new(cumulative), UpperBound: new(le)}
	}
	spans, deltas := nativeSpans(native)
	return &latencyMetric{
		desc:   desc,
		labels: prometheus.MakeLabelPairs(desc, labelValues),
		h: dto.Histogram{
			SampleCount: new(count), SampleSum: new(sum), Bucket: buckets,
			Schema: new(int32(nativeSchema)), ZeroThreshold: new(zeroThreshold), ZeroCount: new(zero),
			PositiveSpan: spans, PositiveDelta: deltas,
		},
	}
}

// nativeIndex is the native bucket holding v > 0: bucket i holds (2^((i-1)/8), 2^(i/8)].
func nativeIndex(v float64) int {
	return int(math.Ceil(math.Log2(v) * (1 << nativeSchema)))
}

// nativeSpans encodes bucket counts as Prometheus does: runs of consecutive indexes (spans,
// each offset from the end of the one before) and each count as a delta from the previous.
func nativeSpans(counts map[int]int64) ([]*dto.BucketSpan, []int64) {
	if len(counts) == 0 {
		return nil, nil
	}
	indexes := make([]int, 0, len(counts))
	for i := range counts {
		indexes = append(indexes, i)
	}
	slices.Sort(indexes)
	var (
		spans  []*dto.BucketSpan
		deltas []int64
		prev   int64
		next   int
	)
	for n, i := range indexes {
		if n == 0 || i != next {
			spans = append(spans, &dto.BucketSpan{Offset: new(int32(i - next)), Length: new(uint32(0))})
		}
		*spans[len(spans)-1].Length++
		deltas = append(deltas, counts[i]-prev)
		prev, next = counts[i], i+1
	}
	return spans, deltas
}
