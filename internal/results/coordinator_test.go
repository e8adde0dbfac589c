package results

import (
	"math"
	"testing"

	"github.com/kbench/kbench/internal/metrics"
)

func TestCoordinatorSpans(t *testing.T) {
	row := func(T float64, broker string, rate float64) SeriesRow {
		return SeriesRow{T: T, Broker: broker, Fields: map[string]float64{metrics.FieldGroupRebalancesSec: rate}}
	}
	// Two brokers sampled every 0.5 s; broker 1 counts rebalances at 2/s in (0.5, 1.5],
	// broker 2 at 4/s in (1.5, 2.0]. The host row's field must not count.
	rows := []SeriesRow{
		row(0.5, "1", 0), row(0.5, "2", 0),
		row(1.0, "1", 2), row(1.0, "2", 0), {T: 1.0, Broker: HostSeries, Fields: map[string]float64{metrics.FieldGroupRebalancesSec: 100}},
		row(1.5, "1", 2), row(1.5, "2", 0),
		row(2.0, "1", 0), row(2.0, "2", 4),
		row(2.5, "1", 0), row(2.5, "2", 0),
	}
	// By hand. Span [0.8, 1.75]: the row at 1.0 overlaps 0.2 s (2/s: 0.4), at 1.5 0.5 s (1.0),
	// at 2.0 0.25 s (broker 2's 4/s: 1.0): 2.4. Span [1.75, 2.5]: the row at 2.0 overlaps
	// 0.25 s (1.0), at 2.5 0.5 s (0): 1.0.
	got := CoordinatorSpans(rows, []float64{0.8, 1.75}, 0.5)
	for i, want := range []float64{2.4, 1.0} {
		if g := got[i].Rebalances; g == nil || math.Abs(*g-want) > 1e-9 {
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
