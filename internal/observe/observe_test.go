package observe

import (
	"context"
	"slices"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

// TestLatencyMetricBuckets converts 10 x 300 µs, 5 x 1 ms and 1 x 2 ms; the expected figures
// are worked out by hand: log2(0.0003)*8 = -93.6, log2(0.001)*8 = -79.7, log2(0.002)*8 = -71.7,
// so the native buckets are -93, -79 and -71 (each holds (2^((i-1)/8), 2^(i/8)]).
func TestLatencyMetricBuckets(t *testing.T) {
	h := metrics.NewHistogram()
	for range 10 {
		h.Record(300 * time.Microsecond)
	}
	for range 5 {
		h.Record(time.Millisecond)
	}
	h.Record(2 * time.Millisecond)
	var m dto.Metric
	if err := newLatencyMetric(descDue, h, "s", "sc", "1", RoleProducer, "").Write(&m); err != nil {
		t.Fatal(err)
	}
	got := m.Histogram
	if got.GetSampleCount() != 16 {
		t.Errorf("count %d, want 16", got.GetSampleCount())
	}
	if sum := got.GetSampleSum(); sum < 0.00999 || sum > 0.01001 {
		t.Errorf("sum %g, want 0.010", sum)
	}
	wantClassic := map[float64]uint64{0.0005: 10, 0.001: 15, 0.0025: 16, 60: 16}
	for _, b := range got.Bucket {
		if want, ok := wantClassic[b.GetUpperBound()]; ok && b.GetCumulativeCount() != want {
			t.Errorf("le %g: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), want)
		}
	}
	type span struct {
		offset int32
		length uint32
	}
	wantSpans := []span{{-93, 1}, {13, 1}, {7, 1}} // -93, then -92+13 = -79, then -78+7 = -71
	wantDeltas := []int64{10, -5, -4}
	if len(got.PositiveSpan) != len(wantSpans) {
		t.Fatalf("spans %v, want %v", got.PositiveSpan, wantSpans)
	}
	for i, s := range got.PositiveSpan {
		if (span{s.GetOffset(), s.GetLength()}) != wantSpans[i] || got.PositiveDelta[i] != wantDeltas[i] {
			t.Errorf("span %d: %v delta %d, want %v delta %d", i, s, got.PositiveDelta[i], wantSpans[i], wantDeltas[i])
		}
	}
	if got.GetSchema() != 3 || got.GetZeroCount() != 0 {
		t.Errorf("schema %d zero count %d, want 3 and 0", got.GetSchema(), got.GetZeroCount())
	}
}

func TestNativeIndexBounds(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want int
	}{{1, 0}, {0.5, -8}, {2, 8}, {1.05, 1}, {0.0003, -93}, {0.001, -79}} {
		if got := nativeIndex(tc.v); got != tc.want {
			t.Errorf("nativeIndex(%g) = %d, want %d", tc.v, got, tc.want)
		}
	}
}

// TestFinalFiguresReplaceTicks: ticks carry running totals, and the result replaces them, so
// the last scrape shows what kbench prints.
func TestFinalFiguresReplaceTicks(t *testing.T) {
	s := New()
	s.Begin(Scenario{ID: "produce", Offered: 1000})
	tick := metrics.NewHistogram()
	tick.Record(time.Millisecond)
	s.ProduceTick(load.Tick{Acked: 5, TotalAcked: 5, TotalFailed: 1, RecordsPerSec: 900, DueHistogram: tick, Buffered: 40, BufferedBytes: 4096}, nil)
	if b, bb := gaugeValue(t, s, "kbench_producer_buffered_records"), gaugeValue(t, s, "kbench_producer_buffered_bytes"); b != 40 || bb != 4096 {
		t.Errorf("buffered gauges %g records, %g bytes during the run; want the tick's 40 and 4096", b, bb)
	}
	// A scrape between the tick and the result: the histogram converted then must not be
	// served again once the result replaced it.
	if n := dueCount(t, s); n != 1 {
		t.Errorf("due latencies after the tick: %d, want 1", n)
	}
	total := metrics.NewHistogram()
	for range 7 {
		total.Record(time.Millisecond)
	}
	s.Produced(&load.ProduceResult{Unsent: 3, Total: load.ProduceStats{Acked: 7, Failed: 2, Bytes: 70, DueHistogram: total}})
	families, err := s.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"kbench_records_acknowledged_total": 7, "kbench_records_failed_total": 2, "kbench_records_sent_total": 9,
		"kbench_records_unsent_total": 3, "kbench_acknowledged_bytes_total": 70,
		"kbench_offered_records_per_second": 1000, "kbench_achieved_records_per_second": 900,
		"kbench_due_latency_seconds": 7, // the histogram's count
	}
	seen := map[string]bool{}
	for _, f := range families {
		name := f.GetName()
		w, ok := want[name]
		if !ok {
			continue
		}
		seen[name] = true
		m := f.Metric[0]
		var got float64
		switch {
		case m.Counter != nil:
			got = m.Counter.GetValue()
		case m.Gauge != nil:
			got = m.Gauge.GetValue()
		case m.Histogram != nil:
			got = float64(m.Histogram.GetSampleCount())
		}
		if got != w {
			t.Errorf("%s = %g, want %g", name, got, w)
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("%s not exposed", name)
		}
	}
	if b := gaugeValue(t, s, "kbench_producer_buffered_records"); b != 0 {
		t.Errorf("%g records still buffered after the result", b)
	}
	// Unchanged since, the stream's histograms are not converted again.
	st := s.streams[s.key(RoleProducer)]
	first := st.cached[0]
	if dueCount(t, s); st.cached[0] != first {
		t.Error("an unchanged histogram was converted again")
	}
	if st := s.Snapshot(0); len(st.Points) != 1 || st.Points[0].Achieved != 900 || st.Unsent != 3 {
		t.Errorf("snapshot %+v, want one point at 900 records/s and 3 unsent", st)
	}
}

