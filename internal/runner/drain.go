package runner

import (
	"context"
	"sync/atomic"
	"time"
)

// consumeIdleTimeout stops the consumers once no record came for this long after the
// producers stopped (or, consume-only, after the last record).
const consumeIdleTimeout = 5 * time.Second

// consumeJoinTimeout is how long consumers that have read nothing yet may take to join their
// group: the first group of a fresh cluster waits for __consumer_offsets to be created, which
// takes several seconds on a busy machine, so an idle timeout counted from their start would
// end them before they read anything. It is also the consumers' own idle timeout, a safety
// net should drain not stop them.
const consumeJoinTimeout = time.Minute

// drain decides when the consumers of a repeat have read enough: every record the producers
// acknowledged (or the fill, consume-only), or nothing new for consumeIdleTimeout after the
// producers stopped (records lost or never acknowledged).
type drain struct {
	consumed atomic.Int64 // records read so far, from the consumer ticks
	progress atomic.Int64 // when consumed last grew, in Unix nanoseconds
	// draining, when set, is told once the producers have finished and the consumers
	// are being waited for (the live page's "drain" phase).
	draining func()
}

// tick records the consumers' progress.
func (d *drain) tick(total int64) {
	if d.consumed.Swap(total) != total {
		d.progress.Store(time.Now().UnixNano())
	}
}

// watch waits for the producers to finish (produced is closed), then stops the consumers
// with stop once they caught up with want() or went idle. It returns when consumed is
// closed (the consumers ended) or ctx ends.
func (d *drain) watch(ctx context.Context, produced, consumed <-chan struct{}, want func() int64, stop context.CancelFunc) {
	select {
	case <-produced:
	case <-consumed:
		return
	case <-ctx.Done():
		return
	}
	if d.draining != nil {
		d.draining()
	}
	target, since := want(), time.Now()
	check := time.NewTicker(100 * time.Millisecond)
	defer check.Stop()
	for {
		select {
		case <-consumed:
			return
		case <-ctx.Done():
			return
		case now := <-check.C:
			read := d.consumed.Load()
			idle := consumeIdleTimeout
			if read == 0 {
				idle = consumeJoinTimeout
			}
			last := since
			if p := time.Unix(0, d.progress.Load()); p.After(last) {
				last = p
			}
			if read >= target || now.Sub(last) > idle {
				stop()
				return
			}
		}
	}
}
