package load

import (
	"sync"
	"sync/atomic"
)

// shareDelivery is one record as a share consumer received it.
type shareDelivery struct {
	topic     string
	partition int32
	offset    int64
	count     int32 // the broker's delivery count: 1 on first delivery
	released  bool  // this consumer released it, and the broker will deliver it again
}

type sharePartition struct {
	topic     string
	partition int32
}

// shareSeen accounts for a share group's deliveries across its consumers: which records were
// delivered at least once (a bit per offset, 64 to a word), and which were released and not
// delivered again yet. A redelivery the consumers did not ask for, of a record none of them
// released, is one whose acquisition lock expired or whose holder's session ended.
type shareSeen struct {
	mu       sync.Mutex
	seen     map[sharePartition]map[int64]uint64
	released map[sharePartition]map[int64]int // outstanding releases by offset
	distinct atomic.Int64
	pending  atomic.Int64 // released records not delivered again yet
}

func newShareSeen() *shareSeen {
	return &shareSeen{seen: map[sharePartition]map[int64]uint64{}, released: map[sharePartition]map[int64]int{}}
}

// add records one poll's deliveries and returns how many were redelivered without a release.
func (s *shareSeen) add(ds []shareDelivery) (unasked int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range ds {
		tp := sharePartition{d.topic, d.partition}
		words := s.seen[tp]
		if words == nil {
			words = map[int64]uint64{}
			s.seen[tp] = words
		}
		word, bit := d.offset>>6, uint64(1)<<(d.offset&63)
		if words[word]&bit == 0 {
			words[word] |= bit
			s.distinct.Add(1)
		}
		if d.count > 1 {
			if rel := s.released[tp]; rel[d.offset] > 0 {
				rel[d.offset]--
				s.pending.Add(-1)
			} else {
				unasked++
			}
		}
		if d.released {
			rel := s.released[tp]
			if rel == nil {
				rel = map[int64]int{}
				s.released[tp] = rel
			}
			rel[d.offset]++
			s.pending.Add(1)
		}
	}
	return unasked
}
