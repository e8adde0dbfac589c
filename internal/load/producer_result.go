package load

import (
	"time"

	"github.com/kbench/kbench/internal/metrics"
)

// Tick is the progress of a produce run, delivered every TickInterval.
type Tick struct {
	// Elapsed is the time since the start; Interval the time since the previous tick.
	Elapsed, Interval time.Duration
	// Warmup is true while the run is still in its warm-up.
	Warmup bool
	// Acked, Failed and Bytes are counted in this interval; Bytes are key plus value bytes
	// of acknowledged records.
	Acked, Failed, Bytes int64
	// RecordsPerSec and MiBPerSec are this interval's acknowledged rates.
	RecordsPerSec, MiBPerSec float64
	// DueLatency and SendLatency summarise this interval's acknowledgements, from due and
	// from send time.
	DueLatency, SendLatency metrics.LatencySummary
	// DueHistogram and SendHistogram are this interval's full histograms (copies the
	// receiver may keep), so ticks from several hosts merge exactly.
	DueHistogram, SendHistogram *metrics.Histogram
	// TotalAcked, TotalFailed, TotalBytes and TotalDueLatency cover the run so far.
	TotalAcked, TotalFailed, TotalBytes int64
	TotalDueLatency                     metrics.LatencySummary
	// Buffered and BufferedBytes are the records (and their bytes) in the producers' clients
	// at the tick, waiting for a batch or in flight: the backlog behind a falling rate.
	Buffered, BufferedBytes int64
}

// ProduceStats describes the records of one phase of a run (the whole run, or the steady
// state after warm-up).
type ProduceStats struct {
	// Acked records were acknowledged by the brokers; Failed were not, after the client's
	// retries. Throughput counts Acked only.
	Acked  int64 `json:"acked"`
	Failed int64 `json:"failed"`
	// Bytes is the key plus value bytes of acknowledged records.
	Bytes int64 `json:"bytes"`
	// ElapsedSeconds runs from the phase's first send to its last acknowledgement.
	ElapsedSeconds float64 `json:"elapsed_seconds"`
	RecordsPerSec  float64 `json:"records_per_sec"`
	// MiBPerSec is MiB (1024*1024 bytes) per second, what Kafka's tools print as MB/sec.
	MiBPerSec float64 `json:"mib_per_sec"`
	// DueLatency runs from the moment each record was due (its slot under a rate limit, the
	// moment it was handed to the client when unlimited) to its acknowledgement.
	DueLatency metrics.LatencySummary `json:"due_latency"`
	// SendLatency runs from the moment each record was handed to the client.
	SendLatency metrics.LatencySummary `json:"send_latency"`
	// The full histograms, so a report can compute any other percentile.
	DueHistogram  *metrics.Histogram `json:"due_histogram"`
	SendHistogram *metrics.Histogram `json:"send_histogram"`
}

// ProduceResult is the outcome of Produce.
type ProduceResult struct {
	Topic     string  `json:"topic"`
	Producers int     `json:"producers"`
	Rate      float64 `json:"rate,omitempty"`
	// Sent records reached an outcome from the cluster: Sent = Total.Acked + Total.Failed.
	Sent int64 `json:"sent"`
	// Unsent records were handed to the clients but neither acknowledged nor failed by the
	// cluster when the run stopped waiting for them (DrainTimeout after a timed run's end,
	// StopGrace after a cancellation): they were aborted. Most never left the client; those
	// in requests a stalled broker had not answered may still have reached the topic. Every
	// record is acknowledged, failed or unsent: handed over = Sent + Unsent.
	Unsent int64 `json:"unsent,omitempty"`
	// Drained records were acknowledged after a timed run's end, while it waited for the
	// records already handed over; they are in Total (and Steady), latency included.
	Drained int64        `json:"drained,omitempty"`
	Total   ProduceStats `json:"total"`
	// BlockedSends counts records whose hand-over to the client waited more than a
	// millisecond for buffer space: the producer's buffer was full, so the offered rate was
	// more than the client could pass on. MaxSendLagMs is how far, at most, a send fell
	// behind its due time (0 when unlimited: records are due when sent).
	BlockedSends int64   `json:"blocked_sends,omitempty"`
	MaxSendLagMs float64 `json:"max_send_lag_ms,omitempty"`
	// Steady leaves the warm-up out; nil without warm-up. A paced run's steady records are
	// those due after the warm-up, an unpaced one's those acknowledged after it (see
	// producerWorker.afterWarmup).
	Steady *ProduceStats `json:"steady,omitempty"`
	// WindowRecordsPerSec is, for a paced timed run, the records both due and acknowledged
	// between the warm-up's end and the run's end, per second of that window: the rate the
	// run sustained. Unlike Steady's rate it leaves out the records acknowledged after the
	// end (drained), and its time is the window's, not the span to the last
	// acknowledgement. 0 when not paced or not timed.
	WindowRecordsPerSec float64 `json:"window_records_per_sec,omitempty"`
	// Errors counts failed records by error text.
	Errors map[string]int64 `json:"errors,omitempty"`
	// CPU is the client process's CPU over the run, per million acknowledged records too.
	CPU ClientCPU `json:"client_cpu"`
	// SteadyCPU is the CPU from the end of the warm-up to the end of the run, and
	// SteadyStart when that was (wall clock); both unset without a warm-up.
	SteadyCPU   *ClientCPU `json:"steady_client_cpu,omitempty"`
	SteadyStart time.Time  `json:"steady_start,omitzero"`
	// Settings are the effective client properties (Java names, defaults included, secrets
	// hidden); Warnings the properties that had no franz-go equivalent.
	Settings map[string]string `json:"settings"`
	Warnings []string          `json:"warnings,omitempty"`
	// Transactions counts the transactions of transactional producers (nil otherwise).
	Transactions *TransactionStats `json:"transactions,omitempty"`
	// Interrupted is true when the run was cancelled before its end.
	Interrupted bool `json:"interrupted,omitempty"`
}

func newProduceStats(acked, failed, bytes int64, elapsed time.Duration, due, send *metrics.Histogram) ProduceStats {
	s := ProduceStats{
		Acked: acked, Failed: failed, Bytes: bytes,
		ElapsedSeconds: elapsed.Seconds(),
		DueLatency:     due.Summary(), SendLatency: send.Summary(),
		DueHistogram: due, SendHistogram: send,
	}
	if sec := elapsed.Seconds(); sec > 0 {
		s.RecordsPerSec = float64(acked) / sec
		s.MiBPerSec = float64(bytes) / sec / (1024 * 1024)
	}
	return s
}
