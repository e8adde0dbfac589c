package load

import (
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// TestWindowCountsRecordsDueAndAcknowledgedInIt drives a worker's promise by hand: a paced
// trial with a 1 s warm-up and a 5 s end, observed 3 s after its start. Only records due at
// or after 1 s and acknowledged before 5 s count towards the sustained rate; a warm-up
// backlog acknowledged in the window does not.
func TestWindowCountsRecordsDueAndAcknowledgedInIt(t *testing.T) {
	tests := []struct {
		name       string
		paced      bool
		dues       []time.Duration
		want       int64
		wantSteady int64
	}{
		// due 0.5 s: warm-up backlog, acknowledged at ~3 s: steady (by ack time), not window.
		// due 1.0 s and 2.5 s: in the window. 3 window records of 4; all 4 steady.
		{"paced", true, []time.Duration{500 * time.Millisecond, time.Second, 2500 * time.Millisecond, 2900 * time.Millisecond}, 3, 4},
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
