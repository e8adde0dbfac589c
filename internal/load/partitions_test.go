package load

import (
	"context"
	"testing"
	"time"
)

// TestPartitionsFake: producers restricted to partitions 1 and 2 write nothing to 0, and
// consumers assigned 1 and 2 (no group) read every record.
func TestPartitionsFake(t *testing.T) {
	bs := newFakeCluster(t, "p")
	ctx := context.Background()
	res, err := Produce(ctx, ProducerConfig{Bootstrap: bs, Topic: "p", Producers: 2, RecordSize: 10, Records: 300,
		Keys: KeysRoundRobin, KeySpace: 7, Partitions: []int32{1, 2}}, nil)
	if err != nil || res.Total.Acked != 300 {
		t.Fatalf("produce: %v, %+v", err, res)
	}
	c, err := Consume(ctx, ConsumerConfig{Bootstrap: bs, Topics: []string{"p"}, Consumers: 3, Partitions: []int32{1, 2},
		Records: 300, Timeout: 5 * time.Second}, nil)
	if err != nil || c.Records != 300 || c.Consumers != 2 {
		t.Fatalf("consume 1 and 2: %v, %d records by %d consumers; want 300 by 2 (one per partition)", err, c.Records, c.Consumers)
	}
	none, err := Consume(ctx, ConsumerConfig{Bootstrap: bs, Topics: []string{"p"}, Partitions: []int32{0}, Timeout: time.Second}, nil)
	if err != nil || none.Records != 0 {
		t.Fatalf("partition 0: %v, %d records, want none", err, none.Records)
	}
}
