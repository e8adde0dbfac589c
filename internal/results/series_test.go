package results

import (
	"reflect"
	"testing"
)

func TestSummarize(t *testing.T) {
	var rows []SeriesRow
	// broker 1 uses 1..20 cores over 20 samples; broker 2 is constant; host appears last.
	for i := 1; i <= 20; i++ {
		rows = append(rows,
			SeriesRow{T: float64(i), Broker: "1", Fields: map[string]float64{FieldCPUCores: float64(i)}},
			SeriesRow{T: float64(i), Broker: "2", Fields: map[string]float64{FieldCPUCores: 0.5}},
		)
	}
	rows = append(rows, SeriesRow{T: 1, Broker: HostSeries, Fields: map[string]float64{FieldCPUPct: 40}})
	got := Summarize(rows)
	want := []BrokerSummary{
		{Broker: "1", Fields: map[string]Stats{FieldCPUCores: {Mean: 10.5, Max: 20, P95: 19}}},
		{Broker: "2", Fields: map[string]Stats{FieldCPUCores: {Mean: 0.5, Max: 0.5, P95: 0.5}}},
		{Broker: HostSeries, Fields: map[string]Stats{FieldCPUPct: {Mean: 40, Max: 40, P95: 40}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Summarize = %+v\nwant %+v", got, want)
	}
	if got := Summarize(nil); len(got) != 0 {
		t.Errorf("Summarize(nil) = %v", got)
	}
}
