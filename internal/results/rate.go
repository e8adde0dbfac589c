package results

// MinRateShare is the share of its target rate a paced repeat must send at: below it the
// runner marks a repeat with a target rate invalid, and the report says a throttle was not
// reached. One constant, so the validity gate and the report never disagree.
const MinRateShare = 0.95

// SendRate is the rate the records went out at: the acknowledged records over the measured
// time less the last records' time in flight (the median send-to-acknowledgement latency,
// sendP50Ms). records/s runs to the last acknowledgement, so over a short window a producer
// that kept its pace would miss it by the final records' latency alone. When that latency is
// most of the window the producer did not keep up, and recordsPerSec is the answer.
func SendRate(acked int64, elapsedS, recordsPerSec, sendP50Ms float64) float64 {
	elapsed := elapsedS - sendP50Ms/1000
	if elapsed <= 0 || elapsed < elapsedS/2 {
		return recordsPerSec
	}
	return float64(acked) / elapsed
}

// TargetShare is the share of its target rate a repeat's producers sent at (SendRate over
// TargetRate), and false when the repeat had no target or produced nothing.
func (s Summary) TargetShare() (float64, bool) {
	if s.TargetRate <= 0 || s.RecordsAcked == 0 {
		return 0, false
	}
	var sendP50 float64
	if s.SendLatency != nil {
		sendP50 = s.SendLatency.P50Ms
	}
	return SendRate(s.RecordsAcked, s.Elapsed, s.RecordsPerSec, sendP50) / s.TargetRate, true
}
