package results

import "testing"

func TestSendRate(t *testing.T) {
	for _, tc := range []struct {
		name                string
		acked               int64
		elapsed, rps, p50ms float64
		want                float64
	}{
		// 9,900 records in 10 s with 100 ms in flight: 9,900 / (10 - 0.1) = 1,000/s.
		{"in flight subtracted", 9900, 10, 990, 100, 1000},
		// No send latency: 5,000 / 10 = 500/s.
		{"no latency", 5000, 10, 500, 0, 500},
		// 6 s in flight of a 10 s window is more than half: the producer fell behind and
		// the plain records/s (400) stands.
		{"latency most of the window", 4000, 10, 400, 6000, 400},
	} {
		if got := SendRate(tc.acked, tc.elapsed, tc.rps, tc.p50ms); got != tc.want {
			t.Errorf("%s: SendRate = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTargetShare(t *testing.T) {
	// 9,660 records in 10 s, 0 ms in flight, against 1,000/s: 966/1,000 = 0.966.
	s := Summary{RecordsAcked: 9660, Elapsed: 10, RecordsPerSec: 966, TargetRate: 1000, SendLatency: &Latency{P50Ms: 0}}
	if got, ok := s.TargetShare(); !ok || got != 0.966 {
		t.Errorf("TargetShare = %v, %v; want 0.966", got, ok)
	}
	if _, ok := (Summary{RecordsAcked: 10, Elapsed: 1, RecordsPerSec: 10}).TargetShare(); ok {
		t.Error("an unpaced repeat has no target share")
	}
}
