package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/kbench/kbench/internal/load"
)

// clusterWarmup is the unmeasured load put on a freshly started cluster: a cold Kafka runs
// 2-5x slower until its JIT has compiled the hot paths, which would penalise the first
// scenario of every study.
const clusterWarmup = 15 * time.Second

// warmCluster produces to a replicated warm-up topic for clusterWarmup, then deletes it.
func (r *runner) warmCluster(ctx context.Context) error {
	topic := r.prefix + "-jit-warmup"
	replicas := min(3, len(r.target.brokers))
	fmt.Fprintf(r.opts.Log, "warming up the new cluster's JIT for %s (unmeasured)\n", clusterWarmup)
	defer r.release(ctx, topic, "")
	if err := r.createTopic(ctx, topic, 3*len(r.target.brokers), replicas, nil); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	_, err := load.Produce(ctx, load.ProducerConfig{Bootstrap: r.target.bootstrap, Topic: topic,
		Properties: clientProps(r.target.endpoint, map[string]string{"acks": "all", "linger.ms": "5"}),
		Producers:  1, RecordSize: 1024, Duration: clusterWarmup, Keys: load.KeysNone}, nil)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	return ctx.Err()
}
