package results

import (
	"math"
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

func TestSummarizeWindow(t *testing.T) {
	// Rows ending at 1, 2, 3 cover [0,1), [1,2), [2,3); the window [0.5, 2.2) covers 0.5 s
	// of the first, all of the second and 0.2 s of the third:
	// mean = (10*0.5 + 20*1 + 30*0.2) / (0.5+1+0.2) = 31/1.7 = 18.2352...
	rows := []SeriesRow{
		{T: 1, Broker: "1", Fields: map[string]float64{FieldCPUCores: 10}},
		{T: 2, Broker: "1", Fields: map[string]float64{FieldCPUCores: 20}},
		{T: 3, Broker: "1", Fields: map[string]float64{FieldCPUCores: 30}},
		// Outside the window: [3,4) must not count at all, not even in max.
		{T: 4, Broker: "1", Fields: map[string]float64{FieldCPUCores: 99}},
	}
	got := SummarizeWindow(rows, 0.5, 2.2, 1)
	st := got[0].Fields[FieldCPUCores]
	if want := 31 / 1.7; len(got) != 1 || math.Abs(st.Mean-want) > 1e-9 || st.Max != 30 {
		t.Errorf("SummarizeWindow = %+v, want mean %v (31/1.7) and max 30", got, want)
	}
	// A late row after a slow scrape covers from the previous row: [1, 2.5) over the
	// window [0, 2): weights 1 and 1, mean (10+20)/2 = 15.
	late := []SeriesRow{
		{T: 1, Broker: "1", Fields: map[string]float64{FieldCPUCores: 10}},
		{T: 2.5, Broker: "1", Fields: map[string]float64{FieldCPUCores: 20}},
	}
	if st := SummarizeWindow(late, 0, 2, 1)[0].Fields[FieldCPUCores]; st.Mean != 15 {
		t.Errorf("late row: mean %v, want 15 ((10*1 + 20*1)/2)", st.Mean)
	}
}
