package load

import (
	"runtime"

	"github.com/kbench/kbench/internal/metrics"
)

// latencyRecorders are the four latency histograms a producer records into: due-time and
// send-time latency, over the whole run and over its steady state.
type latencyRecorders struct {
	due, send, steadyDue, steadySend *metrics.Recorder
}

// latencyShards returns the recorders the producers share: one set per shard, producer i
// using shard i%len. A set per producer would cost 4 x 172 KB (the fixed 1 us..10 min range at
// 3 significant digits is 21,504 int64 counts per histogram): 688 MB for 1,000 producers, and a
// tick would merge 2,000 of them. The promise holds a shard's lock for one RecordValue, and at
// most GOMAXPROCS goroutines run at once, so GOMAXPROCS shards keep contention as low as one
// set per producer did. Histograms merge exactly, so what is measured does not change.
func latencyShards(producers int) []*latencyRecorders {
	n := max(1, min(producers, runtime.GOMAXPROCS(0)))
	shards := make([]*latencyRecorders, n)
	for i := range shards {
		shards[i] = &latencyRecorders{
			due: metrics.NewRecorder(), send: metrics.NewRecorder(),
			steadyDue: metrics.NewRecorder(), steadySend: metrics.NewRecorder(),
		}
	}
	return shards
}

// shardMergers returns a merger over the recorder pick chooses in every shard.
func shardMergers(shards []*latencyRecorders, pick func(*latencyRecorders) *metrics.Recorder) *metrics.Merger {
	recs := make([]*metrics.Recorder, len(shards))
	for i, s := range shards {
		recs[i] = pick(s)
	}
	return metrics.NewMerger(recs...)
}
