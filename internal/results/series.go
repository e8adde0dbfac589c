package results

import (
	"math"
	"sort"

	"github.com/kbench/kbench/internal/metrics"
)

// HostSeries is the Broker value of rows that describe the whole host rather than a broker.
const HostSeries = "host"

// Field names used in SeriesRow.Fields: the sampler's own names (internal/metrics, where
// each is documented), so a run directory holds exactly what was sampled. The report uses
// these.
const (
	// FieldCPUCores is CPU time used per second of wall time (1.0 = one core busy).
	FieldCPUCores = metrics.FieldCPUCores
	// FieldCPUPct is FieldCPUCores as a percentage of the broker's CPU allotment; this is
	// what a monitoring console shows.
	FieldCPUPct = metrics.FieldCPUPercent
	// FieldDiskWriteBps and FieldDiskReadBps are a broker's bytes per second written to and
	// read from storage (proc(5) /proc/<pid>/io write_bytes, read_bytes).
	FieldDiskWriteBps = metrics.FieldDiskWriteBytesSec
	FieldDiskReadBps  = metrics.FieldDiskReadBytesSec
	// FieldRSSBytes is a broker's resident set size.
	FieldRSSBytes = metrics.FieldRSSBytes
	// FieldUnderReplicated is the broker's under-replicated partition count.
	FieldUnderReplicated = metrics.FieldUnderReplicated
	// FieldProduceTimeMean, FieldProduceTimeP50 and FieldProduceTimeP99 are a broker's own
	// Produce request time (RequestMetrics TotalTimeMs) from its metrics endpoint: the mean
	// exact over the interval, the percentiles Kafka's decaying ones.
	FieldProduceTimeMean = metrics.FieldProduceTimeMean
	FieldProduceTimeP50  = metrics.FieldProduceTimeP50
	FieldProduceTimeP99  = metrics.FieldProduceTimeP99
	// FieldBytesInBps and FieldBytesOutBps are a broker's client traffic (Kafka's
	// BytesInPerSec, BytesOutPerSec); FieldReplicationInBps and FieldReplicationOutBps its
	// replication traffic, fetched from leaders and served to followers.
	FieldBytesInBps        = metrics.FieldBytesInSec
	FieldBytesOutBps       = metrics.FieldBytesOutSec
	FieldReplicationInBps  = metrics.FieldReplicationBytesInSec
	FieldReplicationOutBps = metrics.FieldReplicationBytesOutSec
	// FieldHostCPUPct is the share of all host cores that were busy (host rows).
	FieldHostCPUPct = metrics.FieldHostCPUBusyPct
	// FieldHostDiskBusyPct is the share of time the busiest disk was busy (host rows,
	// diskstats io_ticks).
	FieldHostDiskBusyPct = metrics.FieldHostDiskUtilPct
	// FieldHostNetRxBps and FieldHostNetTxBps are the host's bytes per second received and
	// sent on all interfaces but loopback.
	FieldHostNetRxBps = metrics.FieldHostNetRxBytesSec
	FieldHostNetTxBps = metrics.FieldHostNetTxBytesSec
)

// SeriesRow is one sample of one broker (or of the host) at T seconds since the measured
// window began.
type SeriesRow struct {
	T      float64            `json:"t"`
	Broker string             `json:"broker"`
	Fields map[string]float64 `json:"fields"`
}

// Stats are the mean, maximum and 95th percentile of a field over the measured window.
type Stats struct {
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
	P95  float64 `json:"p95"`
}

// BrokerSummary summarises one broker's (or the host's) series field by field.
type BrokerSummary struct {
	Broker string           `json:"broker"`
	Fields map[string]Stats `json:"fields"`
}

// Summarize computes a BrokerSummary per broker from rows, in order of first appearance,
// every row counting as one full sample.
func Summarize(rows []SeriesRow) []BrokerSummary {
	return summarize(rows, func(SeriesRow, float64) float64 { return 1 })
}

// SummarizeWindow is Summarize over the window [from, to) (seconds, as SeriesRow.T), each
// row weighted in the mean by the share of the window it covers. A row covers the interval
// that ends at its T and began at the broker's previous row (interval seconds before T for
// the first one). The row after the window's end, kept so that the window's last moments
// are measured, then counts only for those moments instead of a full, mostly idle, sample.
// Max and P95 are over the rows that overlap the window at all.
func SummarizeWindow(rows []SeriesRow, from, to, interval float64) []BrokerSummary {
	return summarize(rows, func(r SeriesRow, prevT float64) float64 {
		begin := r.T - interval
		if !math.IsNaN(prevT) {
			begin = prevT
		}
		return max(0, min(r.T, to)-max(begin, from))
	})
}

// summarize groups rows by broker and field; weight gives a row's weight in the mean from
// the row and the T of its broker's previous row (NaN for the first).
func summarize(rows []SeriesRow, weight func(r SeriesRow, prevT float64) float64) []BrokerSummary {
	var order []string
	values := map[string]map[string][]weighted{}
	prevT := map[string]float64{}
	for _, r := range rows {
		m, ok := values[r.Broker]
		if !ok {
			m = map[string][]weighted{}
			values[r.Broker] = m
			order = append(order, r.Broker)
			prevT[r.Broker] = math.NaN()
		}
		w := weight(r, prevT[r.Broker])
		prevT[r.Broker] = r.T
		if w <= 0 {
			continue
		}
		for k, v := range r.Fields {
			m[k] = append(m[k], weighted{v, w})
		}
	}
	out := make([]BrokerSummary, 0, len(order))
	for _, b := range order {
		s := BrokerSummary{Broker: b, Fields: map[string]Stats{}}
		for k, vs := range values[b] {
			s.Fields[k] = statsOf(vs)
		}
		out = append(out, s)
	}
	return out
}

// weighted is a value and its weight in a mean.
type weighted struct{ v, w float64 }

func statsOf(vs []weighted) Stats {
	if len(vs) == 0 {
		return Stats{}
	}
	sorted := make([]float64, len(vs))
	var sum, weights float64
	for i, x := range vs {
		sorted[i] = x.v
		sum += x.v * x.w
		weights += x.w
	}
	sort.Float64s(sorted)
	// Nearest-rank percentile: the smallest value with at least 95% of values at or below.
	rank := int(math.Ceil(0.95*float64(len(sorted)))) - 1
	return Stats{Mean: sum / weights, Max: sorted[len(sorted)-1], P95: sorted[rank]}
}
