package results

import (
	"math"

	"github.com/kbench/kbench/internal/metrics"
)

// CoordinatorSpan is what the brokers' group coordinators reported over one membership
// event's span (from the event to the next one, or to the last broker sample), read from the
// broker rows. It counts every group the brokers coordinate: on a cluster shared with other
// groups, theirs too.
type CoordinatorSpan struct {
	// Rebalances is the rebalances the coordinators counted in the span (classic groups:
	// completed rebalances; consumer-protocol groups: epoch bumps from members' heartbeats,
	// which on Kafka 4.4.0 leaves a leave or a fencing uncounted), summed over the brokers.
	// A rebalance counts in the span of the sample that first saw it (each row's rate times
	// the interval, rounded: a whole count), so its time is known to the sampling interval.
	// Nil when no row of the span had the field (Kafka before 4.0, or an endpoint without
	// kbench's exporter rules).
	Rebalances *float64 `json:"coordinator_rebalances,omitempty"`
}

// CoordinatorSpans returns one CoordinatorSpan per event start (seconds on the rows' time
// axis, ascending): each span runs to the next start, the last to the last row; a row belongs
// to the span holding its T.
func CoordinatorSpans(rows []SeriesRow, starts []float64, interval float64) []CoordinatorSpan {
	out := make([]CoordinatorSpan, len(starts))
	end := math.Inf(-1)
	for _, r := range rows {
		end = math.Max(end, r.T)
	}
	for i, from := range starts {
		to := end
		if i+1 < len(starts) {
			to = starts[i+1]
		}
		for _, r := range rows {
			v, ok := r.Fields[metrics.FieldGroupRebalancesSec]
			if r.Broker == HostSeries || !ok || r.T <= from || r.T > to {
				continue
			}
			if out[i].Rebalances == nil {
				out[i].Rebalances = new(float64)
			}
			*out[i].Rebalances += math.Round(v * interval)
		}
	}
	return out
}
