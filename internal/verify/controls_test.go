package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/faults"
)

// The controls of kbench verify, CI-sized: a claim that holds must come out clean, and a
// configuration known to lose acknowledged records must show loss, or the checker or the
// faults are broken. Each runs a few seconds of load on the shared cluster.

var controlTopic = 0

// controlConfig is a verify run on the test cluster with the plan spec applied to it.
func controlConfig(t *testing.T, spec string, d time.Duration, acks string, replicas, minISR int, unclean bool) Config {
	t.Helper()
	plan, err := faults.Parse(spec, 1)
	if err != nil {
		t.Fatal(err)
	}
	controlTopic++
	return Config{Bootstrap: testCluster.Bootstrap(), Topic: fmt.Sprintf("kbench-verify-control-%d-%d", time.Now().Unix(), controlTopic),
		Partitions: 3, Replicas: replicas, Producers: 2, Rate: 1000, Duration: d,
		TopicConfigs: map[string]string{"min.insync.replicas": fmt.Sprint(minISR),
			"unclean.leader.election.enable": fmt.Sprint(unclean)},
		ProducerProps: map[string]string{"acks": acks},
		FaultPlan:     plan,
		FaultTarget: func(cl *kgo.Client, topic string) (faults.Target, error) {
			return faults.NewEmbeddedTarget(testCluster, cl, topic), nil
		},
		Progress: func(s string) { t.Log(s) },
	}
}

func runControl(t *testing.T, cfg Config) *Result {
	t.Helper()
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", res.Accounting())
	t.Logf("%s", res.Verdict())
	if res.Totals.Acked == 0 {
		t.Fatalf("nothing acknowledged: %+v", res.Totals)
	}
	return res
}

// TestControlBaseline: no fault, acks=all, RF 3, min.insync.replicas 2: clean.
func TestControlBaseline(t *testing.T) {
	clustertest.Need(t, testCluster)
	res := runControl(t, controlConfig(t, "", 3*time.Second, "all", 3, 2, false))
	if !res.Clean() || res.Totals.Failed != 0 || res.Read.Records != res.Totals.Acked {
		t.Errorf("baseline not clean: %s; %s", res.Accounting(), res.Verdict())
	}
}

// TestControlLeaderKillsClean: the positive case, acks=all, min.insync.replicas 2, RF 3,
// the leader of partition 0 killed three times: nothing acknowledged is lost.
func TestControlLeaderKillsClean(t *testing.T) {
	clustertest.Need(t, testCluster)
	// A kill takes the broker down for a second; its restart takes 5 to 15 s on a busy
	// 2-core machine and 19-36 s while other packages' clusters share it (make test), and
	// the next kill waits for it: 70 s of load hold three on a quiet host, two at least on
	// a loaded one. The claim needs a leader killed under load more than once, not three.
	res := runControl(t, controlConfig(t, "leader-kill x3 every 3s after 1s heal 1s", 70*time.Second, "all", 3, 2, false))
	if len(res.Faults) < 2 {
		t.Errorf("%d faults applied, want at least 2 of 3: %+v", len(res.Faults), res.Faults)
	} else if len(res.Faults) < 3 {
		t.Logf("%d of 3 faults applied within the load (%s)", len(res.Faults), res.FaultsCutShort)
	}
	if !res.Clean() {
		t.Errorf("acks=all under leader kills not clean: %s; examples %+v", res.Verdict(), res.Examples)
	}
}

// TestControlAcks1LeaderKillLoses: the negative control for acks=1 (min.insync.replicas 1,
// RF 2): the leader acknowledges before its follower has the records, so a leader kill
// loses what only the leader had. Killing a leader under load loses records only when the
// kill lands between an acknowledgement and the follower's next fetch, which on one host is
// a millisecond; so the follower of partition 0 is paused (SIGSTOP) for two seconds while
// the leader acknowledges alone, well within the broker session timeout, so that it stays in
// the ISR. The leader is then killed and the follower resumed: a clean election makes it the
// leader without those records, and the old leader truncates them when it restarts.
func TestControlAcks1LeaderKillLoses(t *testing.T) {
	clustertest.Need(t, testCluster)
	cfg := controlConfig(t, "", 40*time.Second, "1", 2, 1, false)
	cfg.Partitions, cfg.Rate = 1, 500
	res := runControl(t, withStaleFollower(t, cfg, false))
	if res.Counts.Lost == 0 {
		t.Errorf("acks=1 with a leader killed ahead of its follower lost nothing: the checker or the fault is broken (%s)", res.Verdict())
	}
}

// TestControlUncleanElectionLoses is Kafka's truncation_test recipe: RF 2,
// min.insync.replicas 1, unclean.leader.election.enable=true. The follower of partition 0 is
// paused until it drops out of the ISR, writes go on to the leader alone, the leader is
// killed, the stale follower resumes and is elected uncleanly, and the old leader, restarted,
// truncates what only it had: acknowledged records are lost.
func TestControlUncleanElectionLoses(t *testing.T) {
	clustertest.Need(t, testCluster)
	cfg := controlConfig(t, "", 50*time.Second, "all", 2, 1, true)
	cfg.Partitions, cfg.Rate = 1, 500
	res := runControl(t, withStaleFollower(t, cfg, true))
	if res.Counts.Lost == 0 {
		t.Errorf("unclean election after a stale follower lost nothing: the checker or the fault is broken (%s)", res.Verdict())
	}
}

