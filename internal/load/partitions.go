package load

import "github.com/twmb/franz-go/pkg/kgo"

// onlyPartitions is a partitioner that writes only to parts of each topic (ProducerConfig.
// Partitions): an agent's producers write its own partitions, so its own consumers read
// exactly what it wrote and every end-to-end latency is measured on one host's clock. Within
// parts records are spread as kgo's sticky key partitioner does (keys hashed, keyless records
// sticky per batch), not as Java's adaptive default (KIP-794), whose backup iteration cannot
// be restricted to a subset of partitions.
func onlyPartitions(parts []int32) kgo.Partitioner {
	return &restricted{inner: kgo.StickyKeyPartitioner(nil), parts: parts}
}

type restricted struct {
	inner kgo.Partitioner
	parts []int32
}

func (r *restricted) ForTopic(t string) kgo.TopicPartitioner {
	return &restrictedTopic{inner: r.inner.ForTopic(t), parts: r.parts}
}

type restrictedTopic struct {
	inner kgo.TopicPartitioner
	parts []int32
}

func (r *restrictedTopic) RequiresConsistency(rec *kgo.Record) bool {
	return r.inner.RequiresConsistency(rec)
}

// Partition maps the inner partitioner's choice among len(parts) onto parts; a part beyond
// the topic's n partitions (a topic smaller than planned) falls back to all of them.
func (r *restrictedTopic) Partition(rec *kgo.Record, n int) int {
	for _, p := range r.parts {
		if int(p) >= n || p < 0 {
			return r.inner.Partition(rec, n)
		}
	}
	return int(r.parts[r.inner.Partition(rec, len(r.parts))])
}

// OnNewBatch lets the sticky partitioner move on when a batch closes.
func (r *restrictedTopic) OnNewBatch() {
	if nb, ok := r.inner.(kgo.TopicPartitionerOnNewBatch); ok {
		nb.OnNewBatch()
	}
}
