package verify

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkCheck10M checks ten million acknowledged records (8 producers, 16 partitions,
// read back in fetch-sized chunks of 10,000) and reports the peak heap, history included.
// The target is under a minute and under 1 GiB.
func BenchmarkCheck10M(b *testing.B) {
	const producers, perProducer, partitions = 8, 1_250_000, 16
	peak := watchHeap(b)
	for b.Loop() {
		b.StopTimer()
		h := NewHistory(1, producers, partitions)
		next := make([]int64, partitions) // the next offset of each partition
		for s := int64(0); s < perProducer; s++ {
			for i := range int32(producers) {
				p := expectedPartition(i, s, partitions)
				h.Sent(int(i), s)
				h.Acked(int(i), s, p, next[p])
				next[p]++
			}
		}
		b.StartTimer()
		c := NewChecker(h)
		// The read-back as a consumer delivers it: each partition in offset order, its
		// records in the order they were acknowledged, which the history's writing order
		// reproduces.
		chunk := make([]Entry, 0, 10_000)
		for p := range int32(partitions) {
			off := int64(0)
			for s := int64(0); s < perProducer; s++ {
				for i := range int32(producers) {
					if expectedPartition(i, s, partitions) != p {
						continue
					}
					chunk = append(chunk, Entry{Offset: off, Seq: s, Producer: i})
					off++
					if len(chunk) == cap(chunk) {
						c.Add(p, chunk)
						chunk = chunk[:0]
					}
				}
			}
			c.Add(p, chunk)
			chunk = chunk[:0]
		}
		counts, _ := c.Finish()
		if counts != (Counts{}) || c.Reads() != producers*perProducer {
			b.Fatalf("counts %+v after %d reads, want clean after %d", counts, c.Reads(), producers*perProducer)
		}
	}
	b.ReportMetric(float64(peak())/(1<<20), "peak-heap-MiB")
}

// watchHeap samples the heap every 20 ms until the benchmark ends and returns a function
// giving the highest in-use heap seen.
func watchHeap(b *testing.B) func() uint64 {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	b.Cleanup(func() { close(done); wg.Wait() })
	return func() uint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return max(peak.Load(), m.HeapInuse)
	}
}
