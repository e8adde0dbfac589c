package verify

import (
	"context"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/faults"
)

// FaultRunner runs a fault schedule beside the load: Run returns when the schedule is done
// (every fault healed) or ctx ends, calling onEvent as faults take effect and heal, and
// returns the events. Recovered waits until the cluster is whole again (every replica in
// sync) before the read-back. planRunner is the real one; tests give a fake.
type FaultRunner interface {
	Run(ctx context.Context, onEvent func(faults.Event)) ([]faults.Event, error)
	Recovered(ctx context.Context) error
}

// FaultTarget makes the target the plan's faults are applied to, from a client of the
// cluster (faults.NewEmbeddedTarget, faults.NewCommandTarget).
type FaultTarget func(client *kgo.Client, topic string) (faults.Target, error)

// planRunner runs a faults.Plan on a faults.Target.
type planRunner struct {
	plan   faults.Plan
	target faults.Target
	admin  *kadm.Client
	topic  string
}

func (r *planRunner) Run(ctx context.Context, onEvent func(faults.Event)) ([]faults.Event, error) {
	return faults.Run(ctx, r.plan, r.target, onEvent)
}

func (r *planRunner) Recovered(ctx context.Context) error {
	return faults.WaitRecovered(ctx, r.admin, r.topic, recoverTimeout)
}

// recoverTimeout bounds the wait for the cluster to be whole again after the faults.
const recoverTimeout = 2 * time.Minute
