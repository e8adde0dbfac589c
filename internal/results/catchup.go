package results

import (
	"math"

	"github.com/kbench/kbench/internal/metrics"
)

// CatchUp is a catch-up read (a scenario with consumers.backlog): the producers wrote a
// backlog alone, then the consumers started at the earliest offset while the producers
// kept their rate, until they caught up. Times are seconds since the measured window began,
// as the client and broker rows' T.
type CatchUp struct {
	// BacklogTarget is the bytes the study asked for; BacklogRecords and BacklogBytes what
	// the producers had had acknowledged (warm-up included) when the consumers started.
	BacklogTarget  int64 `json:"backlog_target_bytes"`
	BacklogRecords int64 `json:"backlog_records"`
	BacklogBytes   int64 `json:"backlog_bytes"`
	// Start is when the consumers started; End when they caught up (0 when they did not).
	Start float64 `json:"start_s"`
	End   float64 `json:"end_s,omitempty"`
	// CaughtUp says the consumers caught up before the producers stopped; Note says why
	// not, when they did not.
	CaughtUp bool   `json:"caught_up"`
	Note     string `json:"note,omitempty"`
	// LagThresholdMs is the time lag under which the consumers count as caught up: the
	// end-to-end p50 of a consumer tick's records.
	LagThresholdMs float64 `json:"lag_threshold_ms"`
	// DrainSeconds is End - Start.
	DrainSeconds float64 `json:"drain_s,omitempty"`
	// ConsumedRecords were read during the drain (the backlog and what the producers wrote
	// meanwhile), ProducedRecords acknowledged during it; the rates are each over the drain.
	ConsumedRecords      int64   `json:"consumed_records"`
	ProducedRecords      int64   `json:"produced_records"`
	ConsumeRecordsPerSec float64 `json:"consume_records_per_sec"`
	ConsumeMiBPerSec     float64 `json:"consume_mib_per_sec"`
	ProduceRecordsPerSec float64 `json:"produce_records_per_sec"`
	// Before and During are the producers' due-time latency after the warm-up and before
	// the consumers started, and from their start until they caught up (merged from the
	// producers' tick histograms, whole ticks: a tick counts in the phase its end falls in).
	Before *Latency `json:"producer_latency_before"`
	During *Latency `json:"producer_latency_during"`
	// Brokers are the brokers' storage reads during the drain (DrainReads).
	Brokers []DrainRead `json:"broker_reads,omitempty"`
	// HostDiskReadBytes is the host's disk reads during the drain (/proc/diskstats), when
	// sampled.
	HostDiskReadBytes *float64 `json:"host_disk_read_bytes,omitempty"`
}

// LatencyCatchUpBefore and LatencyCatchUpDuring are the Repeat.Latency kinds of a catch-up
// read's producer due-time histograms before and during the drain.
const (
	LatencyCatchUpBefore = "due_before_drain"
	LatencyCatchUpDuring = "due_during_drain"
)

// DrainRead is one broker's reads during a drain: what it served to consumers and
// followers (Kafka's BytesOut and ReplicationBytesOut) against what its process caused to be
// read from storage (/proc/<pid>/io read_bytes). Served bytes not read from storage came
// from the page cache, as far as these counters tell; a missing counter is nil.
type DrainRead struct {
	Broker      string   `json:"broker"`
	ServedBytes *float64 `json:"served_bytes,omitempty"`
	DiskBytes   *float64 `json:"disk_read_bytes,omitempty"`
}

// DrainReads integrates each broker's served and storage-read bytes over [from, to]
// (seconds since the window began), each row weighing by its overlap with the span (a row
// covers the interval seconds ending at its T). Brokers are in order of first appearance;
// the host's rows are left out.
func DrainReads(rows []SeriesRow, from, to, interval float64) []DrainRead {
	var out []DrainRead
	index := map[string]int{}
	add := func(dst **float64, v float64) {
		if *dst == nil {
			*dst = new(float64)
		}
		**dst += v
	}
	for _, r := range rows {
		if r.Broker == HostSeries {
			continue
		}
		overlap := math.Min(r.T, to) - math.Max(r.T-interval, from)
		if overlap <= 0 {
			continue
		}
		i, ok := index[r.Broker]
		if !ok {
			i = len(out)
			index[r.Broker] = i
			out = append(out, DrainRead{Broker: r.Broker})
		}
		d := &out[i]
		if toClients, ok := r.Fields[FieldBytesOutBps]; ok {
			add(&d.ServedBytes, (toClients+r.Fields[FieldReplicationOutBps])*overlap)
		}
		if v, ok := r.Fields[FieldDiskReadBps]; ok {
			add(&d.DiskBytes, v*overlap)
		}
	}
	return out
}

// HostDiskReads integrates the host's disk read rate over [from, to] as DrainReads does;
// nil when no host row had it.
func HostDiskReads(rows []SeriesRow, from, to, interval float64) *float64 {
	var total *float64
	for _, r := range rows {
		v, ok := r.Fields[metrics.FieldHostDiskReadBytesSec]
		overlap := math.Min(r.T, to) - math.Max(r.T-interval, from)
		if r.Broker != HostSeries || !ok || overlap <= 0 {
			continue
		}
		if total == nil {
			total = new(float64)
		}
		*total += v * overlap
	}
	return total
}
