package metrics

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestIndexRangeByHand(t *testing.T) {
	// 3 significant figures: 2,048 exact values, then 1,024 steps per doubling, each twice
	// as wide as the one below.
	for _, tt := range []struct {
		index       int
		lowest, top int64
	}{
		{0, 0, 0},
		{1023, 1023, 1023},
		{1024, 1024, 1024},
		{2047, 2047, 2047},
		{2048, 2048, 2049},
		{3071, 4094, 4095},
		{3072, 4096, 4099},
	} {
		lo, hi := indexRange(tt.index)
		if lo != tt.lowest || hi != tt.top {
			t.Errorf("indexRange(%d) = %d-%d, want %d-%d", tt.index, lo, hi, tt.lowest, tt.top)
		}
	}
}

// TestForEachCountAgreesWithDistribution checks the flat scan against hdrhistogram's own
// iterator, bucket for bucket, and Merge and Clone against recording every value twice.
func TestForEachCountAgreesWithDistribution(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	h, twice := NewHistogram(), NewHistogram()
	for range 20000 {
		d := time.Duration(rng.ExpFloat64() * float64(20*time.Millisecond))
		if rng.IntN(50) == 0 {
			d = time.Duration(rng.Int64N(int64(20 * time.Minute))) // some clamped at 10 min
		}
		h.Record(d)
		twice.Record(d)
		twice.Record(d)
	}
	var want [][3]int64
	for _, b := range h.h.Distribution() {
		if b.Count > 0 {
			want = append(want, [3]int64{b.From, b.To, b.Count})
		}
	}
	var got [][3]int64
	h.forEachCount(func(lo, hi, n int64) { got = append(got, [3]int64{lo, hi, n}) })
	if len(got) != len(want) {
		t.Fatalf("%d buckets, Distribution has %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("bucket %d: %v, Distribution says %v", i, got[i], want[i])
		}
	}
	merged := h.Clone()
	merged.Merge(h)
	if !merged.h.Equals(twice.h) || merged.Clamped() != twice.Clamped() {
		t.Errorf("h merged with itself differs from every value recorded twice (clamped %d, want %d)", merged.Clamped(), twice.Clamped())
	}
	if h.Count() != 20000 {
		t.Errorf("Clone and Merge changed the original: %d values", h.Count())
	}
}
