package report

import (
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

func TestWindowNote(t *testing.T) {
	// A repeat of 2 s with 4 samples of broker 1 (and host rows, not counted) and 5,000
	// records, another with 6 samples and 7,000: medians 5 samples, 6,000 records.
	rep := func(secs float64, samples int, records int64) results.Repeat {
		r := results.Repeat{Summary: results.Summary{Elapsed: secs, RecordsAcked: records}}
		for i := range samples {
			r.Brokers = append(r.Brokers, results.SeriesRow{T: float64(i) / 2, Broker: "1"},
				results.SeriesRow{T: float64(i) / 2, Broker: results.HostSeries})
		}
		return r
	}
	short := Row{ID: "tps", repeatsForPlot: []results.Repeat{rep(2, 4, 5000), rep(3, 6, 7000)}}
	long := Row{ID: "long", repeatsForPlot: []results.Repeat{rep(10, 20, 500000)}}
	note := windowNote([]Row{short, long})
	if !strings.Contains(note, "tps (2.5 s: 5 broker samples, 6,000 records (a p99.9 needs 10,000))") || strings.Contains(note, "long") {
		t.Errorf("note %q", note)
	}
	if n := windowNote([]Row{long}); n != "" {
		t.Errorf("long window flagged: %q", n)
	}
}
