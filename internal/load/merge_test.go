package load

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/metrics"
)

// TestMergeResultsEqualsUnion builds three agents' histograms and, independently, one
// histogram of all their records: the merge must equal the union at every percentile, and
// the counts must add up.
func TestMergeResultsEqualsUnion(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	union := metrics.NewHistogram()
	var rs []*ProduceResult
	// Agents with different latency ranges, so an average of percentiles would be wrong:
	// agent 0 has 1000 records of 0.1..1 ms, agent 1 500 of 1..10 ms, agent 2 100 of 50..60 ms.
	ranges := []struct {
		n      int
		lo, hi int64 // microseconds
	}{{1000, 100, 1000}, {500, 1000, 10000}, {100, 50000, 60000}}
	for i, rg := range ranges {
		due, send := metrics.NewHistogram(), metrics.NewHistogram()
		for range rg.n {
			us := rg.lo + rng.Int64N(rg.hi-rg.lo)
			due.RecordMicros(us)
			send.RecordMicros(us / 2)
			union.RecordMicros(us)
		}
		rs = append(rs, &ProduceResult{Topic: "t", Producers: i + 1, Rate: 100, Sent: int64(rg.n) + 1, Unsent: 2,
			Total:    newProduceStats(int64(rg.n), 1, int64(rg.n)*10, time.Duration(i+1)*time.Second, due, send),
			Errors:   map[string]int64{"boom": 1},
			CPU:      ClientCPU{UserSeconds: 1, SystemSeconds: 0.5, Seconds: 1.5},
			Settings: map[string]string{"acks": "all"}})
	}
	m := MergeResults(rs...)
	// Acked 1000+500+100 = 1600; failed 1+1+1 = 3; sent (1001+501+101) = 1603; unsent 3 x 2 = 6;
	// bytes 16000; producers 1+2+3 = 6; rate 300; elapsed the longest, 3 s: 1600/3 rec/s.
	if m.Total.Acked != 1600 || m.Total.Failed != 3 || m.Sent != 1603 || m.Unsent != 6 || m.Total.Bytes != 16000 ||
		m.Producers != 6 || m.Rate != 300 || m.Errors["boom"] != 3 {
		t.Errorf("merged counts %+v", m)
	}
	if m.Total.ElapsedSeconds != 3 || m.Total.RecordsPerSec != 1600.0/3 {
		t.Errorf("elapsed %v, rate %v; want 3 s, %v", m.Total.ElapsedSeconds, m.Total.RecordsPerSec, 1600.0/3)
	}
	// CPU: 3 x 1.5 s = 4.5 s over 1600 records: 4.5/1600*1e6 s per million.
	if m.CPU.Seconds != 4.5 || m.CPU.SecondsPerMillion != 4.5/1600*1e6 {
		t.Errorf("cpu %+v", m.CPU)
	}
	if got, want := m.Total.DueLatency, union.Summary(); got != want {
		t.Errorf("merged due latency %+v, union %+v", got, want)
	}
	if m.Total.SendHistogram.Count() != 1600 {
		t.Errorf("merged send count %d, want 1600", m.Total.SendHistogram.Count())
	}
}

func TestMergeConsumeResults(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a, b, union := metrics.NewHistogram(), metrics.NewHistogram(), metrics.NewHistogram()
	for _, us := range []int64{100, 200, 300} {
		a.RecordMicros(us)
		union.RecordMicros(us)
	}
	for _, us := range []int64{5000, 90000} {
		b.RecordMicros(us)
		union.RecordMicros(us)
	}
	m := MergeConsumeResults(
		&ConsumeResult{Consumers: 1, Records: 3, Bytes: 300, Start: t0, End: t0.Add(2 * time.Second), EndToEndHistogram: a, EndToEndSource: "header", CPU: ClientCPU{UserSeconds: 1}},
		nil,
		&ConsumeResult{Consumers: 2, Records: 2, Bytes: 200, Rereads: 1, Start: t0.Add(time.Second), End: t0.Add(4 * time.Second), EndToEndHistogram: b, EndToEndSource: "header", CPU: ClientCPU{UserSeconds: 1}},
	)
	// 3 + 2 records over t0 .. t0+4 s: 1.25 records/s; 2 s of CPU over 5 records.
	if m.Consumers != 3 || m.Records != 5 || m.Bytes != 500 || m.Rereads != 1 || m.ElapsedSeconds != 4 || m.RecordsPerSec != 1.25 ||
		m.EndToEndSource != "header" || m.CPU.Seconds != 2 {
		t.Errorf("merged %+v", m)
	}
	if m.EndToEnd != union.Summary() {
		t.Errorf("merged e2e %+v, union %+v", m.EndToEnd, union.Summary())
	}
}
