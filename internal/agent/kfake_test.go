package agent

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

// fakeCluster starts an in-process kfake cluster with topic t (3 partitions).
func fakeCluster(t *testing.T) string {
	t.Helper()
	_, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(3, "t"))
	return boot
}

// joinWait is how long the tests' coordinators wait for agents that are running: they join
// within a second here, but `make test` runs packages two at a time on two cores, beside
// real brokers starting, and one such run saw an agent not join within 30 s.
const joinWait = 90 * time.Second

// logLines collects a party's log lines.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) add(s string) { l.mu.Lock(); l.lines = append(l.lines, s); l.mu.Unlock() }
func (l *logLines) has(sub string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range l.lines {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// startAgents runs agents in this process until the test ends.
func startAgents(t *testing.T, bootstrap, version string, names ...string) map[string]*logLines {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	logs := map[string]*logLines{}
	for _, n := range names {
		l := &logLines{}
		logs[n] = l
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = Serve(ctx, AgentConfig{Bootstrap: bootstrap, Name: n, Host: "h-" + n, Cores: 2, Version: version, Log: l.add})
		}()
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
	return logs
}

// TestThreeAgentsFake runs 1000 records from 5 producers on three agents: the plan splits
// them 2/2/1 producers and 400/400/200 records, the merged result is the sum of the agents'
// and its histogram the merge of theirs.
func TestThreeAgentsFake(t *testing.T) {
	bs := fakeCluster(t)
	startAgents(t, bs, "v1", "a", "b", "c")
	ctx, cancel := context.WithTimeout(context.Background(), 2*joinWait)
	defer cancel()
	co, err := Open(ctx, CoordinatorConfig{Bootstrap: bs, Prefix: "kbench-test-0001", Agents: 3, JoinTimeout: joinWait, Version: "v1"})
	if co != nil {
		defer co.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	job := load.ProducerConfig{Topic: "t", Producers: 5, RecordSize: 100, TickInterval: 200 * time.Millisecond,
		Properties: map[string]string{"sasl.mechanism": "SCRAM-SHA-512-not-sent", "acks": "1"}}
	var ticks int64
	o, err := co.Produce(ctx, Job{Scenario: "s1", Producers: job, Schedule: load.Schedule{Records: 1000, Rate: 2000}}, func(t load.Tick) { ticks += t.Acked })
	if err != nil {
		t.Fatal(err)
	}
	// 5 producers on 3 agents, in the order they joined: 2/2/1; 1000 records, 200 per
	// producer: 400/400/200.
	want := []int64{400, 400, 200}
	var sum int64
	union := metrics.NewHistogram()
	for i, a := range o.Agents {
		if a.Result.Total.Acked != want[i] || a.Share.Records != want[i] {
			t.Errorf("agent %s (share %+v) acked %d, want %d", a.Agent, a.Share, a.Result.Total.Acked, want[i])
		}
		if a.Result.Settings["sasl.mechanism"] == "SCRAM-SHA-512-not-sent" {
			t.Errorf("agent %s received the coordinator's connection setting sasl.mechanism", a.Agent)
		}
		sum += a.Result.Total.Acked
		union.Merge(a.Result.Total.DueHistogram)
	}
	if sum != 1000 || o.Merged.Total.Acked != 1000 || o.Merged.Sent != 1000 {
		t.Errorf("agents acked %d, merged %d (sent %d); want 1000", sum, o.Merged.Total.Acked, o.Merged.Sent)
	}
	if got, want := o.Merged.Total.DueLatency, union.Summary(); got != want {
		t.Errorf("merged latency %+v, by-hand merge %+v", got, want)
	}
	if ticks > 1000 {
		t.Errorf("merged ticks count %d records, more than the 1000 sent", ticks)
	}
	if o.ControlBytes <= 0 {
		t.Errorf("control bytes %d", o.ControlBytes)
	}
}

// TestVersionMismatchRefused: an agent of another version is refused with one line, and
// the coordinator's wait names it.
func TestVersionMismatchRefused(t *testing.T) {
	bs := fakeCluster(t)
	logs := startAgents(t, bs, "v0", "old")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	co, err := Open(ctx, CoordinatorConfig{Bootstrap: bs, Prefix: "kbench-test-0002", Agents: 1, JoinTimeout: 3 * time.Second, Version: "v1"})
	if co != nil {
		defer co.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "refused: old (it runs kbench v0, the coordinator v1)") {
		t.Fatalf("err = %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !logs["old"].has("refused by run kbench-test-0002") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !logs["old"].has("refused by run kbench-test-0002: it runs kbench v0, the coordinator v1") {
		t.Errorf("agent log %q", logs["old"].lines)
	}
}

// TestSilentAgentAbortsFake stops one agent mid-run (its process gone, as far as the
// control topic can tell): the coordinator aborts the scenario naming it, and the other
// agents stop their trials.
func TestSilentAgentAbortsFake(t *testing.T) {
	bs := fakeCluster(t)
	logs := startAgents(t, bs, "v1", "a", "b")
	victimCtx, kill := context.WithCancel(context.Background())
	defer kill()
	go func() { _ = Serve(victimCtx, AgentConfig{Bootstrap: bs, Name: "victim", Version: "v1"}) }()
	ctx, cancel := context.WithTimeout(context.Background(), 2*joinWait)
	defer cancel()
	co, err := Open(ctx, CoordinatorConfig{Bootstrap: bs, Prefix: "kbench-test-0003", Agents: 3, JoinTimeout: joinWait, Version: "v1"})
	if co != nil {
		defer co.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	job := load.ProducerConfig{Topic: "t", Producers: 3, RecordSize: 10}
	killed := false
	_, err = co.Produce(ctx, Job{Scenario: "s1", Producers: job, Schedule: load.Schedule{Duration: time.Minute, Rate: 300}}, func(load.Tick) {
		if !killed {
			killed = true
			kill()
		}
	})
	if err == nil || !strings.Contains(err.Error(), "agent victim silent for") {
		t.Fatalf("err = %v, want the victim named", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !(logs["a"].has("aborted: agent victim silent") && logs["b"].has("aborted: agent victim silent")) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !logs["a"].has("aborted: agent victim silent") {
		t.Errorf("agent a did not log the abort: %q", logs["a"].lines)
	}
	// The run lost an agent: the next scenario fails at once, naming it.
	if _, err := co.Produce(ctx, Job{Scenario: "s2", Producers: job, Schedule: load.Schedule{Records: 10}}, nil); err == nil || !strings.Contains(err.Error(), "victim") {
		t.Errorf("next scenario err = %v", err)
	}
}

// TestLateAgentCannotJoin: an agent started after the run's first scenario does not join it.
func TestLateAgentCannotJoin(t *testing.T) {
	bs := fakeCluster(t)
	startAgents(t, bs, "v1", "a")
	ctx, cancel := context.WithTimeout(context.Background(), 2*joinWait)
	defer cancel()
	var coordLog logLines
	co, err := Open(ctx, CoordinatorConfig{Bootstrap: bs, Prefix: "kbench-test-0004", Agents: 1, JoinTimeout: joinWait, Version: "v1", Log: coordLog.add})
	if co != nil {
		defer co.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	job := load.ProducerConfig{Topic: "t", Producers: 1, RecordSize: 10}
	if _, err := co.Produce(ctx, Job{Scenario: "s1", Producers: job, Schedule: load.Schedule{Records: 10}}, nil); err != nil {
		t.Fatal(err)
	}
	late := startAgents(t, bs, "v1", "late")["late"]
	// The late agent reads the run's history, sees its plan and stays out; the next
	// scenario still runs on the one agent admitted.
	deadline := time.Now().Add(joinWait)
	for !late.has("not joining run kbench-test-0004: it is in progress") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !late.has("not joining run kbench-test-0004: it is in progress") {
		t.Errorf("late agent log %q", late.lines)
	}
	o, err := co.Produce(ctx, Job{Scenario: "s2", Producers: job, Schedule: load.Schedule{Records: 10}}, nil)
	if err != nil || len(o.Agents) != 1 || o.Merged.Total.Acked != 10 {
		t.Errorf("second scenario %+v, %v", o, err)
	}
}

// TestAgentsConsumeTheirOwnPartitions: with consumers, each agent's producers write only
// its partitions and its consumers read them: every agent consumes exactly what it had
// acknowledged, and every end-to-end latency is measured in the agent that sent the record.
func TestAgentsConsumeTheirOwnPartitions(t *testing.T) {
	bs := fakeCluster(t)
	logs := startAgents(t, bs, "v1", "a", "b", "c")
	defer func() {
		if t.Failed() {
			for n, l := range logs {
				t.Logf("agent %s: %q", n, l.lines)
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*joinWait)
	defer cancel()
	co, err := Open(ctx, CoordinatorConfig{Bootstrap: bs, Prefix: "kbench-test-0005", Agents: 3, JoinTimeout: joinWait, Version: "v1"})
	if co != nil {
		defer co.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	job := Job{Scenario: "pc", Producers: load.ProducerConfig{Topic: "t", Producers: 3, RecordSize: 10, TimestampHeader: true},
		Schedule:  load.Schedule{Records: 900, Rate: 3000},
		Consumers: &load.ConsumerConfig{Topics: []string{"t"}, Consumers: 3, Timeout: time.Minute}, Partitions: 3}
	o, err := co.Produce(ctx, job, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 3 partitions on 3 agents: one each, 0, 1 and 2 in join order; 300 records each.
	for i, a := range o.Agents {
		if len(a.Share.Partitions) != 1 || a.Share.Partitions[0] != int32(i) || a.Share.Consumers != 1 {
			t.Errorf("agent %s share %+v", a.Agent, a.Share)
		}
		if a.Consumed == nil || a.Consumed.Records != a.Result.Total.Acked || a.Result.Total.Acked != 300 {
			t.Errorf("agent %s acked %d, consumed %+v", a.Agent, a.Result.Total.Acked, a.Consumed)
		}
	}
	if c := o.MergedConsume; c == nil || c.Records != 900 || c.EndToEnd.Count != 900 || c.EndToEndSource != "header" {
		t.Errorf("merged consume %+v", c)
	}
}
