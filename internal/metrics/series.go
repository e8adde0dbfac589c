// The time series a Sampler records, in the form the run directory stores.

package metrics

import (
	"math"
	"time"
)

// SeriesVersion is the version of the Series JSON format. It changes when a field changes
// meaning or a documented name is removed; adding a field does not change it.
const SeriesVersion = 1

// Series is every row a Sampler recorded during a run: one per interval per broker, and one
// per interval for the host.
type Series struct {
	// Version is SeriesVersion of the writer.
	Version int `json:"version"`
	// IntervalSeconds is the sampling interval.
	IntervalSeconds float64 `json:"interval_seconds"`
	// Brokers holds one series per broker, in the order of SamplerConfig.Brokers.
	Brokers []BrokerSeries `json:"brokers"`
	// Host holds the host rows; empty when the sampler had no /proc.
	Host []Row `json:"host,omitempty"`
	// HostErrors counts intervals where a host file could not be read; HostLastError is the
	// last such error.
	HostErrors    int    `json:"host_errors,omitempty"`
	HostLastError string `json:"host_last_error,omitempty"`
}

// BrokerSeries is the rows of one broker.
type BrokerSeries struct {
	// ID is the broker's node id.
	ID int `json:"id"`
	// CPUAllotment is the CPU cores the broker may use, which FieldCPUPercent is relative to;
	// 0 when unknown.
	CPUAllotment float64 `json:"cpu_allotment,omitempty"`
	// Rows are in time order, one per interval.
	Rows []Row `json:"rows"`
	// Errors counts intervals where /proc or the metrics endpoint could not be read;
	// LastError is the last such error. Such an interval's row lacks that source's fields.
	Errors    int    `json:"errors,omitempty"`
	LastError string `json:"last_error,omitempty"`
}

// Row is one interval's values, keyed by the field names documented in Fields. A field that
// could not be measured is absent.
type Row struct {
	// Time is the end of the interval, From its start: the reading before it, one interval
	// earlier or more after a slow scrape (zero where not known).
	Time time.Time `json:"time"`
	From time.Time `json:"from,omitzero"`
	// Values maps field name to value.
	Values map[string]float64 `json:"values"`
}

// newRow returns an empty row at t.
func newRow(t time.Time) Row { return Row{Time: t, Values: map[string]float64{}} }

// set records a value; NaN and infinities are dropped, since they say nothing was measured
// and JSON cannot carry them.
func (r Row) set(field string, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	r.Values[field] = v
}

// clone returns a deep copy of s, safe to hand out while the sampler keeps appending.
func (s Series) clone() Series {
	c := s
	c.Brokers = make([]BrokerSeries, len(s.Brokers))
	for i, b := range s.Brokers {
		c.Brokers[i] = b
		c.Brokers[i].Rows = cloneRows(b.Rows)
	}
	c.Host = cloneRows(s.Host)
	return c
}

func cloneRows(rows []Row) []Row {
	if rows == nil {
		return nil
	}
	out := make([]Row, len(rows))
	for i, r := range rows {
		out[i] = Row{Time: r.Time, From: r.From, Values: make(map[string]float64, len(r.Values))}
		for k, v := range r.Values {
			out[i].Values[k] = v
		}
	}
	return out
}
