package kafka

import (
	"context"
	"errors"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
)

// Retry runs op until it succeeds or fails with an error that is neither retriable (Kafka's
// own word for it, kerr.IsRetriable: a leader moving, a coordinator loading, an offset not
// yet available after an election) nor one of also, waiting every between tries, up to
// deadline (none when zero) or until ctx ends. It returns op's last error: the caller can
// tell the cases apart by kerr.IsRetriable and ctx.Err(). A cluster that has just elected
// a leader or created __consumer_offsets answers such errors for a few seconds; a request
// that gives up at the first of them reports a fault that is not there.
func Retry(ctx context.Context, deadline time.Time, every time.Duration, op func() error, also ...error) error {
	for {
		err := op()
		if err == nil || !retriable(err, also) || (!deadline.IsZero() && !time.Now().Before(deadline)) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(every):
		}
	}
}

func retriable(err error, also []error) bool {
	if kerr.IsRetriable(err) {
		return true
	}
	for _, a := range also {
		if errors.Is(err, a) {
			return true
		}
	}
	return false
}
