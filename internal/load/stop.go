package load

import (
	"context"
	"errors"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// StopGrace is how long a cancelled run (Ctrl-C, SIGTERM) still waits for the records already
// handed to its clients before it aborts them; with abortTimeout and closing the clients, a
// cancelled run returns well within 5 s in every phase, the final flush included.
const StopGrace = 2 * time.Second

// abortTimeout bounds the safe abort, which waits for the responses of requests in flight;
// past it the records are abandoned (see finishRecords).
const abortTimeout = time.Second

// graceContext returns a context that is cancelled grace after parent is (never while parent
// lives), or at deadline when that is not zero. It carries no values' cancellation from
// parent: the records and requests given it must be able to finish after parent ends.
func graceContext(parent context.Context, grace time.Duration, deadline time.Time) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	if !deadline.IsZero() {
		var c2 context.CancelFunc
		ctx, c2 = context.WithDeadline(ctx, deadline)
		c1 := cancel
		cancel = func() { c2(); c1() }
	}
	stop := context.AfterFunc(parent, func() {
		t := time.AfterFunc(grace, cancel)
		context.AfterFunc(ctx, func() { t.Stop() })
	})
	return ctx, func() { stop(); cancel() }
}

// finishRecords waits until every record handed to cl is acknowledged or failed, or until
// wait ends; then it aborts what is left, safely if the requests in flight answer within
// abortTimeout, else by abandoning them. It reports whether records had to be aborted.
func finishRecords(cl *kgo.Client, wait context.Context) (aborted bool) {
	if cl.Flush(wait) == nil {
		return false
	}
	actx, cancel := context.WithTimeout(context.Background(), abortTimeout)
	defer cancel()
	if cl.AbortBufferedRecords(actx) != nil {
		// A stalled broker does not answer: its requests' records may still reach the topic,
		// which is why the runner allows consumed records above acknowledged ones only by
		// the unsent count.
		cl.UnsafeAbortBufferedRecords()
	}
	return true
}

// isUnsent says whether a record's error means the run stopped before the record was
// acknowledged or failed by the cluster: it was aborted, its wait for buffer space or its
// topic was cut short, or the client closed under it.
func isUnsent(err error) bool {
	return errors.Is(err, kgo.ErrAborting) || errors.Is(err, kgo.ErrClientClosed) ||
		errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
