package runner

import (
	"context"
	"fmt"

	"github.com/kbench/kbench/internal/load"
)

// warmCluster warms the run's new cluster as load.WarmRule(cluster.jit_warmup) says. A
// fixed 15 s left the cluster far from warm: the quick study's records/s then rose with
// every round (Kendall tau 1.00, about +84% a round), and the same warm-up measured went on
// for 55 s (5,406 to 50,222 records/s in its 5 s slices), after which the quick study showed
// no drift and half the spread.
func (r *runner) warmCluster(ctx context.Context) error {
	atMost := r.plan.Cluster.JITWarmup
	if atMost == 0 {
		fmt.Fprintln(r.opts.Log, "no JIT warm-up of the new cluster (cluster.jit_warmup: 0s)")
		return nil
	}
	var pids []int
	for _, b := range r.target.brokers {
		if b.PID > 0 {
			pids = append(pids, b.PID)
		}
	}
	return load.WarmCluster(ctx, load.WarmTarget{
		Bootstrap: r.target.bootstrap,
		Props:     clientProps(r.target.endpoint, nil),
		Brokers:   len(r.target.brokers),
		PIDs:      pids,
		Topic:     r.prefix + "-jit-warmup",
		Create: func(ctx context.Context, topic string, partitions, replicas int) error {
			return r.createTopic(ctx, topic, partitions, replicas, nil)
		},
		Delete: func(ctx context.Context, topic string) error {
			r.release(ctx, topic, "")
			return nil
		},
	}, atMost, "cluster.jit_warmup: 0s skips it", r.opts.Log)
}
