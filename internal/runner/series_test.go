package runner

import (
	"testing"
	"time"

	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/results"
)

// The brokers' own Produce request time reaches the repeat's broker summary, where the
// report reads it beside the client's latency.
func TestSeriesRowsKeepProduceTime(t *testing.T) {
	start := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	row := func(s int, p50, p99 float64) metrics.Row {
		return metrics.Row{Time: start.Add(time.Duration(s) * time.Second),
			Values: map[string]float64{metrics.FieldProduceTimeP50: p50, metrics.FieldProduceTimeP99: p99}}
	}
	series := metrics.Series{Brokers: []metrics.BrokerSeries{{ID: 1, Rows: []metrics.Row{row(1, 2, 10), row(2, 4, 20)}}}}
	sum := results.Summarize(seriesRows(series, start, start.Add(2*time.Second)))
	if len(sum) != 1 || sum[0].Broker != "1" {
		t.Fatalf("summary %+v", sum)
	}
	// Means over the window's two rows: p50 (2+4)/2 = 3, p99 (10+20)/2 = 15.
	if got := sum[0].Fields[results.FieldProduceTimeP50].Mean; got != 3 {
		t.Errorf("Produce p50 mean %v, want 3", got)
	}
	if got := sum[0].Fields[results.FieldProduceTimeP99].Mean; got != 15 {
		t.Errorf("Produce p99 mean %v, want 15", got)
	}
}

// A window shorter than one interval keeps the row that covers it, also when a slow scrape
// made that row longer than an interval: readings at 0 s, then 2.5 s (the one due at 1 s
// waited on a scrape), cover a window from 0.5 s to 0.525 s; a row at 1 s covers 0-1 s. The
// first row's start is the sampler's first reading (Row.From), which made no row.
func TestSeriesRowsCoverAShortWindow(t *testing.T) {
	start := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	at := func(ms int) metrics.Row {
		return metrics.Row{Time: start.Add(time.Duration(ms) * time.Millisecond), Values: map[string]float64{"cpu_cores": 1}}
	}
	from := func(r metrics.Row, ms int) metrics.Row {
		r.From = start.Add(time.Duration(ms) * time.Millisecond)
		return r
	}
	for _, tt := range []struct {
		name string
		rows []metrics.Row
		want []float64 // T of the rows kept, seconds since the window began
	}{
		{"on time", []metrics.Row{at(0), at(1000), at(2000)}, []float64{0.5}},
		{"after a slow scrape", []metrics.Row{at(0), at(2500), at(3500)}, []float64{2}},
		{"first row after a slow scrape, its start unknown", []metrics.Row{at(2500)}, nil},
		{"first row after a slow first scrape", []metrics.Row{from(at(2500), 0)}, []float64{2}},
	} {
		series := metrics.Series{Brokers: []metrics.BrokerSeries{{ID: 1, Rows: tt.rows}}}
		var got []float64
		for _, r := range seriesRows(series, start.Add(500*time.Millisecond), start.Add(525*time.Millisecond)) {
			got = append(got, r.T)
		}
		if len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
			t.Errorf("%s: rows at %v, want %v", tt.name, got, tt.want)
		}
	}
}
