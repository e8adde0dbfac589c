package report

import (
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// windowRepeat is a repeat of secs seconds holding samples rows of broker 1 (and as many
// host rows, which do not count) and acked records.
func windowRepeat(secs float64, samples int, acked int64) results.Repeat {
	r := results.Repeat{Summary: results.Summary{Elapsed: secs, RecordsAcked: acked}}
	for i := range samples {
		r.Brokers = append(r.Brokers, results.SeriesRow{T: float64(i) / 2, Broker: "1"},
			results.SeriesRow{T: float64(i) / 2, Broker: results.HostSeries})
	}
	return r
}

func TestRowWindowShortfalls(t *testing.T) {
	tests := []struct {
		name    string
		kind    string
		repeats []results.Repeat
		want    string
	}{
		{"long enough", "produce", []results.Repeat{windowRepeat(10, 20, 500_000)}, ""},
		// medians: samples 4, 6 -> 5; records 5,000, 7,000 -> 6,000
		{"short on both", "produce", []results.Repeat{windowRepeat(2, 4, 5000), windowRepeat(3, 6, 7000)},
			"5 of the 10 broker samples needed, 6,000 of the 10,000 records a p99.9 needs"},
		// exactly the minimums pass
		{"at the minimums", "produce", []results.Repeat{windowRepeat(5, 10, 10_000)}, ""},
		// a consumer's read reports no latency percentiles; its broker samples still count
		{"consume only", "consume", []results.Repeat{windowRepeat(1, 2, 50_000)}, "2 of the 10 broker samples needed"},
		// without broker metrics there are no samples to judge
		{"no broker metrics", "produce", []results.Repeat{windowRepeat(1, 0, 20_000)}, ""},
		{"no valid repeat", "produce", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rowWindowShortfalls(Row{ID: "s", Kind: tt.kind, repeatsForPlot: tt.repeats})
			if got != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestWindowNote(t *testing.T) {
	short := Row{ID: "tps", Kind: "produce", repeatsForPlot: []results.Repeat{windowRepeat(2, 4, 5000), windowRepeat(3, 6, 7000)}}
	long := Row{ID: "long", Kind: "produce", repeatsForPlot: []results.Repeat{windowRepeat(10, 20, 500_000)}}
	want := "Measured windows too short for what they measure: tps (2.5 s: 5 of the 10 broker samples needed, 6,000 of the 10,000 records a p99.9 needs). " +
		"Their broker figures rest on few samples and their p99.9 on few records; lengthen the scenarios' records or duration."
	if got := windowNote([]Row{long, short}); got != want {
		t.Errorf("note\n got %q\nwant %q", got, want)
	}
	if got := windowNote([]Row{long}); got != "" {
		t.Errorf("long window flagged: %q", got)
	}
}
