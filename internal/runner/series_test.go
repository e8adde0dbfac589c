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
