package faults

import (
	"context"
	"fmt"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster"
)

// A SIGKILLed JVM is gone within a second; a SIGTERM's controlled shutdown moves the
// broker's leaderships away first, which takes seconds on a busy machine. Past these
// bounds the fault is reported as failed (and healed).
const (
	killExitTimeout = 15 * time.Second
	termExitTimeout = 2 * time.Minute
)

// embedded applies faults to the embedded cluster by PID (internal/cluster).
type embedded struct {
	c      *cluster.Cluster
	client *kgo.Client
	topic  string
}

// NewEmbeddedTarget returns the target that applies faults to the embedded cluster c.
// client (any client of c; it is not closed) finds the leader and followers of topic's
// partitions and the active controller.
func NewEmbeddedTarget(c *cluster.Cluster, client *kgo.Client, topic string) Target {
	return &embedded{c: c, client: client, topic: topic}
}

// Check refuses a cut on a cluster without proxies in this process.
func (t *embedded) Check(_ context.Context, p Plan) error {
	if p.Uses(Cut) {
		if err := t.c.CanCut(); err != nil {
			return fmt.Errorf("fault cut: %w", err)
		}
	}
	return nil
}

// Inject finds the step's broker and applies the step to it.
func (t *embedded) Inject(ctx context.Context, s Step) (Injection, error) {
	if s.Action == Truncate {
		return t.truncate(ctx, s)
	}
	id, role, err := pick(ctx, t.client, t.topic, s)
	if err != nil {
		return Injection{}, err
	}
	inj := Injection{Broker: id, Partition: s.Partition}
	if s.Role == Controller {
		inj.Partition = -1
	}
	if !t.c.Alive()[int(id)] {
		return inj, fmt.Errorf("broker %d (%s) is not running", id, role)
	}
	pid := pidOf(t.c, id)
	switch s.Action {
	case Kill, Term:
		sig, wait := syscall.SIGKILL, killExitTimeout
		if s.Action == Term {
			sig, wait = syscall.SIGTERM, termExitTimeout
		}
		inj.Detail = fmt.Sprintf("%s broker %d (pid %d), %s", signalName(sig), id, pid, role)
		if err := t.c.Kill(int(id), sig); err != nil {
			return inj, err
		}
		inj.Heal = func(ctx context.Context) (string, error) { return t.restart(ctx, id) }
		return inj, t.c.WaitExited(ctx, int(id), wait)
	case Pause:
		inj.Detail = fmt.Sprintf("SIGSTOP broker %d (pid %d), %s", id, pid, role)
		if err := t.c.Kill(int(id), syscall.SIGSTOP); err != nil {
			return inj, err
		}
		inj.Heal = func(context.Context) (string, error) {
			if err := t.c.Kill(int(id), syscall.SIGCONT); err != nil {
				return "", err
			}
			return fmt.Sprintf("SIGCONT broker %d (pid %d)", id, pid), nil
		}
		return inj, nil
	case Cut:
		inj.Detail = fmt.Sprintf("cut broker %d's proxies, %s", id, role)
		if err := t.c.Cut(int(id), true); err != nil {
			return inj, err
		}
		inj.Heal = func(context.Context) (string, error) {
			if err := t.c.Cut(int(id), false); err != nil {
				return "", err
			}
			return fmt.Sprintf("reopened broker %d's proxies", id), nil
		}
		return inj, nil
	}
	return inj, fmt.Errorf("action %q: not one of kill, term, pause, cut, truncate", s.Action)
}

// restart starts broker id again once its process has gone, and returns once it is
// registered; a broker that outlives a SIGTERM past the bound is killed first, so the heal
// always ends with a fresh broker.
func (t *embedded) restart(ctx context.Context, id int32) (string, error) {
	if t.c.Alive()[int(id)] {
		if err := t.c.Kill(int(id), syscall.SIGKILL); err != nil {
			return "", err
		}
		if err := t.c.WaitExited(ctx, int(id), killExitTimeout); err != nil {
			return "", err
		}
	}
	b, err := t.c.Restart(ctx, int(id))
	if err != nil {
		return "", err
	}
	if err := waitRegistered(ctx, t.client, id); err != nil {
		return "", err
	}
	return fmt.Sprintf("restarted broker %d (pid %d)", id, b.PID), nil
}

