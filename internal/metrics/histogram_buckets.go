package metrics

// Bucket is one bar of a histogram: Count values at most UpperMicros and above the previous
// bucket's bound.
type Bucket struct {
	UpperMicros int64
	Count       int64
}

// bucketGrowth is the width of a stored bucket relative to its lower bound: 2 %, fine enough
// for percentile curves while keeping a run directory small (HdrHistogram's own buckets
// number in the tens of thousands).
const bucketGrowth = 1.02

// Buckets returns the histogram's non-empty buckets in increasing order, each at most 2 %
// wide, for storing curves that a report can draw without the histogram itself.
func (h *Histogram) Buckets() []Bucket {
	var out []Bucket
	lower := int64(-1)
	h.forEachCount(func(from, to, count int64) {
		n := len(out)
		if n > 0 && float64(to) <= float64(lower)*bucketGrowth {
			out[n-1].UpperMicros = to
			out[n-1].Count += count
			return
		}
		lower = from
		out = append(out, Bucket{UpperMicros: to, Count: count})
	})
	return out
}
