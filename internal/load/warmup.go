package load

import (
	"context"
	"time"
)

// ClusterWarmup is the unmeasured load put on a freshly started cluster: a cold Kafka runs
// 2-5x slower until its JIT has compiled the hot paths (a capacity search on a cluster just
// started measured 23,703 records/s unthrottled, and 121,815 90 s later), which would
// penalise whatever is measured first.
const ClusterWarmup = 15 * time.Second

// WarmUp produces 1 KiB records unthrottled with acks=all to topic for d, measuring
// nothing; the caller creates the topic (replicated, a few partitions per broker) and
// deletes it after. props are the connection's client properties.
func WarmUp(ctx context.Context, bootstrap string, props map[string]string, topic string, d time.Duration) error {
	p := map[string]string{"acks": "all", "linger.ms": "5"}
	for k, v := range props {
		p[k] = v
	}
	_, err := Produce(ctx, ProducerConfig{Bootstrap: bootstrap, Topic: topic, Properties: p,
		Producers: 1, RecordSize: 1024, Duration: d, Keys: KeysNone}, nil)
	return err
}
