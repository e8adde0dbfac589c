package load

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestTrialsShareClients runs three trials on one set of clients: each trial's accounting
// holds its own records only, and the histograms of the trials merge to their sum.
func TestTrialsShareClients(t *testing.T) {
	boot := newFakeCluster(t, "trials")
	p, err := OpenProducers(ProducerConfig{Bootstrap: boot, Topic: "trials", Producers: 2, RecordSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	counts := []int64{300, 501, 200}
	var total int64
	var merged = (*ProduceResult)(nil)
	for i, n := range counts {
		// The offered rate changes between trials only; the third is unthrottled.
		s := Schedule{Records: n, Rate: float64(10000 * (i + 1))}
		if i == 2 {
			s.Rate = 0
		}
		res, err := p.Trial(context.Background(), s, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Sent != n || res.Total.Acked != n || res.Total.DueLatency.Count != n || res.Unsent != 0 {
			t.Fatalf("trial %d: sent %d acked %d due count %d unsent %d, want %d each and 0 unsent",
				i, res.Sent, res.Total.Acked, res.Total.DueLatency.Count, res.Unsent, n)
		}
		if res.Rate != s.Rate {
			t.Errorf("trial %d: rate %v, want the schedule's %v", i, res.Rate, s.Rate)
		}
		total += n
		if merged == nil {
			merged = res
			continue
		}
		merged.Total.DueHistogram.Merge(res.Total.DueHistogram)
	}
	// 300 + 501 + 200 = 1001 records in all.
	if got := merged.Total.DueHistogram.Count(); got != total || total != 1001 {
		t.Errorf("merged due histogram holds %d, want %d", got, total)
	}
}

func TestTrialRejectsBadSchedule(t *testing.T) {
	boot := newFakeCluster(t, "bad")
	p, err := OpenProducers(ProducerConfig{Bootstrap: boot, Topic: "bad", RecordSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Trial(context.Background(), Schedule{Duration: time.Second, Warmup: 2 * time.Second}, nil)
	if err == nil || !strings.Contains(err.Error(), "warm-up 2s is not shorter than the run's 1s") {
		t.Errorf("error %v, want the warm-up named", err)
	}
	p.Close()
	if _, err := p.Trial(context.Background(), Schedule{Records: 1}, nil); err == nil {
		t.Error("a trial on closed producers ran")
	}
}
