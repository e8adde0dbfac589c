package study

import (
	"fmt"
	"time"
)

// What a measured window needs to measure what the report shows of it.
const (
	// MinBrokerSamples is how many broker samples a window needs for its CPU, disk and
	// network figures and their chart over time: with fewer, one sample's phase against the
	// window moves the average by more than a tenth.
	MinBrokerSamples = 10
	// MinPercentileRecords is how many records a window needs for its p99.9: 10,000 put 10
	// records beyond it, so that it is not one record's latency.
	MinPercentileRecords = 10_000
	// BrokerSampleInterval is how often broker metrics are sampled during a run.
	BrokerSampleInterval = 500 * time.Millisecond
)

// ShortWindow says why the scenario's measured window is too short for what it measures,
// from its plan (records or duration, rate, and the throughput the estimate assumes for an
// unthrottled count); "" when it is long enough.
func (s Scenario) ShortWindow() string {
	d := s.MeasuredDuration()
	var why []string
	if d > 0 && d < MinBrokerSamples*BrokerSampleInterval {
		why = append(why, fmt.Sprintf("about %v measured: fewer than %d broker samples (one every %v)", d.Round(100*time.Millisecond), MinBrokerSamples, BrokerSampleInterval))
	}
	if n := s.measuredRecords(d); n > 0 && n < MinPercentileRecords {
		why = append(why, fmt.Sprintf("about %d records measured: p99.9 needs %d", n, MinPercentileRecords))
	}
	if len(why) == 0 {
		return ""
	}
	return joinReasons(why)
}

// measuredRecords is the scenario's records in its window: its count, or its rate times
// its duration; 0 when unknown (unthrottled for a duration).
func (s Scenario) measuredRecords(d time.Duration) int64 {
	switch {
	case s.Producers.Count > 0 && s.Producers.Records > 0:
		return s.Producers.Records
	case s.Producers.Count > 0 && s.Producers.PacedRate() > 0:
		return int64(float64(s.Producers.PacedRate()) * d.Seconds())
	case s.Producers.Count == 0 && s.Consumers.Records > 0:
		return s.Consumers.Records
	}
	return 0
}

func joinReasons(why []string) string {
	s := why[0]
	for _, w := range why[1:] {
		s += "; " + w
	}
	return s
}
