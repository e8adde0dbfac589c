package load

import (
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"
)

// rereads tells records read a second time from the first reads, by offset: after a
// rebalance a partition's new owner resumes from the last committed offset, so consumers in
// one group may read some records twice. Counting them apart keeps the consumed count
// comparable, exactly, with the acknowledged one.
type rereads struct {
	mu   sync.Mutex
	next map[string]map[int32]int64 // the offset after the highest one read, by topic and partition
}

func newRereads() *rereads { return &rereads{next: map[string]map[int32]int64{}} }

// count returns how many of p's records were read before. A partition's records come in
// offset order, and a re-read starts below the highest offset read.
func (r *rereads) count(p kgo.FetchTopicPartition) int64 {
	if len(p.Records) == 0 {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	parts := r.next[p.Topic]
	if parts == nil {
		parts = map[int32]int64{}
		r.next[p.Topic] = parts
	}
	next, seen := parts[p.Partition]
	var n int64
	for _, rec := range p.Records {
		if seen && rec.Offset < next {
			n++
		}
	}
	if last := p.Records[len(p.Records)-1].Offset + 1; !seen || last > next {
		parts[p.Partition] = last
	}
	return n
}
