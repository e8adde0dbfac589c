package load

import (
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

func fetched(topic string, part int32, offsets ...int64) kgo.FetchTopicPartition {
	p := kgo.FetchTopicPartition{Topic: topic, FetchPartition: kgo.FetchPartition{Partition: part}}
	for _, o := range offsets {
		p.Records = append(p.Records, &kgo.Record{Topic: topic, Partition: part, Offset: o})
	}
	return p
}

func TestRereads(t *testing.T) {
	r := newRereads()
	steps := []struct {
		p    kgo.FetchTopicPartition
		want int64
	}{
		{fetched("a", 0, 0, 1, 2), 0},
		{fetched("a", 0, 3, 4), 0},
		// A new owner resumed at the committed offset 2: 2, 3 and 4 were read already.
		{fetched("a", 0, 2, 3, 4, 5), 3},
		// Another partition and another topic are counted apart.
		{fetched("a", 1, 0, 1), 0},
		{fetched("b", 0, 0), 0},
		// A gap (a transaction marker at 6) is no re-read.
		{fetched("a", 0, 7), 0},
		{fetched("a", 0), 0},
		{fetched("a", 1, 1, 2), 1},
	}
	for i, s := range steps {
		if got := r.count(s.p); got != s.want {
			t.Errorf("step %d: %d re-read, want %d", i, got, s.want)
		}
	}
}
