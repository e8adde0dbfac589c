package load

import (
	"context"
	"sync/atomic"
	"time"
)

// ConsumeFunc is a consume run to the end: Consume with its config, or share consumers
// whose figures are given as a ConsumeResult.
type ConsumeFunc func(ctx context.Context, tick func(ConsumeTick)) (*ConsumeResult, error)

// ConsumerRun is consumers running in the background: StartConsumers opens them, Read
// follows them, and Drain or Stop then Wait close them. Every caller that reads beside
// producers (a study's repeat, an agent's trial, a capacity search) has the same shape, so
// the "read until caught up or idle" decision is made here once.
type ConsumerRun struct {
	cancel   context.CancelFunc
	done     chan struct{}
	read     atomic.Int64 // distinct records read so far, from the ticks
	progress atomic.Int64 // when read last grew, in Unix nanoseconds
	res      *ConsumeResult
	err      error
}

// StartConsumers runs consume until it ends by itself, Drain or Stop ends it, or ctx ends.
// tick, if not nil, sees every tick after the run counted it.
func StartConsumers(ctx context.Context, consume ConsumeFunc, tick func(ConsumeTick)) *ConsumerRun {
	cctx, cancel := context.WithCancel(ctx)
	r := &ConsumerRun{cancel: cancel, done: make(chan struct{})}
	r.progress.Store(time.Now().UnixNano())
	go func() {
		defer close(r.done)
		defer cancel()
		r.res, r.err = consume(cctx, func(t ConsumeTick) {
			// Distinct records, as acknowledged: a rebalance's re-reads must not end a
			// drain short of what the producers wrote, nor hide a lag.
			if n := t.TotalRecords - t.TotalRereads; r.read.Swap(n) != n {
				r.progress.Store(time.Now().UnixNano())
			}
			if tick != nil {
				tick(t)
			}
		})
	}()
	return r
}

// StartConsume is StartConsumers of Consume(cfg).
func StartConsume(ctx context.Context, cfg ConsumerConfig, tick func(ConsumeTick)) *ConsumerRun {
	return StartConsumers(ctx, func(ctx context.Context, tick func(ConsumeTick)) (*ConsumeResult, error) {
		return Consume(ctx, cfg, tick)
	}, tick)
}

// Read is the distinct records read so far, as of the last tick.
func (r *ConsumerRun) Read() int64 { return r.read.Load() }

// Done is closed when the consumers have ended.
func (r *ConsumerRun) Done() <-chan struct{} { return r.done }

// Stop ends the consumers; Wait then returns their result.
func (r *ConsumerRun) Stop() { r.cancel() }

// Wait waits for the consumers to end and returns their result.
func (r *ConsumerRun) Wait() (*ConsumeResult, error) {
	<-r.done
	return r.res, r.err
}

// Drain waits until the consumers read want() records, or read nothing new for idle(read)
// (measured from the call at the earliest), then stops them and returns their result. It
// returns at once when they end by themselves, and stops them when ctx ends.
func (r *ConsumerRun) Drain(ctx context.Context, want func() int64, idle func(read int64) time.Duration) (*ConsumeResult, error) {
	defer r.cancel()
	target, since := want(), time.Now()
	check := time.NewTicker(drainCheck)
	defer check.Stop()
	for {
		select {
		case <-r.done:
			return r.Wait()
		case <-ctx.Done():
			r.cancel()
			return r.Wait()
		case now := <-check.C:
			read, last := r.read.Load(), since
			if p := time.Unix(0, r.progress.Load()); p.After(last) {
				last = p
			}
			if read >= target || now.Sub(last) > idle(read) {
				r.cancel()
				return r.Wait()
			}
		}
	}
}

// drainCheck is how often Drain looks at the count: a tenth of a second late at most.
const drainCheck = 100 * time.Millisecond