// withStaleFollower returns cfg with the truncation recipe as its faults, with a client of
// its own closed when the test ends.
func withStaleFollower(t *testing.T, cfg Config, unclean bool) Config {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	cfg.Faults = &truncation{t: t, admin: kadm.NewClient(cl), topic: cfg.Topic, unclean: unclean}
	return cfg
}

// truncation runs the truncation recipe on partition 0 of topic (see
// TestControlUncleanElectionLoses and TestControlAcks1LeaderKillLoses); it always resumes
// and restarts what it stopped. unclean: the follower stays paused until it leaves the ISR,
// so its election is unclean; otherwise it is paused two seconds and stays in the ISR.
type truncation struct {
	t       *testing.T
	admin   *kadm.Client
	topic   string
	unclean bool
}

func (r *truncation) Recovered(ctx context.Context) error {
	return faults.WaitRecovered(ctx, r.admin, r.topic, 2*time.Minute)
}

func (r *truncation) Run(ctx context.Context, on func(faults.Event)) ([]faults.Event, error) {
	heal := context.WithoutCancel(ctx)
	time.Sleep(2 * time.Second) // steady writes first
	leader, isr, err := r.partition(ctx)
	if err != nil || len(isr) != 2 {
		return nil, fmt.Errorf("partition 0: leader %d isr %v: %v", leader, isr, err)
	}
	follower := isr[0]
	if follower == leader {
		follower = isr[1]
	}
	var events []faults.Event
	// 1. Pause the follower until the controller fences it and the ISR is the leader alone.
	pause := faults.Event{Kind: "pause-follower", Broker: follower, At: time.Now(),
		Detail: fmt.Sprintf("SIGSTOP broker %d, follower of %s-0", follower, r.topic)}
	if err := testCluster.Kill(int(follower), syscall.SIGSTOP); err != nil {
		return nil, err
	}
	resumed := false
	defer func() {
		if !resumed {
			_ = testCluster.Kill(int(follower), syscall.SIGCONT)
		}
	}()
	pause.Applied = time.Now()
	on(pause)
	if r.unclean {
		if err := r.waitFor(ctx, func(l int32, isr []int32) bool { return len(isr) == 1 && isr[0] == leader }); err != nil {
			return events, fmt.Errorf("follower %d never left the ISR: %w", follower, err)
		}
		r.t.Logf("follower %d out of the ISR; the leader %d writes alone", follower, leader)
		time.Sleep(3 * time.Second) // records only the leader has
	} else {
		// Records only the leader has; the controller fences a silent broker after the
		// broker session timeout (9 s), so two seconds keep the follower in the ISR.
		time.Sleep(2 * time.Second)
		if _, isr, err := r.partition(ctx); err != nil || len(isr) != 2 {
			return events, fmt.Errorf("follower %d left the ISR within 2s of its pause (isr %v): %v", follower, isr, err)
		}
		r.t.Logf("follower %d paused, still in the ISR; the leader %d acknowledges alone", follower, leader)
	}
	// 2. Kill the leader, then resume the stale follower: the only live replica.
	kill := faults.Event{Kind: "leader-kill", Broker: leader, At: time.Now(),
		Detail: fmt.Sprintf("SIGKILL broker %d, leader of %s-0 ahead of its paused follower", leader, r.topic)}
	if err := testCluster.Kill(int(leader), syscall.SIGKILL); err != nil {
		return events, err
	}
	restarted := false
	defer func() {
		if !restarted {
			_, _ = testCluster.Restart(heal, int(leader))
		}
	}()
	if err := testCluster.WaitExited(ctx, int(leader), 15*time.Second); err != nil {
		return events, err
	}
	kill.Applied = time.Now()
	on(kill)
	if err := testCluster.Kill(int(follower), syscall.SIGCONT); err != nil {
		return events, err
	}
	resumed = true
	pause.HealAt, pause.HealedAt = time.Now(), time.Now()
	pause.HealDetail = fmt.Sprintf("SIGCONT broker %d, now the only live replica", follower)
	on(pause)
	events = append(events, pause)
	if err := r.waitFor(ctx, func(l int32, _ []int32) bool { return l == follower }); err != nil {
		return events, fmt.Errorf("the stale follower %d was not elected: %w", follower, err)
	}
	r.t.Logf("stale follower %d elected leader (unclean: %v)", follower, r.unclean)
	time.Sleep(2 * time.Second)
	// 3. Restart the old leader: it truncates to the new leader's log.
	kill.HealAt = time.Now()
	if _, err := testCluster.Restart(heal, int(leader)); err != nil {
		return events, err
	}
	restarted = true
	kill.HealedAt = time.Now()
	kill.HealDetail = fmt.Sprintf("restarted broker %d: it truncates to the new leader's log", leader)
	on(kill)
	return append(events, kill), nil
}

func (r *truncation) partition(ctx context.Context) (int32, []int32, error) {
	md, err := r.admin.Metadata(ctx, r.topic)
	if err != nil {
		return -1, nil, err
	}
	p, ok := md.Topics[r.topic].Partitions[0]
	if !ok {
		return -1, nil, fmt.Errorf("no partition 0 in %s", r.topic)
	}
	isr := slices.Clone(p.ISR)
	slices.Sort(isr)
	return p.Leader, isr, nil
}

func (r *truncation) waitFor(ctx context.Context, ok func(leader int32, isr []int32) bool) error {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		l, isr, err := r.partition(ctx)
		if err == nil && ok(l, isr) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
	return fmt.Errorf("not within 60s")
}
