package load

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/metrics"
)

func TestLatencyShardsCount(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	tests := []struct {
		producers, want int
	}{
		{1, 1},                             // never more shards than producers
		{1000, procs},                      // one per P
		{0, 1},                             // at least one
		{procs + 1, procs},                 // capped
		{max(procs-1, 1), max(procs-1, 1)}, // fewer producers than Ps
	}
	for _, tt := range tests {
		if got := len(latencyShards(tt.producers)); got != tt.want {
			t.Errorf("latencyShards(%d) has %d shards, want %d (GOMAXPROCS %d)", tt.producers, got, tt.want, procs)
		}
	}
}

func TestShardMergersCountEveryRecord(t *testing.T) {
	shards := latencyShards(10)
	// 10 producers each record i+1 latencies (1 + 2 + ... + 10 = 55) into their shard.
	for i := range 10 {
		for range i + 1 {
			shards[i%len(shards)].due.Record(time.Millisecond)
		}
	}
	_, cum := shardMergers(shards, func(r *latencyRecorders) *metrics.Recorder { return r.due }).Tick()
	if cum.Count() != 55 {
		t.Errorf("merged %d latencies, want 55", cum.Count())
	}
}

// BenchmarkLatencyRecording records from 200 producers' worth of goroutines, each in a tight
// loop (far more contention than acknowledgements arriving over the network), into shared
// shards (as Produce does) and into a recorder set each (as it did): ns/op is the cost of
// two recorded latencies, so the difference is what sharing a shard's lock costs.
func BenchmarkLatencyRecording(b *testing.B) {
	for _, c := range []struct {
		name   string
		shards func(int) []*latencyRecorders
	}{
		{"shared-shards", latencyShards},
		{"set-per-producer", func(n int) []*latencyRecorders {
			s := make([]*latencyRecorders, n)
			for i := range s {
				s[i] = &latencyRecorders{due: metrics.NewRecorder(), send: metrics.NewRecorder()}
			}
			return s
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			shards := c.shards(200) // a set each: 400 x 172 KB, 69 MB
			var next atomic.Int64
			b.SetParallelism(max(200/runtime.GOMAXPROCS(0), 1))
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				r := shards[int(next.Add(1)-1)%len(shards)]
				for pb.Next() {
					r.due.Record(3 * time.Millisecond)
					r.send.Record(2 * time.Millisecond)
				}
			})
		})
	}
}
