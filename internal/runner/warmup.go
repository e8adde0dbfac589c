package runner

import (
	"context"
	"fmt"

	"github.com/kbench/kbench/internal/load"
)

// clusterWarmup is the unmeasured load put on a cluster the run started (load.ClusterWarmup).
const clusterWarmup = load.ClusterWarmup

// warmCluster produces to a replicated warm-up topic for clusterWarmup, then deletes it.
func (r *runner) warmCluster(ctx context.Context) error {
	topic := r.prefix + "-jit-warmup"
	replicas := min(3, len(r.target.brokers))
	fmt.Fprintf(r.opts.Log, "warming up the new cluster's JIT for %s (unmeasured)\n", clusterWarmup)
	defer r.release(ctx, topic, "")
	if err := r.createTopic(ctx, topic, 3*len(r.target.brokers), replicas, nil); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	// A fixed length: a study's repeats are interleaved and warm up each, and the demo
	// must stay within its minutes.
	_, err := load.WarmUp(ctx, r.target.bootstrap, clientProps(r.target.endpoint, nil), topic, clusterWarmup, clusterWarmup)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	return ctx.Err()
}
