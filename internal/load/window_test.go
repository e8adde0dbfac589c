package load

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// TestWindowCountsRecordsDueAndAcknowledgedInIt drives a worker's promise by hand: a paced
// trial with a 1 s warm-up and a 5 s end, observed 3 s after its start. Only records due at
// or after 1 s and acknowledged before 5 s count towards the sustained rate; a warm-up
// backlog acknowledged in the window does not, nor is it steady: a paced record is steady
// by its due time. An unpaced record is steady when acknowledged after the warm-up.
func TestWindowCountsRecordsDueAndAcknowledgedInIt(t *testing.T) {
	tests := []struct {
		name       string
		paced      bool
		dues       []time.Duration
		want       int64
		wantSteady int64
	}{
		// due 0.5 s: warm-up backlog, acknowledged at ~3 s: neither window nor steady.
		// due 1.0, 2.5 and 2.9 s: in the window and steady.
		{"paced", true, []time.Duration{500 * time.Millisecond, time.Second, 2500 * time.Millisecond, 2900 * time.Millisecond}, 3, 3},
		// Unpaced records have no due time of their own: no window count.
		{"unpaced", false, []time.Duration{time.Second, 2 * time.Second}, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &producerWorker{start: time.Now().Add(-3 * time.Second), warmupEnd: time.Second,
				end: 5 * time.Second, paced: tt.paced, latencyRecorders: latencyShards(1)[0], errs: map[string]int64{}}
			w.slots.New = func() any { return &slot{} }
			for _, due := range tt.dues {
				w.active.Add(1)
				s := &slot{due: due, sent: due}
				s.rec = kgo.Record{Value: []byte("v"), Context: s}
				w.promise(&s.rec, nil)
			}
			if got := w.inWindow.Load(); got != tt.want {
				t.Errorf("in window %d, want %d", got, tt.want)
			}
			if got := w.steadyAcked.Load(); got != tt.wantSteady {
				t.Errorf("steady %d, want %d", got, tt.wantSteady)
			}
		})
	}
}

// TestStalledWarmupStaysOutOfTheWindow holds every produce response for the first 1.5 s of
// a run paced at 2,000 records/s with a 1 s warm-up and a 3 s end: the warm-up's 2,000
// records and the window's first 1,000 wait, and are acknowledged together after 1.5 s.
// The steady state is the records due from 1 s to 3 s, n/2000 for n = 2,000..5,999: 4,000
// at most (a busy machine may not hand over the last before the end: a thousand is enough
// to show the window is there), over at least the span from the warm-up's end to the last
// one's due time, so at most the rate offered (within a record of it).
// Counting every acknowledgement after the warm-up, it held the whole run's: 5,999 records at
// 2,999 records/s.
func TestStalledWarmupStaysOutOfTheWindow(t *testing.T) {
	s := newStallCluster(t, "stall")
	s.stalled.Store(true)
	const rate, stall = 2000, 1500 * time.Millisecond
	out := returns(t, func() produceOutcome {
		res, err := Produce(context.Background(), ProducerConfig{Bootstrap: s.boot, Topic: "stall", RecordSize: 10,
			Rate: rate, Warmup: time.Second, Duration: 3 * time.Second, TickInterval: 20 * time.Millisecond}, func(tk Tick) {
			if tk.Elapsed >= stall {
				s.unstall()
			}
		})
		return produceOutcome{res, err}
	})
	if out.err != nil {
		t.Fatal(out.err)
	}
	r := out.res
	if r.Steady == nil {
		t.Fatal("no steady state")
	}
	st := r.Steady
	if st.Acked > 4000 || st.Acked < 1000 || st.RecordsPerSec > rate*1.01 {
		t.Errorf("steady: %d acknowledged at %.0f records/s (total %d), want 1,000-4,000 at most %d/s",
			st.Acked, st.RecordsPerSec, r.Total.Acked, rate)
	}
	// The window's records waited for the stall: its latency from their due times says so.
	if st.DueLatency.MaxUs < 100_000 {
		t.Errorf("steady max due latency %d µs, want the stall's wait (hundreds of ms) in it", st.DueLatency.MaxUs)
	}
}
