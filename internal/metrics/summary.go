// Reducing a window of a Series to mean, max and p95 per field.

package metrics

import (
	"math"
	"sort"
	"time"
)

// Stat summarises one field over a window.
type Stat struct {
	// Mean, Max and P95 are over the rows of the window that hold the field. P95 is the
	// nearest-rank 95th percentile.
	Mean float64 `json:"mean"`
	Max  float64 `json:"max"`
	P95  float64 `json:"p95"`
	// Samples is the number of rows that held the field.
	Samples int `json:"samples"`
}

// Summary is a Series reduced over a window.
type Summary struct {
	// From and To bound the window (zero: unbounded).
	From time.Time `json:"from"`
	To   time.Time `json:"to"`
	// Brokers are in the order of the series.
	Brokers []BrokerSummary `json:"brokers"`
	// Host maps host field names to their statistics; empty without host rows.
	Host map[string]Stat `json:"host,omitempty"`
}

// BrokerSummary is one broker's statistics.
type BrokerSummary struct {
	// ID is the broker's node id.
	ID int `json:"id"`
	// CPUAllotment is copied from the series; 0 when unknown.
	CPUAllotment float64 `json:"cpu_allotment,omitempty"`
	// Rows is the number of rows in the window.
	Rows int `json:"rows"`
	// Fields maps field names to their statistics.
	Fields map[string]Stat `json:"fields"`
}

// Summarize reduces the rows whose Time is within [from, to] (a zero bound is open) to a Stat
// per field, per broker and for the host.
func (s Series) Summarize(from, to time.Time) Summary {
	sum := Summary{From: from, To: to}
	for _, b := range s.Brokers {
		rows := window(b.Rows, from, to)
		sum.Brokers = append(sum.Brokers, BrokerSummary{
			ID: b.ID, CPUAllotment: b.CPUAllotment, Rows: len(rows), Fields: summarizeRows(rows),
		})
	}
	if host := window(s.Host, from, to); len(host) > 0 {
		sum.Host = summarizeRows(host)
	}
	return sum
}

// BrokerTotal returns the sum over brokers of the field's mean, and how many brokers had it:
// for example the cluster's BytesInPerSec.
func (s Summary) BrokerTotal(field string) (total float64, brokers int) {
	for _, b := range s.Brokers {
		if st, ok := b.Fields[field]; ok {
			total += st.Mean
			brokers++
		}
	}
	return total, brokers
}

func window(rows []Row, from, to time.Time) []Row {
	var out []Row
	for _, r := range rows {
		if (!from.IsZero() && r.Time.Before(from)) || (!to.IsZero() && r.Time.After(to)) {
			continue
		}
		out = append(out, r)
	}
	return out
}

func summarizeRows(rows []Row) map[string]Stat {
	values := map[string][]float64{}
	for _, r := range rows {
		for k, v := range r.Values {
			values[k] = append(values[k], v)
		}
	}
	out := make(map[string]Stat, len(values))
	for k, vs := range values {
		out[k] = newStat(vs)
	}
	return out
}

// newStat computes the statistics of vs, which it sorts; vs is not empty.
func newStat(vs []float64) Stat {
	sort.Float64s(vs)
	total := 0.0
	for _, v := range vs {
		total += v
	}
	// Nearest rank: the smallest value with at least 95% of the values at or below it.
	rank := int(math.Ceil(0.95*float64(len(vs)))) - 1
	return Stat{
		Mean:    total / float64(len(vs)),
		Max:     vs[len(vs)-1],
		P95:     vs[max(rank, 0)],
		Samples: len(vs),
	}
}
