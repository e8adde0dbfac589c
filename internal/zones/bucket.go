package zones

import (
	"sync"
	"time"
)

// bucket is a token bucket shared by every connection of one direction of a link. Taking
// more than is there is allowed and returns how long to wait, so a chunk larger than the
// burst still goes through at the link's rate instead of waiting forever.
type bucket struct {
	mu     sync.Mutex
	rate   float64 // bytes per second
	burst  float64
	tokens float64
	last   time.Time
}

// newBucket returns a bucket of rate bytes per second holding 10 ms worth of burst (at
// least 64 KiB, one read), or nil for an unlimited link.
func newBucket(rate int64, now time.Time) *bucket {
	if rate <= 0 {
		return nil
	}
	burst := max(float64(rate)/100, 64<<10)
	return &bucket{rate: float64(rate), burst: burst, tokens: burst, last: now}
}

// take removes n bytes' tokens at now and returns how long the sender must wait before
// sending them so the link's rate holds.
func (b *bucket) take(n int, now time.Time) time.Duration {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.After(b.last) {
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		b.last = now
	}
	b.tokens -= float64(n)
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / b.rate * float64(time.Second))
}
