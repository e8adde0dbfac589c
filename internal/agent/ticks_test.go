package agent

import (
	"testing"
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

func hist(us ...int64) *metrics.Histogram {
	h := metrics.NewHistogram()
	for _, u := range us {
		h.RecordMicros(u)
	}
	return h
}

// TestTickMerger: an interval is emitted once every agent sent it, its counts added and its
// histograms merged.
func TestTickMerger(t *testing.T) {
	m := newTickMerger([]string{"a", "b"})
	if got := m.add("a", &Stats{Seq: 1, Elapsed: time.Second, Interval: time.Second, Acked: 10, Bytes: 1000, Due: hist(100, 200), Send: hist(50)}); len(got) != 0 {
		t.Fatalf("tick emitted before b reported: %+v", got)
	}
	// b's second interval arrives before its first: nothing more until seq 1 is complete.
	if got := m.add("b", &Stats{Seq: 2, Interval: time.Second, Acked: 1}); len(got) != 0 {
		t.Fatalf("tick 2 emitted before tick 1: %+v", got)
	}
	got := m.add("b", &Stats{Seq: 1, Elapsed: 1100 * time.Millisecond, Interval: 1100 * time.Millisecond, Acked: 12, Failed: 1, Bytes: 1200, Due: hist(300000), Send: hist(70)})
	if len(got) != 1 {
		t.Fatalf("%d ticks, want 1", len(got))
	}
	tk := got[0]
	// 10 + 12 = 22 acked over the longer interval, 1.1 s: 20 records/s; due latencies 100,
	// 200 and 300000 us: max 300 ms (to the histogram's precision), count 3.
	want := load.Tick{Elapsed: 1100 * time.Millisecond, Interval: 1100 * time.Millisecond, Acked: 22, Failed: 1, Bytes: 2200, TotalAcked: 22, TotalFailed: 1, TotalBytes: 2200}
	if tk.Elapsed != want.Elapsed || tk.Acked != want.Acked || tk.Failed != want.Failed || tk.Bytes != want.Bytes ||
		tk.TotalAcked != want.TotalAcked || tk.RecordsPerSec != 22/1.1 {
		t.Errorf("tick %+v", tk)
	}
	if tk.DueLatency.Count != 3 || tk.SendLatency.Count != 2 || tk.DueLatency != hist(100, 200, 300000).Summary() {
		t.Errorf("due %+v send %+v", tk.DueLatency, tk.SendLatency)
	}
	if got := m.add("a", &Stats{Seq: 2, Acked: 2}); len(got) != 1 || got[0].Acked != 3 || got[0].TotalAcked != 25 {
		t.Errorf("tick 2 %+v, want 3 acked, 25 in total", got)
	}
}

// TestShareConfig: an agent runs its share with its own connection settings; the plan
// carries none of the coordinator's.
func TestShareConfig(t *testing.T) {
	job := planJob(load.ProducerConfig{Bootstrap: "coord:9092", Topic: "t", Producers: 10, RecordSize: 100, Seed: 7,
		Properties: map[string]string{"acks": "1", "sasl.jaas.config": "secret", "security.protocol": "SASL_SSL", "bootstrap.servers": "x"}})
	if job.Bootstrap != "" || len(job.Properties) != 1 || job.Properties["acks"] != "1" {
		t.Fatalf("plan job %+v", job)
	}
	p := &Plan{Job: job, Schedule: load.Schedule{Rate: 1000, Records: 100, Duration: time.Minute}}
	s := Share{Agent: "a", FirstProducer: 4, Producers: 3, Rate: 300, Records: 30, Seed: 11}
	cfg, sch := s.config(p, "agent:9093", map[string]string{"security.protocol": "SSL"})
	if cfg.Bootstrap != "agent:9093" || cfg.Properties["security.protocol"] != "SSL" || cfg.Properties["acks"] != "1" ||
		cfg.Producers != 3 || cfg.Seed != 11 || cfg.Rate != 300 || cfg.Records != 30 {
		t.Errorf("config %+v", cfg)
	}
	if sch.Rate != 300 || sch.Records != 30 || sch.Duration != time.Minute {
		t.Errorf("schedule %+v", sch)
	}
}
