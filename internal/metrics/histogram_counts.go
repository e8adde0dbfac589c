package metrics

import (
	"math"
	"math/bits"
)

// HdrHistogram's bucket geometry for kbench's fixed range and precision: values below
// subBucketCount are exact; above, each power of two holds subBucketCount/2 equal steps.
var (
	// subBucketCount is the smallest power of two that holds 2 * 10^LatencySigFigs.
	subBucketCount = int64(1) << uint(math.Ceil(math.Log2(2*math.Pow10(LatencySigFigs))))
	// subBucketHalfMagnitude is log2(subBucketCount/2).
	subBucketHalfMagnitude = uint(bits.TrailingZeros64(uint64(subBucketCount))) - 1
	// unitMagnitude is log2 of the lowest value told apart (1 microsecond: 0).
	unitMagnitude = uint(bits.Len64(uint64(LatencyMinMicros))) - 1
)

// indexRange is the lowest and highest value (microseconds) counted at HdrHistogram's
// counts index i.
func indexRange(i int) (lowest, highest int64) {
	half := subBucketCount >> 1
	bucket := int64(i>>subBucketHalfMagnitude) - 1
	sub := int64(i)&(half-1) + half
	if bucket < 0 {
		sub -= half
		bucket = 0
	}
	lowest = sub << (uint(bucket) + unitMagnitude)
	return lowest, lowest + int64(1)<<(uint(bucket)+unitMagnitude) - 1
}

// forEachCount calls f for each non-empty bucket of h in increasing order: its lowest and
// highest value in microseconds and its count. It scans a copy of the histogram's flat
// counts rather than walking HdrHistogram's iterator, which takes a method call for each of
// its ~21,500 buckets, empty or not (and Distribution a bar each): a live page and a
// Prometheus scrape read every histogram each second, and this keeps that under a tenth of
// a millisecond.
func (h *Histogram) forEachCount(f func(lowest, highest, count int64)) {
	for i, c := range h.h.Export().Counts {
		if c > 0 {
			lo, hi := indexRange(i)
			f(lo, hi, c)
		}
	}
}
