package results

import (
	"testing"

	"github.com/kbench/kbench/internal/metrics"
)

func TestCoordinatorSpans(t *testing.T) {
	row := func(T float64, broker string, rate float64) SeriesRow {
		return SeriesRow{T: T, Broker: broker, Fields: map[string]float64{metrics.FieldGroupRebalancesSec: rate}}
	}
	// Two brokers sampled every 0.5 s; broker 1 saw a rebalance in each of (0.5, 1.0] and
	// (1.0, 1.5] (2/s), broker 2 two in (1.5, 2.0] (4/s). The host row's field must not count.
	rows := []SeriesRow{
		row(0.5, "1", 0), row(0.5, "2", 0),
		row(1.0, "1", 2), row(1.0, "2", 0), {T: 1.0, Broker: HostSeries, Fields: map[string]float64{metrics.FieldGroupRebalancesSec: 100}},
		row(1.5, "1", 2), row(1.5, "2", 0),
		row(2.0, "1", 0), row(2.0, "2", 4),
		row(2.5, "1", 0), row(2.5, "2", 0),
	}
	// By hand, a row counting in the span that holds its T, rate x 0.5 s rounded. Span
	// (0.8, 1.75]: the rows at 1.0 (1) and 1.5 (1): 2. Span (1.75, 2.5]: broker 2's row at
	// 2.0 (2): 2. A rate off by sampling jitter (1.9/s for one rebalance in 0.526 s) still
	// counts one.
	rows = append(rows, row(3.0, "1", 1.9))
	got := CoordinatorSpans(rows, []float64{0.8, 1.75, 2.6}, 0.5)
	for i, want := range []float64{2, 2, 1} {
		if g := got[i].Rebalances; g == nil || *g != want {
			t.Errorf("span %d: %v rebalances, want %v", i, g, want)
		}
	}
	// Without the group coordinator's field (Kafka before 4.0), no figure rather than 0.
	plain := []SeriesRow{{T: 1, Broker: "1", Fields: map[string]float64{metrics.FieldCPUCores: 1}}}
	if g := CoordinatorSpans(plain, []float64{0}, 0.5)[0]; g.Rebalances != nil {
		t.Errorf("without the field: %v, want nil", *g.Rebalances)
	}
	// A span with the field and no rebalance reads 0, not absent.
	if g := CoordinatorSpans([]SeriesRow{row(1, "1", 0)}, []float64{0}, 0.5)[0]; g.Rebalances == nil || *g.Rebalances != 0 {
		t.Errorf("quiet span: %v, want 0", g.Rebalances)
	}
}
