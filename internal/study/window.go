package study

import (
	"fmt"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/numfmt"
)

// What a measured window needs to measure what the report shows of it. The report applies
// the same rule (WindowShortfalls) to a run's own figures.
const (
	// MinBrokerSamples is how many broker samples a window needs for its CPU, disk and
	// network figures and their chart over time. A window's first and last samples cover
	// only part of it, so with n samples the window mean can move by up to about 1/n of a
	// sample's swing with where the window falls between samples: under a tenth from 10 on.
	MinBrokerSamples = 10
	// MinPercentileRecords is how many latencies a window needs for the highest percentile
	// the report gives, p99.9: a share q of n records lies beyond a q-quantile, and 10,000
	// records put 10 beyond p99.9. The count beyond it varies like a Poisson count, by about
	// 1/sqrt(10) = 32%; with fewer records the p99.9 is one or two records' latency, close
	// to the maximum.
	MinPercentileRecords = 10_000
	// BrokerSampleInterval is how often broker metrics are sampled during a run.
	BrokerSampleInterval = 500 * time.Millisecond
)

// Window is what a scenario's measured window is expected to hold, estimated from its plan.
type Window struct {
	// Length is the window's estimated length: its duration, or its measured records at
	// the paced rate (at EstimateBytesPerSec when unthrottled).
	Length time.Duration
	// Samples is how many broker samples fall in it.
	Samples int
	// Records is how many produced records' latencies it measures; 0 when the scenario
	// does not produce (a consumer's read reports no latency percentiles).
	Records int64
	// Assumed is the records/s the estimate assumed for a count (EstimateBytesPerSec, or a
	// paced rate above it); 0 when the length is a duration or an attainable paced rate's.
	Assumed float64
}

// Window estimates the scenario's measured window, without its warm-up (warm) and, for a
// consume-only scenario, without the unmeasured fill of its topic.
func (s Scenario) Window(warm time.Duration) Window {
	var w Window
	if p := s.Producers; p.Count > 0 {
		perSec := estimatedRate(p.PacedRate(), p.RecordSize)
		if p.Records > 0 {
			w.Records = p.Records - WarmupRecords(p.Records, float64(p.PacedRate()), warm)
			w.Length = secondsOf(float64(w.Records) / perSec)
			if perSec < float64(p.PacedRate()) || p.PacedRate() == 0 {
				w.Assumed = perSec
			}
		} else {
			w.Length = p.Duration
			w.Records = int64(perSec * p.Duration.Seconds())
		}
	}
	if c := s.Consumers; c.Count > 0 {
		d := c.Duration
		if c.Records > 0 {
			perSec := estimatedRate(0, s.Producers.RecordSize)
			d = secondsOf(float64(c.Records) / perSec)
			if d > w.Length {
				w.Assumed = perSec
			}
		}
		if d > w.Length {
			w.Length = d
		}
	}
	w.Samples = int(w.Length / BrokerSampleInterval)
	return w
}

// WarmupRecords is how many of a record count are the warm-up, sent and discarded before the
// measured window: what the paced rate sends in the warm-up (at most half the count), or a
// tenth of the count when unthrottled; 0 without a warm-up.
func WarmupRecords(records int64, rate float64, warm time.Duration) int64 {
	switch {
	case records <= 0 || warm <= 0:
		return 0
	case rate > 0:
		return min(int64(rate*warm.Seconds()), records/2)
	}
	return records / 10
}

// estimatedRate is the records/s a plan's estimate assumes: the paced rate, capped by
// EstimateBytesPerSec, which is also the rate of an unthrottled load.
func estimatedRate(paced, recordSize int) float64 {
	perSec := float64(EstimateBytesPerSec) / float64(max(recordSize, 1))
	if paced > 0 {
		perSec = min(perSec, float64(paced))
	}
	return perSec
}

func secondsOf(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// WindowShortfalls says why a window of samples broker samples and records latencies is too
// short for what it measures (nil when it is long enough); records 0 means the window
// measures no latency.
func WindowShortfalls(samples int, records int64) []string {
	var why []string
	if samples < MinBrokerSamples {
		why = append(why, fmt.Sprintf("%d of the %d broker samples needed", samples, MinBrokerSamples))
	}
	if records > 0 && records < MinPercentileRecords {
		why = append(why, fmt.Sprintf("%s of the %s records a p99.9 needs", numfmt.Whole(float64(records)), numfmt.Whole(MinPercentileRecords)))
	}
	return why
}

// ShortWindow says why the scenario's measured window, as the plan estimates it, is too
// short for what it measures; "" when it is long enough. A count's window is estimated at
// an assumed rate, which the reason then names: a load slower than that lasts longer, and
// the report judges the window actually measured.
func (p *Plan) ShortWindow(s Scenario) string {
	w := s.Window(p.Warmup)
	why := WindowShortfalls(w.Samples, w.Records)
	if len(why) == 0 {
		return ""
	}
	at := ""
	if w.Assumed > 0 {
		// a count's window is only as long as the assumed rate says; slower loads last longer
		at = fmt.Sprintf(" at the estimate's %s records/s", numfmt.Whole(w.Assumed))
	}
	return fmt.Sprintf("about %v measured%s, a broker sample every %v: %s", w.Length.Round(100*time.Millisecond), at, BrokerSampleInterval, strings.Join(why, ", "))
}
