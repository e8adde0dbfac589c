package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/kbench/kbench/internal/load"
)

// warmCluster produces to a replicated warm-up topic for load.ClusterWarmup (or the
// study's cluster.jit_warmup if shorter), and on while its rate climbs up to jit_warmup,
// then deletes it. A fixed 15 s left the cluster far from warm: the quick study's
// records/s then rose with every round (Kendall tau 1.00, about +84% a round), and the same
// warm-up measured went on for 55 s (5,406 to 50,222 records/s in its 5 s slices), after
// which the quick study showed no drift and half the spread.
func (r *runner) warmCluster(ctx context.Context) error {
	atMost := r.plan.Cluster.JITWarmup
	if atMost == 0 {
		fmt.Fprintln(r.opts.Log, "no JIT warm-up of the new cluster (cluster.jit_warmup: 0s)")
		return nil
	}
	atLeast := min(load.ClusterWarmup, atMost)
	topic := r.prefix + "-jit-warmup"
	replicas := min(3, len(r.target.brokers))
	fmt.Fprintf(r.opts.Log, "warming up the new cluster's JIT for %s (unmeasured)\n", warmupRule(atMost))
	defer r.release(ctx, topic, "")
	if err := r.createTopic(ctx, topic, 3*len(r.target.brokers), replicas, nil); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	warmed, err := load.WarmUp(ctx, r.target.bootstrap, clientProps(r.target.endpoint, nil), topic, atLeast, atMost)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	if err == nil {
		fmt.Fprintln(r.opts.Log, warmed)
	}
	return ctx.Err()
}

// warmupRule says how long a cluster's warm-up runs for a jit_warmup of atMost.
func warmupRule(atMost time.Duration) string {
	if atLeast := min(load.ClusterWarmup, atMost); atLeast < atMost {
		return fmt.Sprintf("%s, and on while one of its last two 5 s slices beat every earlier one by more than 10%%, up to %s", atLeast, atMost)
	}
	return atMost.String()
}
