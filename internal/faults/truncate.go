package faults

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/kbench/kbench/internal/cluster"
)

// electTimeout bounds the wait for the stale follower to lead its partition; with unclean
// leader election off it never does, and the partition stays offline until the heal.
const electTimeout = 30 * time.Second

// truncate applies Kafka's truncation_test recipe to the step's partition (see Truncate):
// the in-sync follower is stopped (SIGSTOP), and once it is out of the ISR the partition
// takes writes for s.Lag without it; the other replicas are killed and the follower is
// resumed (SIGCONT), stale, with no other replica alive. Inject returns once it leads the
// partition, or electTimeout has passed; the heal restarts the others.
//
// Why a pause and not a kill of the follower: on the embedded cluster the replicas are
// KRaft controllers too, and a partition of 2 replicas on the 3 controllers would have 2
// of them down at once, and no quorum to elect anyone; a paused follower comes back as
// soon as it is resumed, with the quorum, and with the log it had (a killed one would
// also come back with it, after a JVM start).
func (t *embedded) truncate(ctx context.Context, s Step) (inj Injection, err error) {
	where := fmt.Sprintf("%s-%d", t.topic, s.Partition)
	pd, err := partitionOf(ctx, t.client, t.topic, s.Partition)
	if err != nil {
		return Injection{}, fmt.Errorf("find the replicas of %s: %w", where, err)
	}
	stale, err := roleOf(pd, Follower)
	if err != nil {
		return Injection{}, fmt.Errorf("%s: %w", where, err)
	}
	var others []int32
	for _, id := range pd.Replicas {
		if id != stale {
			others = append(others, id)
		}
	}
	if err := quorumSurvives(t.c.Brokers(), others, where); err != nil {
		return Injection{}, err
	}
	inj = Injection{Broker: stale, Partition: s.Partition}
	// Whatever happens from here, the heal resumes the follower and restarts every
	// replica that is down.
	inj.Heal = func(ctx context.Context) (string, error) {
		_ = t.c.Kill(int(stale), syscall.SIGCONT) // refused only if it is not running
		return t.restartDown(ctx, pd.Replicas)
	}
	var detail []string
	step := func(format string, args ...any) { detail = append(detail, fmt.Sprintf(format, args...)) }
	// The detail says how far the recipe got, on error too.
	defer func() { inj.Detail = strings.Join(detail, ", ") }()

	step("SIGSTOP follower %d (pid %d) of %s", stale, pidOf(t.c, stale), where)
	if err := t.c.Kill(int(stale), syscall.SIGSTOP); err != nil {
		return inj, err
	}
	// Until the controller fences it (broker.session.timeout.ms) it stays in the ISR, and
	// acks=all writes wait for it: the lag counts from its removal.
	if err := t.waitOutOfISR(ctx, s.Partition, stale); err != nil {
		return inj, err
	}
	// The stale replica misses what the partition acknowledges from here: the leader's
	// high watermark. On a busy host the producers may still be waiting on requests sent
	// before the ISR shrank, so when the lag ends with nothing written, it is extended (up
	// to twice more) until something is: a truncation with nothing to truncate tests nothing.
	from, fromErr := t.highWatermark(ctx, s.Partition)
	lag, to := s.Lag, from
	if err := sleep(ctx, s.Lag); err != nil {
		return inj, err
	}
	for fromErr == nil {
		var err error
		if to, err = t.highWatermark(ctx, s.Partition); err != nil || to > from || lag >= 3*s.Lag {
			break
		}
		if err := sleep(ctx, time.Second); err != nil {
			return inj, err
		}
		lag += time.Second
	}
	if fromErr == nil {
		step("out of the ISR, then %s of writes without it (offsets %d to %d)", lag, from, to)
	} else {
		step("out of the ISR, then %s of writes without it", lag)
	}
	for _, id := range others {
		step("SIGKILL replica %d (pid %d)", id, pidOf(t.c, id))
		if err := t.killAndWait(ctx, id); err != nil {
			return inj, err
		}
	}
	step("SIGCONT %d", stale)
	if err := t.c.Kill(int(stale), syscall.SIGCONT); err != nil {
		return inj, err
	}
	if err := waitRegistered(ctx, t.client, stale); err != nil {
		return inj, err
	}
	if t.waitLeader(ctx, s.Partition, stale) {
		step("it leads %s (unclean election)", where)
	} else {
		step("not elected within %s (unclean.leader.election.enable off keeps %s offline)", electTimeout, where)
	}
	return inj, nil
}

// quorumSurvives refuses to kill, all at once, brokers that hold a majority of the KRaft
// controllers: no leader could be elected then, unclean or not. On the embedded cluster
// the first three nodes are controllers, so a truncate of a partition with 3 replicas
// there would stop 2 of them; 2 replicas (the follower is only paused) are fine.
func quorumSurvives(brokers []cluster.Broker, killed []int32, where string) error {
	var all, down []int
	for _, b := range brokers {
		if b.Controller {
			all = append(all, b.ID)
			if slices.Contains(killed, int32(b.ID)) {
				down = append(down, b.ID)
			}
		}
	}
	if len(all) > 0 && 2*(len(all)-len(down)) <= len(all) {
		return fmt.Errorf("truncate of %s would kill KRaft controllers %v of %v at once, and with them every election: give the topic 2 replicas, or put them on brokers that are not controllers (brokers %d and up)", where, down, all, len(all)+1)
	}
	return nil
}

func (t *embedded) killAndWait(ctx context.Context, id int32) error {
	if err := t.c.Kill(int(id), syscall.SIGKILL); err != nil {
		return err
	}
	return t.c.WaitExited(ctx, int(id), killExitTimeout)
}

// waitOutOfISR waits until broker id has left partition p's ISR, up to electTimeout.
func (t *embedded) waitOutOfISR(ctx context.Context, p, id int32) error {
	deadline := time.Now().Add(electTimeout)
	for time.Now().Before(deadline) {
		if pd, err := partitionOf(ctx, t.client, t.topic, p); err == nil && !slices.Contains(pd.ISR, id) {
			return nil
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return fmt.Errorf("killed follower %d still in the ISR of %s-%d after %s", id, t.topic, p, electTimeout)
}

// waitLeader reports whether broker id leads partition p within electTimeout.
func (t *embedded) waitLeader(ctx context.Context, p, id int32) bool {
	deadline := time.Now().Add(electTimeout)
	for time.Now().Before(deadline) {
		if pd, err := partitionOf(ctx, t.client, t.topic, p); err == nil && pd.Leader == id {
			return true
		}
		if sleep(ctx, 250*time.Millisecond) != nil {
			return false
		}
	}
	return false
}

// restartDown restarts every one of ids whose process is not running, in order.
func (t *embedded) restartDown(ctx context.Context, ids []int32) (string, error) {
	var done []string
	for _, id := range ids {
		if t.c.Alive()[int(id)] {
			continue
		}
		msg, err := t.restart(ctx, id)
		if err != nil {
			return "", err
		}
		done = append(done, msg)
	}
	return strings.Join(done, ", "), nil
}

// highWatermark is partition p's high watermark as its leader answers it: the offset up to
// which records are acknowledged.
func (t *embedded) highWatermark(ctx context.Context, p int32) (int64, error) {
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	ends, err := kadm.NewClient(t.client).ListEndOffsets(rctx, t.topic)
	if err != nil {
		return 0, err
	}
	o, ok := ends.Lookup(t.topic, p)
	if !ok || o.Err != nil {
		return 0, fmt.Errorf("end offset of %s-%d: %v", t.topic, p, o.Err)
	}
	return o.Offset, nil
}
