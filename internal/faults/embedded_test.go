package faults

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/zones"
)

var testCluster *cluster.Cluster

// TestMain starts one 3-broker cluster for the package (the embedded layout: every node a
// controller too). Each broker is in a zone of its own with a zero-delay link, so that the
// inter-broker proxies run in this process and a cut can be made. A killed broker is
// fenced once its KRaft session times out (9 s by default); 3 s, with a heartbeat each
// 500 ms, makes leaders move sooner and the test shorter.
func TestMain(m *testing.M) {
	os.Exit(clustertest.Run(m, cluster.Options{Brokers: 3, Broker: &zones.Link{}, BrokerConfig: map[string]string{
		"broker.session.timeout.ms": "3000", "broker.heartbeat.interval.ms": "500"}}, &testCluster))
}

// TestFaultsOnEmbeddedCluster runs each kind of fault once on the shared cluster, in order,
// and ends with `kbench cluster down`'s path (Open, Stop) stopping the restarted brokers.
func TestFaultsOnEmbeddedCluster(t *testing.T) {
	clustertest.Need(t, testCluster)
	c := testCluster
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	client, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(c.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	admin := kadm.NewClient(client)
	const topic = "faults-test"
	resp, err := admin.CreateTopic(ctx, 3, 3, map[string]*string{"min.insync.replicas": kadm.StringPtr("2")}, topic)
	if err != nil || resp.Err != nil {
		t.Fatalf("create topic: %v %v", err, resp.Err)
	}
	if err := WaitRecovered(ctx, admin, topic, time.Minute); err != nil {
		t.Fatal(err)
	}
	// A detached broker would outlive a failed test: whatever happens, the brokers
	// cluster.json names are stopped by PID, as `kbench cluster down` does.
	t.Cleanup(func() {
		if r, err := cluster.Open(c.Dir()); err == nil {
			_ = r.StopKeep()
		}
	})
	target := NewEmbeddedTarget(c, client, topic)
	runOn := func(t *testing.T, target Target, spec string, during func(Event)) Event {
		t.Helper()
		plan, err := Parse(spec, 1)
		if err != nil {
			t.Fatal(err)
		}
		events, err := Run(ctx, plan, target, func(e Event) {
			if e.HealedAt.IsZero() {
				t.Logf("%s: %s (applied in %s)", e.Kind, e.Detail, e.Applied.Sub(e.At))
			} else {
				t.Logf("%s: %s (in %s)", e.Kind, e.HealDetail, e.HealedAt.Sub(e.HealAt))
			}
			if e.HealedAt.IsZero() && during != nil {
				during(e)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(events) != 1 || events[0].HealedAt.IsZero() {
			t.Fatalf("events %+v: want one, healed", events)
		}
		recovering := time.Now()
		if err := WaitRecovered(ctx, admin, topic, 2*time.Minute); err != nil {
			t.Fatal(err)
		}
		t.Logf("isr recovered in %s", time.Since(recovering))
		return events[0]
	}
	run := func(t *testing.T, spec string, during func(Event)) Event {
		t.Helper()
		return runOn(t, target, spec, during)
	}

	t.Run("leader kill and restart", func(t *testing.T) {
		// Under a busy host a metadata answer can lack the partition for a moment: wait
		// for a leader that is one of the cluster's brokers.
		leader := int32(-1)
		waitFor(t, "a leader of "+topic, func() bool { leader = leaderOf(t, admin, topic); return pidOf(c, leader) > 0 })
		oldPID := pidOf(c, leader)
		if oldPID <= 0 {
			t.Fatalf("no pid for leader %d", leader)
		}
		e := run(t, "leader-kill heal 1s", func(e Event) {
			if e.Broker != leader {
				t.Errorf("killed broker %d, the leader was %d", e.Broker, leader)
			}
			// The old PID is gone (the Go child was reaped) and a new leader is elected.
			if syscall.Kill(oldPID, 0) == nil {
				t.Errorf("pid %d still exists after SIGKILL", oldPID)
			}
			waitFor(t, "a new leader", func() bool { l := leaderOf(t, admin, topic); return l >= 0 && l != leader })
		})
		newPID := pidOf(c, e.Broker)
		if newPID == oldPID || newPID <= 0 || !c.Alive()[int(e.Broker)] {
			t.Fatalf("broker %d: pid %d after restart (was %d), alive %v", e.Broker, newPID, oldPID, c.Alive())
		}
		if saved := savedPIDs(t, c.Dir())[int(e.Broker)]; saved != newPID {
			t.Errorf("cluster.json has pid %d for broker %d, want the new %d", saved, e.Broker, newPID)
		}
	})

	t.Run("pause and resume a follower", func(t *testing.T) {
		e := run(t, "pause 2s of follower", func(e Event) {
			if st := procState(pidOf(c, e.Broker)); st != 'T' {
				t.Errorf("broker %d state %q during the pause, want T (stopped)", e.Broker, st)
			}
		})
		if st := procState(pidOf(c, e.Broker)); st == 'T' || st == 0 {
			t.Errorf("broker %d state %q after the pause, want running", e.Broker, st)
		}
	})

	t.Run("cut the leader's inter-broker proxy", func(t *testing.T) {
		route := ""
		run(t, "cut 3s", func(e Event) {
			route = fmt.Sprintf("internal-%d", e.Broker)
			// Followers fetch from the leader through this route: while it is cut, no
			// byte reaches the leader through it.
			up := c.ProxyCounters()[route].Up
			time.Sleep(time.Second)
			if now := c.ProxyCounters()[route].Up; now != up {
				t.Errorf("%s carried %d bytes up during the cut", route, now-up)
			}
		})
		up := c.ProxyCounters()[route].Up
		waitFor(t, "fetches through the mended route", func() bool { return c.ProxyCounters()[route].Up > up })
	})

	t.Run("truncate loses acknowledged records under unclean election", func(t *testing.T) {
		lost, detail := truncateUnderLoad(t, ctx, client, admin)
		t.Logf("%s; %d acknowledged records lost", detail, lost)
		if !strings.Contains(detail, "it leads") || lost == 0 {
			t.Errorf("the stale replica did not take over with acknowledged records lost: %s; lost %d", detail, lost)
		}
	})

	// The brokers of `kbench cluster up` outlive it, and `kbench verify --cluster-dir` reads
	// them from cluster.json: a handle opened so has no child processes, and restarts its
	// brokers detached, in a session of their own.
	t.Run("controller kill through a reopened cluster directory", func(t *testing.T) {
		reopened, err := cluster.Open(c.Dir())
		if err != nil {
			t.Fatal(err)
		}
		before, err := activeController(ctx, client)
		if err != nil {
			t.Fatal(err)
		}
		e := runOn(t, NewEmbeddedTarget(reopened, client, topic), "controller-kill heal 1s", func(e Event) {
			if e.Broker != before || e.Partition != -1 {
				t.Errorf("killed broker %d partition %d, the active controller was %d", e.Broker, e.Partition, before)
			}
			waitFor(t, "a new active controller", func() bool {
				now, err := activeController(ctx, client)
				return err == nil && now != before
			})
		})
		pid := pidOf(reopened, e.Broker)
		if !reopened.Alive()[int(e.Broker)] {
			t.Errorf("controller %d not running after heal", e.Broker)
		}
		if sid := procSession(pid); sid != pid {
			t.Errorf("restarted broker %d (pid %d) in session %d, want a session of its own", e.Broker, pid, sid)
		}
		if saved := savedPIDs(t, c.Dir())[int(e.Broker)]; saved != pid {
			t.Errorf("cluster.json has pid %d for broker %d, want the new %d", saved, e.Broker, pid)
		}
	})

	t.Run("cluster down stops restarted brokers by pid", func(t *testing.T) {
		saved := savedPIDs(t, c.Dir())
		reopened, err := cluster.Open(c.Dir())
		if err != nil {
			t.Fatal(err)
		}
		// Down finds every broker, the restarted ones by their new PIDs: otherwise the
		// check below would pass with brokers left running.
		for id, up := range reopened.Alive() {
			if !up {
				t.Fatalf("broker %d (pid %d in cluster.json) not recognised as running before cluster down", id, saved[id])
			}
		}
		if err := reopened.StopKeep(); err != nil {
			t.Fatal(err)
		}
		// Judged as `kbench cluster status` does, from cluster.json and /proc: the original
		// handle's children may not yet be reaped.
		alive := reopened.Alive()
		for id, pid := range saved {
			if alive[id] {
				t.Errorf("broker %d (pid %d) still running after cluster down", id, pid)
			}
		}
	})
}

func leaderOf(t *testing.T, admin *kadm.Client, topic string) int32 {
	t.Helper()
	md, err := admin.Metadata(fresh(context.Background()), topic)
	if err != nil {
		return -1
	}
	pd, ok := md.Topics[topic].Partitions[0]
	if !ok || pd.Err != nil {
		return -1
	}
	return pd.Leader
}

// savedPIDs reads the broker PIDs from cluster.json, as `kbench cluster down` does.
func savedPIDs(t *testing.T, dir string) map[int]int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "cluster.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Brokers []struct{ ID, PID int } `json:"brokers"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	out := map[int]int{}
	for _, b := range s.Brokers {
		out[b.ID] = b.PID
	}
	return out
}

// procState is the state letter of /proc/PID/stat (proc(5)), 0 when unreadable.
func procState(pid int) byte {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 || i+2 >= len(data) {
		return 0
	}
	return data[i+2]
}

// procSession is the session id of /proc/PID/stat (proc(5): state, ppid, pgrp, session
// follow the command name), 0 when unreadable.
func procSession(pid int) int {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(data), ')')
	fields := strings.Fields(string(data[i+1:]))
	if i < 0 || len(fields) < 4 {
		return 0
	}
	sid, _ := strconv.Atoi(fields[3])
	return sid
}

// waitFor polls cond for up to 30 s; the bound is for a hang, not a measurement.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Errorf("no %s within 30s", what)
}

// truncateUnderLoad runs `truncate 3s` on a topic with replicas [2 3] (2 leads, 3 is the
// follower to go stale), unclean election on and min.insync.replicas=1, while one producer
// writes with acks=all; then reads the partition back. It returns how many acknowledged
// records are not at their acknowledged offset, and the fault's detail.
func truncateUnderLoad(t *testing.T, ctx context.Context, client *kgo.Client, admin *kadm.Client) (int, string) {
	t.Helper()
	const topic = "faults-truncate"
	req := kmsg.NewPtrCreateTopicsRequest()
	rt := kmsg.NewCreateTopicsRequestTopic()
	rt.Topic, rt.NumPartitions, rt.ReplicationFactor = topic, -1, -1
	ra := kmsg.NewCreateTopicsRequestTopicReplicaAssignment()
	ra.Partition, ra.Replicas = 0, []int32{2, 3}
	rt.ReplicaAssignment = append(rt.ReplicaAssignment, ra)
	for k, v := range map[string]string{"unclean.leader.election.enable": "true", "min.insync.replicas": "1"} {
		c := kmsg.NewCreateTopicsRequestTopicConfig()
		c.Name, c.Value = k, kmsg.StringPtr(v)
		rt.Configs = append(rt.Configs, c)
	}
	req.Topics = append(req.Topics, rt)
	resp, err := req.RequestWith(ctx, client)
	if err != nil || kerr.ErrorForCode(resp.Topics[0].ErrorCode) != nil {
		t.Fatalf("create %s: %v %v", topic, err, kerr.ErrorForCode(resp.Topics[0].ErrorCode))
	}
	if err := WaitRecovered(ctx, admin, topic, time.Minute); err != nil {
		t.Fatal(err)
	}
	// Not idempotent: after the truncation the broker would refuse its sequence numbers.
	producer, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...),
		kgo.DefaultProduceTopic(topic), kgo.RequiredAcks(kgo.AllISRAcks()), kgo.DisableIdempotentWrite(),
		kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer producer.Close()
	// Every acknowledgement is kept, not one per offset: after the truncation new records
	// are acknowledged at the offsets the lost ones had.
	type ack struct {
		offset int64
		value  string
	}
	var acked []ack
	var failed int
	var firstErr error
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			value := fmt.Sprint(i)
			pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			r, err := producer.ProduceSync(pctx, &kgo.Record{Value: []byte(value)}).First()
			cancel()
			if err == nil {
				acked = append(acked, ack{r.Offset, value})
			} else {
				failed++
				if firstErr == nil {
					firstErr = err
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	// 8 s of writes without the stopped follower: on a busy host the first of them wait for
	// metadata and acknowledgements, and 3 s once acknowledged none (0 lost, the run proved
	// nothing).
	plan, err := Parse("truncate 8s heal 1s", 1)
	if err != nil {
		t.Fatal(err)
	}
	events, err := Run(ctx, plan, NewEmbeddedTarget(testCluster, client, topic), nil)
	close(stop)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if err := WaitRecovered(ctx, admin, topic, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	read := readAll(t, ctx, topic)
	lost := 0
	for _, a := range acked {
		if read[a.offset] != a.value {
			lost++
		}
	}
	t.Logf("%d acknowledged, %d failed (first: %v), %d read back", len(acked), failed, firstErr, len(read))
	return lost, events[0].Detail
}

// readAll reads partition 0 of topic from the start to its end offset now.
func readAll(t *testing.T, ctx context.Context, topic string) map[int64]string {
	t.Helper()
	admin, err := kadm.NewOptClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	ends, err := admin.ListEndOffsets(ctx, topic)
	admin.Close()
	if err != nil {
		t.Fatal(err)
	}
	end, _ := ends.Lookup(topic, 0)
	out := map[int64]string{}
	if end.Offset == 0 {
		return out
	}
	consumer, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: {0: kgo.NewOffset().AtStart()}}))
	if err != nil {
		t.Fatal(err)
	}
	defer consumer.Close()
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		fetches := consumer.PollFetches(rctx)
		if rctx.Err() != nil {
			t.Fatalf("read %s: %d of %d records in 30s", topic, len(out), end.Offset)
		}
		fetches.EachRecord(func(r *kgo.Record) { out[r.Offset] = string(r.Value) })
		if _, ok := out[end.Offset-1]; ok {
			return out
		}
	}
}
