package metrics

import (
	"testing"
	"time"
)

func TestSummarize(t *testing.T) {
	t0 := time.Unix(1000, 0)
	rows := func(field string, values ...float64) []Row {
		var out []Row
		for i, v := range values {
			r := newRow(t0.Add(time.Duration(i) * time.Second))
			r.set(field, v)
			out = append(out, r)
		}
		return out
	}
	// 20 rows 1..20: mean 10.5, max 20, nearest-rank p95 is the 19th value.
	var twenty []float64
	for i := 1; i <= 20; i++ {
		twenty = append(twenty, float64(i))
	}
	s := Series{
		Brokers: []BrokerSeries{
			{ID: 1, CPUAllotment: 2, Rows: rows(FieldCPUCores, twenty...)},
			{ID: 2, Rows: rows(FieldBytesInSec, 100, 300, 200)},
		},
		Host: rows(FieldHostLoad1, 1, 2, 3),
	}
	for _, tc := range []struct {
		name     string
		from, to time.Time
		broker   int
		field    string
		want     Stat
	}{
		{"all rows", time.Time{}, time.Time{}, 0, FieldCPUCores, Stat{Mean: 10.5, Max: 20, P95: 19, Samples: 20}},
		// Rows at t0+1s .. t0+2s, both ends included: 2 and 3.
		{"window", t0.Add(time.Second), t0.Add(2 * time.Second), 0, FieldCPUCores, Stat{Mean: 2.5, Max: 3, P95: 3, Samples: 2}},
		{"three rows", time.Time{}, time.Time{}, 1, FieldBytesInSec, Stat{Mean: 200, Max: 300, P95: 300, Samples: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sum := s.Summarize(tc.from, tc.to)
			if got := sum.Brokers[tc.broker].Fields[tc.field]; got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	sum := s.Summarize(time.Time{}, time.Time{})
	if total, n := sum.BrokerTotal(FieldBytesInSec); total != 200 || n != 1 {
		t.Errorf("BrokerTotal = %v over %d brokers, want 200 over 1", total, n)
	}
	if got := sum.Host[FieldHostLoad1]; got.Mean != 2 || got.Max != 3 {
		t.Errorf("host load1 %+v, want mean 2 max 3", got)
	}
	if sum.Brokers[0].CPUAllotment != 2 || sum.Brokers[0].Rows != 20 {
		t.Errorf("broker 1 summary %+v", sum.Brokers[0])
	}
}
