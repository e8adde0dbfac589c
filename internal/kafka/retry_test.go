package kafka

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
)

func TestRetry(t *testing.T) {
	denied := kerr.TopicAuthorizationFailed
	for _, tt := range []struct {
		name     string
		answers  []error // op's answers in turn; the last repeats
		also     []error
		deadline time.Duration // from now; 0: none
		cancel   bool
		calls    int
		want     error
	}{
		{"retriable three times, then done", []error{kerr.OffsetNotAvailable, kerr.NotLeaderForPartition, kerr.OffsetNotAvailable, nil}, nil, 0, false, 4, nil},
		{"not retriable: reported at once", []error{denied}, nil, 0, false, 1, denied},
		{"a caller's extra case is retried", []error{kerr.NonEmptyGroup, kerr.NonEmptyGroup, nil}, []error{kerr.NonEmptyGroup}, 0, false, 3, nil},
		{"the extra case only where asked", []error{kerr.NonEmptyGroup, nil}, nil, 0, false, 1, kerr.NonEmptyGroup},
		{"a deadline already passed: one try", []error{kerr.CoordinatorLoadInProgress}, nil, -time.Second, false, 1, kerr.CoordinatorLoadInProgress},
		{"a cancelled context: one try, the op's error", []error{kerr.CoordinatorNotAvailable}, nil, 0, true, 1, kerr.CoordinatorNotAvailable},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		if tt.cancel {
			cancel()
		}
		var deadline time.Time
		if tt.deadline != 0 {
			deadline = time.Now().Add(tt.deadline)
		}
		calls := 0
		err := Retry(ctx, deadline, time.Millisecond, func() error {
			e := tt.answers[min(calls, len(tt.answers)-1)]
			calls++
			return e
		}, tt.also...)
		cancel()
		if calls != tt.calls || !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
			t.Errorf("%s: %d calls, error %v; want %d calls, error %v", tt.name, calls, err, tt.calls, tt.want)
		}
	}
}
