package load

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
)

// returnGuard only turns a hang into a failure; no test here asserts how long anything took.
const returnGuard = 60 * time.Second

// stallCluster is a kfake cluster whose produce and leave-group responses can be held back:
// while stalled, every such request waits until release (or the test's end).
type stallCluster struct {
	boot     string
	stalled  atomic.Bool
	release  chan struct{}
	releaseO sync.Once
}

func newStallCluster(t *testing.T, topics ...string) *stallCluster {
	t.Helper()
	c, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(3, topics...))
	s := &stallCluster{boot: boot, release: make(chan struct{})}
	// Registered after c.Close, so it runs first: a held request must be let go before the
	// cluster can shut down.
	t.Cleanup(s.unstall)
	for _, k := range []kmsg.Key{kmsg.Produce, kmsg.LeaveGroup} {
		c.ControlKey(k.Int16(), func(kmsg.Request) (kmsg.Response, error, bool) {
			c.KeepControl()
			if s.stalled.Load() {
				c.SleepControl(func() { <-s.release })
			}
			return nil, nil, false
		})
	}
	return s
}

func (s *stallCluster) unstall() { s.releaseO.Do(func() { close(s.release) }) }

// returns runs f and fails the test if it has not returned within returnGuard.
func returns[T any](t *testing.T, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(returnGuard):
		t.Fatalf("did not return within %v", returnGuard)
		var zero T
		return zero
	}
}

type produceOutcome struct {
	res *ProduceResult
	err error
}

// TestTimedRunDrains holds every produce response until the run's time is up: each record
// is then acknowledged after the end, and must be counted and timed, not dropped.
func TestTimedRunDrains(t *testing.T) {
	s := newStallCluster(t, "drain")
	s.stalled.Store(true)
	const d = 300 * time.Millisecond
	out := returns(t, func() produceOutcome {
		res, err := Produce(context.Background(), ProducerConfig{Bootstrap: s.boot, Topic: "drain", RecordSize: 10,
			Rate: 1000, Duration: d, TickInterval: 20 * time.Millisecond}, func(tk Tick) {
			// Ticks go on while the run waits for its records: the first one past the end
			// lets the held responses go.
			if tk.Elapsed >= d {
				s.unstall()
			}
		})
		return produceOutcome{res, err}
	})
	if out.err != nil {
		t.Fatal(out.err)
	}
	r := out.res
	// Nothing could be acknowledged before the end, so every acknowledgement was drained.
	if r.Total.Acked == 0 || r.Drained != r.Total.Acked || r.Unsent != 0 || r.Total.Failed != 0 {
		t.Fatalf("acked %d drained %d unsent %d failed %d (errors %v), want all acked records drained, none unsent",
			r.Total.Acked, r.Drained, r.Unsent, r.Total.Failed, r.Errors)
	}
	// At 1000/s for 0.3 s at most 300 records are due (n/1000 < 0.3 for n = 0..299).
	if r.Total.Acked > 300 {
		t.Errorf("acked %d, want at most 300", r.Total.Acked)
	}
	if r.Total.SendLatency.Count != r.Total.Acked || r.Total.DueLatency.Count != r.Total.Acked {
		t.Errorf("latency counts send %d due %d, want %d: drained records must be timed",
			r.Total.SendLatency.Count, r.Total.DueLatency.Count, r.Total.Acked)
	}
}

// TestTimedRunStallIsUnsent never answers: after the drain timeout the records are aborted and
// counted as unsent, none is lost from the accounting.
func TestTimedRunStallIsUnsent(t *testing.T) {
	s := newStallCluster(t, "stall")
	s.stalled.Store(true)
	const n = 50
	out := returns(t, func() produceOutcome {
		// 500/s for 0.1 s: records 0..49 are due before the end (n/500 < 0.1).
		res, err := Produce(context.Background(), ProducerConfig{Bootstrap: s.boot, Topic: "stall", RecordSize: 10,
			Rate: 500, Duration: 100 * time.Millisecond, DrainTimeout: 200 * time.Millisecond}, nil)
		return produceOutcome{res, err}
	})
	if out.err != nil {
		t.Fatal(out.err)
	}
	r := out.res
	if r.Total.Acked != 0 || r.Drained != 0 || r.Unsent == 0 || r.Unsent > n {
		t.Fatalf("acked %d drained %d unsent %d failed %d (errors %v), want 0 acked and 1..%d unsent",
			r.Total.Acked, r.Drained, r.Unsent, r.Total.Failed, r.Errors, n)
	}
}

