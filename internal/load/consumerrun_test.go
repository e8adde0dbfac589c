package load

import (
	"context"
	"errors"
	"testing"
	"time"
)

// scriptedConsume is a ConsumeFunc that sends the given ticks (distinct records are
// TotalRecords - TotalRereads), then waits for its context, or returns when end is set.
func scriptedConsume(ticks []ConsumeTick, end bool) ConsumeFunc {
	return func(ctx context.Context, tick func(ConsumeTick)) (*ConsumeResult, error) {
		var last ConsumeTick
		for _, t := range ticks {
			tick(t)
			last = t
		}
		if !end {
			<-ctx.Done()
		}
		return &ConsumeResult{Records: last.TotalRecords, Rereads: last.TotalRereads}, nil
	}
}

func TestConsumerRunDrain(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ticks []ConsumeTick
		end   bool
		want  int64
		idle  time.Duration
		// stopsBy bounds how long Drain may take; at least says it must not return sooner.
		stopsBy, atLeast time.Duration
		read             int64
	}{
		// Every acknowledged record read: stopped within a check, no idle wait.
		{name: "caught up", ticks: []ConsumeTick{{TotalRecords: 60}, {TotalRecords: 100}}, want: 100,
			idle: time.Hour, stopsBy: 10 * time.Second, read: 100},
		// Re-reads are not records the producers wrote: 100 deliveries of which 30 re-reads
		// are 70 distinct, short of 100, so only the idle timeout ends the drain.
		{name: "re-reads do not count", ticks: []ConsumeTick{{TotalRecords: 100, TotalRereads: 30}}, want: 100,
			idle: 300 * time.Millisecond, stopsBy: 10 * time.Second, atLeast: 300 * time.Millisecond, read: 70},
		// Records lost: nothing new for the idle timeout ends it.
		{name: "idle", ticks: []ConsumeTick{{TotalRecords: 40}}, want: 100,
			idle: 300 * time.Millisecond, stopsBy: 10 * time.Second, atLeast: 300 * time.Millisecond, read: 40},
		// Consumers that end by themselves (their Records reached) end the drain.
		{name: "ended by itself", ticks: []ConsumeTick{{TotalRecords: 50}}, end: true, want: 100,
			idle: time.Hour, stopsBy: 10 * time.Second, read: 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := StartConsumers(context.Background(), scriptedConsume(tc.ticks, tc.end), nil)
			start := time.Now()
			done := make(chan *ConsumeResult, 1)
			go func() {
				res, err := run.Drain(context.Background(), func() int64 { return tc.want },
					func(int64) time.Duration { return tc.idle })
				if err != nil {
					t.Error(err)
				}
				done <- res
			}()
			select {
			case res := <-done:
				if took := time.Since(start); took < tc.atLeast {
					t.Errorf("drain ended after %v, before the idle timeout %v", took, tc.atLeast)
				}
				if res == nil {
					t.Fatal("no result")
				}
			case <-time.After(tc.stopsBy):
				t.Fatalf("drain not ended after %v", tc.stopsBy)
			}
			if got := run.Read(); got != tc.read {
				t.Errorf("Read = %d, want %d", got, tc.read)
			}
		})
	}
}

// TestConsumerRunStop: Stop ends the consumers and Wait returns what they returned.
func TestConsumerRunStop(t *testing.T) {
	boom := errors.New("boom")
	run := StartConsumers(context.Background(), func(ctx context.Context, _ func(ConsumeTick)) (*ConsumeResult, error) {
		<-ctx.Done()
		return nil, boom
	}, nil)
	select {
	case <-run.Done():
		t.Fatal("ended before Stop")
	default:
	}
	run.Stop()
	if _, err := run.Wait(); !errors.Is(err, boom) {
		t.Fatalf("Wait error = %v, want %v", err, boom)
	}
}