func TestNilSeriesIgnoresCalls(t *testing.T) {
	var s *Series
	s.Begin(Scenario{})
	s.ProduceTick(load.Tick{}, nil)
	s.Produced(&load.ProduceResult{})
	s.End("complete", "")
	if s.Ended() {
		t.Error("a nil series ended")
	}
}

// fakeDriver acknowledges acked records per trial, with one tick half way.
type fakeDriver struct{ acked []int64 }

func (f *fakeDriver) Close() {}

func (f *fakeDriver) Trial(_ context.Context, _ load.Schedule, tick func(load.Tick)) (*load.ProduceResult, error) {
	n := f.acked[0]
	f.acked = f.acked[1:]
	h := metrics.NewHistogram()
	for range n / 2 {
		h.Record(time.Millisecond)
	}
	tick(load.Tick{Acked: n / 2, TotalAcked: n / 2, DueHistogram: h})
	total := metrics.NewHistogram()
	for range n {
		total.Record(time.Millisecond)
	}
	return &load.ProduceResult{Sent: n, Total: load.ProduceStats{Acked: n, DueHistogram: total}}, nil
}

// TestDriverAddsTrialsUp: a search's trials on one driver add up in its stream, so the
// counter only grows: 100, then 100 + 30/2 at the second trial's tick, then 130.
func TestDriverAddsTrialsUp(t *testing.T) {
	s := New()
	s.Begin(Scenario{ID: "capacity"})
	var seen []int64
	d := s.Driver(&fakeDriver{acked: []int64{100, 30}})
	for range 2 {
		if _, err := d.Trial(context.Background(), load.Schedule{Warmup: time.Second}, func(load.Tick) {
			seen = append(seen, s.streams[s.key(RoleProducer)].total().acked)
		}); err != nil {
			t.Fatal(err)
		}
	}
	total := s.streams[s.key(RoleProducer)].total()
	if want := []int64{50, 115}; !slices.Equal(seen, want) || total.acked != 130 || total.due.Count() != 130 {
		t.Errorf("ticks saw %v, end %d acknowledged and %d latencies; want %v and 130", seen, total.acked, total.due.Count(), want)
	}
	if (*Series)(nil).Driver(d) != d {
		t.Error("a nil series must hand the driver back unchanged")
	}
}