// TestTimedRunSlowDrainCompletes answers every produce request 60 ms late with one request in
// flight, so the records buffered at the end take several DrainTimeouts in all to be
// acknowledged while one arrives every 60 ms: a slow but healthy cluster is drained, not cut
// off as if stalled.
func TestTimedRunSlowDrainCompletes(t *testing.T) {
	c, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(1, "slow"))
	c.ControlKey(kmsg.Produce.Int16(), func(kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		c.SleepControl(func() { time.Sleep(60 * time.Millisecond) })
		return nil, nil, false
	})
	out := returns(t, func() produceOutcome {
		// 600/s for 0.1 s: 60 records of 100 bytes due (n/600 < 0.1 for n = 0..59); 512-byte
		// batches hold at most 4, so 15 or more requests at 60 ms apiece: 0.9 s or more after
		// the end, longer than the 0.5 s DrainTimeout in all, well within its 3 s cap.
		res, err := Produce(context.Background(), ProducerConfig{Bootstrap: boot,
			Topic: "slow", RecordSize: 100, Rate: 600, Duration: 100 * time.Millisecond,
			DrainTimeout: 500 * time.Millisecond,
			Properties:   map[string]string{"max.in.flight.requests.per.connection": "1", "batch.size": "512"}}, nil)
		return produceOutcome{res, err}
	})
	if out.err != nil {
		t.Fatal(out.err)
	}
	r := out.res
	// A busy machine may wake the pacer after the run's deadline for the last record or two
	// due: those are never handed over. Every record that was handed over must be
	// acknowledged, none left unsent.
	if r.Unsent != 0 || r.Total.Failed != 0 || r.Drained == 0 || r.Total.Acked != r.Sent || r.Sent < 50 || r.Sent > 60 {
		t.Fatalf("sent %d acked %d drained %d unsent %d failed %d (errors %v), want 50-60 sent, all acked, some drained, none unsent",
			r.Sent, r.Total.Acked, r.Drained, r.Unsent, r.Total.Failed, r.Errors)
	}
}

// TestCancelStopsEveryPhase cancels a produce run in each of its phases with the cluster
// holding every response, and checks that it returns and accounts for every record it
// handed over.
func TestCancelStopsEveryPhase(t *testing.T) {
	tests := []struct {
		name string
		cfg  ProducerConfig
		// cancelAt says, from a tick, that the run is in the phase under test.
		cancelAt func(Tick) bool
		// handed is the number of records handed over, when the test knows it.
		handed int64
	}{
		// Paced sending: 1,000/s would take 1,000 s.
		{"paced sending", ProducerConfig{RecordSize: 10, Rate: 1000, Records: 1_000_000}, func(Tick) bool { return true }, 0},
		// Unthrottled into a 64 KiB buffer: Produce blocks waiting for space that never comes.
		{"blocked on a full buffer", ProducerConfig{RecordSize: 1000, Records: 1_000_000,
			Properties: map[string]string{"buffer.memory": "65536"}}, func(Tick) bool { return true }, 0},
		// 100 records go into the buffer at once; the final flush then waits for them.
		{"final flush", ProducerConfig{RecordSize: 10, Records: 100}, func(Tick) bool { return true }, 100},
		// A timed run past its end, waiting (up to a minute) for its records.
		{"drain after the end", ProducerConfig{RecordSize: 10, Rate: 1000, Duration: 100 * time.Millisecond, DrainTimeout: time.Minute},
			func(tk Tick) bool { return tk.Elapsed >= 100*time.Millisecond }, 0},
		// A transaction's commit waits for its records.
		{"transaction commit", ProducerConfig{RecordSize: 10, Records: 100, TransactionalID: "stop-txn", TransactionDuration: time.Millisecond},
			func(Tick) bool { return true }, 0},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			topic := "stop-" + string(rune('a'+i))
			s := newStallCluster(t, topic)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := tt.cfg
			cfg.Bootstrap, cfg.Topic, cfg.TickInterval = s.boot, topic, 20*time.Millisecond
			s.stalled.Store(true)
			out := returns(t, func() produceOutcome {
				res, err := Produce(ctx, cfg, func(tk Tick) {
					if tt.cancelAt(tk) {
						cancel()
					}
				})
				return produceOutcome{res, err}
			})
			r := out.res
			if r == nil {
				t.Fatalf("no result (error %v)", out.err)
			}
			if !r.Interrupted {
				t.Error("result not marked interrupted")
			}
			if r.Total.Acked != 0 || r.Unsent == 0 {
				t.Errorf("acked %d unsent %d, want 0 acked (every response held) and some unsent", r.Total.Acked, r.Unsent)
			}
			if tt.handed > 0 && r.Total.Acked+r.Total.Failed+r.Unsent != tt.handed {
				t.Errorf("acked %d + failed %d + unsent %d, want the %d records handed over", r.Total.Acked, r.Total.Failed, r.Unsent, tt.handed)
			}
		})
	}
}

// TestCancelStopsConsume cancels a consumer waiting for records that never come, with the
// cluster holding every LeaveGroup request.
func TestCancelStopsConsume(t *testing.T) {
	s := newStallCluster(t, "stop-consume")
	s.stalled.Store(true)
	ctx, cancel := context.WithCancel(context.Background())
	type outcome struct {
		res *ConsumeResult
		err error
	}
	out := returns(t, func() outcome {
		res, err := Consume(ctx, ConsumerConfig{Bootstrap: s.boot, Topics: []string{"stop-consume"}, Records: 10,
			Timeout: time.Hour, TickInterval: 20 * time.Millisecond}, func(ConsumeTick) { cancel() })
		return outcome{res, err}
	})
	if out.res == nil || !out.res.Interrupted || out.res.Records != 0 {
		t.Fatalf("result %+v error %v, want an interrupted run with no records", out.res, out.err)
	}
}