// registerTimeout bounds the wait for a restarted broker to be back in the cluster's
// metadata; it recovers its logs first, which takes longer the more it holds.
const registerTimeout = 2 * time.Minute

// waitRegistered waits until broker id is in the cluster's metadata again: a KRaft cluster
// lists only unfenced brokers, so the broker has caught up with the metadata log and can
// lead and follow partitions. A listening port alone comes earlier, and the next fault
// would then find fewer brokers than the plan assumes.
func waitRegistered(ctx context.Context, client *kgo.Client, id int32) error {
	ctx, cancel := context.WithTimeout(ctx, registerTimeout)
	defer cancel()
	admin := kadm.NewClient(client)
	last := "no answer"
	for {
		rctx, rcancel := context.WithTimeout(ctx, 5*time.Second)
		md, err := admin.BrokerMetadata(fresh(rctx))
		rcancel()
		if err != nil {
			last = err.Error()
		} else {
			last = fmt.Sprintf("brokers %v", md.Brokers.NodeIDs())
			for _, b := range md.Brokers {
				if b.NodeID == id {
					return nil
				}
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("restarted broker %d not back in the cluster's metadata within %s (last: %s)", id, registerTimeout, last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func pidOf(c *cluster.Cluster, id int32) int {
	for _, b := range c.Brokers() {
		if b.ID == int(id) {
			return b.PID
		}
	}
	return 0
}

func signalName(sig syscall.Signal) string {
	if sig == syscall.SIGTERM {
		return "SIGTERM"
	}
	return "SIGKILL"
}

// pick resolves the step's role to a node id, and describes it: "leader of t-0".
func pick(ctx context.Context, client *kgo.Client, topic string, s Step) (int32, string, error) {
	if s.Role == Controller {
		rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		id, err := activeController(rctx, client)
		return id, "active controller", err
	}
	pd, err := partitionOf(ctx, client, topic, s.Partition)
	if err != nil {
		return 0, "", fmt.Errorf("find the %s of %s-%d: %w", s.Role, topic, s.Partition, err)
	}
	where := fmt.Sprintf("%s-%d", topic, s.Partition)
	id, err := roleOf(pd, s.Role)
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", where, err)
	}
	return id, fmt.Sprintf("%s of %s", s.Role, where), nil
}

// partitionOf returns partition p of topic as the cluster describes it now. A broker that
// has just started, or just learnt of the topic, may not know it yet: asked again for up
// to 5 s.
func partitionOf(ctx context.Context, client *kgo.Client, topic string, p int32) (kadm.PartitionDetail, error) {
	var pd kadm.PartitionDetail
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; {
		if pd, err = partitionOnce(ctx, client, topic, p); err == nil || time.Now().After(deadline) {
			return pd, err
		}
		if serr := sleep(ctx, 200*time.Millisecond); serr != nil {
			return pd, err
		}
	}
}

func partitionOnce(ctx context.Context, client *kgo.Client, topic string, p int32) (kadm.PartitionDetail, error) {
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	md, err := kadm.NewClient(client).Metadata(fresh(rctx), topic)
	if err != nil {
		return kadm.PartitionDetail{}, err
	}
	td, ok := md.Topics[topic]
	if !ok || td.Err != nil {
		return kadm.PartitionDetail{}, fmt.Errorf("topic %q not found (%v)", topic, td.Err)
	}
	pd, ok := td.Partitions[p]
	if !ok {
		return kadm.PartitionDetail{}, fmt.Errorf("partition %d: topic %s has partitions 0 to %d", p, topic, len(td.Partitions)-1)
	}
	return pd, nil
}

// roleOf returns the partition's leader, or its in-sync follower with the lowest node id
// (a stable choice, so a plan hits the same broker for the same metadata).
func roleOf(pd kadm.PartitionDetail, r Role) (int32, error) {
	if pd.Leader < 0 {
		return 0, fmt.Errorf("no leader (replicas %v, isr %v)", pd.Replicas, pd.ISR)
	}
	if r == Leader {
		return pd.Leader, nil
	}
	best := int32(-1)
	for _, id := range pd.ISR {
		if id != pd.Leader && (best < 0 || id < best) {
			best = id
		}
	}
	if best < 0 {
		return 0, fmt.Errorf("no in-sync follower (leader %d, isr %v)", pd.Leader, pd.ISR)
	}
	return best, nil
}