// TestTrialsAndMarks: a trial passes only when every SLO passed; faults count and mark the
// time axis, their healing marks it only.
func TestTrialsAndMarks(t *testing.T) {
	s := New()
	for _, tr := range []capacity.Trial{
		{N: 1, Offered: 0, Achieved: 9000, P99: 80 * time.Millisecond, Pass: []bool{false, true}},
		{N: 2, Offered: 4000, Achieved: 4000, P99: 5 * time.Millisecond, Pass: []bool{true, true}},
		{N: 3, Offered: 6000, Achieved: 5000, P99: 60 * time.Millisecond, Pass: nil},
	} {
		s.CapacityTrial(tr)
	}
	s.Fault("1.0s fault leader-kill: broker 2")
	s.ProduceTick(load.Tick{}, nil)
	if p := s.Snapshot(0).Status.Phase; p != "fault" {
		t.Errorf("phase %q while a fault is applied, want fault", p)
	}
	s.Healed("4.0s healed leader-kill: broker 2")
	s.ProduceTick(load.Tick{}, nil)
	if p := s.Snapshot(0).Status.Phase; p != "measured" {
		t.Errorf("phase %q once healed, want measured", p)
	}
	st := s.Snapshot(0)
	var pass []bool
	for _, tr := range st.Trials {
		pass = append(pass, tr.Pass)
	}
	if !slices.Equal(pass, []bool{false, true, false}) || st.Trials[1].P99 != 5 {
		t.Errorf("trials %+v, want pass false, true, false and trial 2's p99 5 ms", st.Trials)
	}
	if len(st.Marks) != 2 || st.Marks[0].Kind != "fault" || st.Marks[1].Kind != "healed" || s.faults != 1 {
		t.Errorf("marks %+v, %d faults; want a fault then its healing, 1 fault", st.Marks, s.faults)
	}
}

// TestAgentTicks: an agent's own ticks add up under its name beside the merged stream, and
// its rate is its interval's acknowledgements per second.
func TestAgentTicks(t *testing.T) {
	s := New()
	s.Begin(Scenario{ID: "sc", Repeat: 1})
	s.AgentTick("a", 500, 1, 5000, time.Second)
	s.AgentTick("a", 300, 0, 3000, 500*time.Millisecond)
	s.AgentTick("b", 100, 0, 1000, 0) // no interval: ignored
	k := s.key(RoleProducer)
	k.Agent = "a"
	st := s.streams[k]
	if f := st.total(); f.acked != 800 || f.failed != 1 || f.bytes != 8000 || st.achieved != 600 {
		t.Errorf("agent a: %d acknowledged, %d failed, %d bytes, %v records/s; want 800, 1, 8000, 600", f.acked, f.failed, f.bytes, st.achieved)
	}
	if len(s.streams) != 1 {
		t.Errorf("%d streams, want agent a's only", len(s.streams))
	}
}

func TestStatusClusterGroupAndScenario(t *testing.T) {
	s := New()
	s.ClusterGroup("2 of 3: 1 broker")
	s.Begin(Scenario{Study: "st", Index: 1, Scenarios: 4, ID: "b", Repeat: 2, Repeats: 3, Expected: time.Hour})
	st := s.Snapshot(0).Status
	if st.Group != "2 of 3: 1 broker" || st.Index != 2 || st.Scenarios != 4 || st.Repeat != 2 || st.Repeats != 3 || st.Phase != "starting" {
		t.Errorf("status %+v", st)
	}
	if st.ScenarioLeftSeconds <= 0 || st.ScenarioLeftSeconds > 3600 {
		t.Errorf("scenario left %v s, want within the hour planned", st.ScenarioLeftSeconds)
	}
}

func dueCount(t *testing.T, s *Series) uint64 {
	t.Helper()
	families, err := s.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == "kbench_due_latency_seconds" {
			return f.Metric[0].GetHistogram().GetSampleCount()
		}
	}
	t.Fatal("no kbench_due_latency_seconds")
	return 0
}

// gaugeValue is the first sample of the gauge name that s exposes.
func gaugeValue(t *testing.T, s *Series, name string) float64 {
	t.Helper()
	families, err := s.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() == name {
			return f.Metric[0].GetGauge().GetValue()
		}
	}
	t.Fatalf("%s not exposed", name)
	return 0
}

// TestShareConsumedCountsDeliveries: a share run's deliveries (redeliveries included, as
// Kafka's share tool counts them) are its consumed records.
func TestShareConsumedCountsDeliveries(t *testing.T) {
	s := New()
	s.Begin(Scenario{ID: "consume"})
	s.ConsumeTick(load.ConsumeTick{Records: 40, TotalRecords: 40, Interval: time.Second}, nil)
	s.ShareConsumed(&load.ShareResult{Delivered: 101, Distinct: 100, Bytes: 1010})
	st := s.streams[s.key(RoleConsumer)]
	if f := st.counts(); f.consumed != 101 || f.consumedBytes != 1010 {
		t.Errorf("consumed %d records, %d bytes; want the 101 deliveries, 1010 bytes", f.consumed, f.consumedBytes)
	}
}
