package agent

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/kbench/kbench/internal/load"
)

// consumeIdle is how long an agent's consumers may read nothing new, once its producers
// are done, before it stops waiting for the rest (which then show as not consumed).
const consumeIdle = 10 * time.Second

// consumeRun is an agent's consumers running beside its trial.
type consumeRun struct {
	total  atomic.Int64
	cancel context.CancelFunc
	done   chan struct{}
	res    *load.ConsumeResult
	err    error
}

// consumeTick is how often the consumers report their count, so the wait ends promptly.
const consumeTick = 100 * time.Millisecond

// startConsume starts cfg's consumers until finish stops them (or ctx ends).
func startConsume(ctx context.Context, cfg load.ConsumerConfig) *consumeRun {
	cctx, cancel := context.WithCancel(ctx)
	c := &consumeRun{cancel: cancel, done: make(chan struct{})}
	cfg.TickInterval = consumeTick
	go func() {
		defer close(c.done)
		c.res, c.err = load.Consume(cctx, cfg, func(t load.ConsumeTick) { c.total.Store(t.TotalRecords) })
	}()
	return c
}

// finish waits until the consumers read want records (what this agent's producers had
// acknowledged), or read nothing new for consumeIdle, stops them and returns their result.
func (c *consumeRun) finish(want int64) (*load.ConsumeResult, error) {
	defer c.cancel()
	t := time.NewTicker(consumeTick)
	defer t.Stop()
	last, since := c.total.Load(), time.Now()
	for {
		select {
		case <-c.done:
			return c.res, c.err
		case now := <-t.C:
			n := c.total.Load()
			if n >= want {
				c.cancel()
				<-c.done
				return c.res, c.err
			}
			if n != last {
				last, since = n, now
			} else if now.Sub(since) > consumeIdle {
				c.cancel()
				<-c.done
				return c.res, c.err
			}
		}
	}
}
