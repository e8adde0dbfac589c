package zones

import (
	"testing"
	"time"
)

func TestBucketTake(t *testing.T) {
	t0 := time.Unix(1000, 0)
	// 1 MiB/s: the burst is max(1048576/100, 65536) = 65536 bytes.
	b := newBucket(1<<20, t0)
	steps := []struct {
		n    int
		at   time.Duration
		want time.Duration
	}{
		{65536, 0, 0},                                 // the full burst goes at once; 0 tokens left
		{1 << 20, 0, time.Second},                     // -1048576 tokens: 1048576 / 1048576 per s = 1 s
		{0, time.Second, 0},                           // +1 s refills 1048576: back to 0
		{524288, time.Second, 500 * time.Millisecond}, // -524288 / 1048576 = 0.5 s
		{0, 1500 * time.Millisecond, 0},               // +0.5 s = +524288: back to 0
		{0, 11 * time.Second, 0},                      // refill stops at the 65536 burst
		{65536 + 1048576, 11 * time.Second, time.Second},
	}
	for i, s := range steps {
		if got := b.take(s.n, t0.Add(s.at)); got != s.want {
			t.Fatalf("step %d: take(%d) at +%s = %s, want %s", i, s.n, s.at, got, s.want)
		}
	}
	var unlimited *bucket
	if d := unlimited.take(1<<30, t0); d != 0 {
		t.Fatalf("unlimited bucket waits %s", d)
	}
}
