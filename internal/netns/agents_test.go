package netns_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/netns"
	"github.com/kbench/kbench/internal/results"
)

// syncBuffer collects a process's output while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startAgent starts kbench agent inside h and stops it by its PID when t ends (SIGINT, as
// Ctrl-C ends an agent, then SIGKILL if it lingers).
func startAgent(t *testing.T, h netns.Host, bootstrap, name string) *syncBuffer {
	t.Helper()
	out := &syncBuffer{}
	cmd := helper(t, context.Background(), h, "kbench", "agent", "--bootstrap-server", bootstrap, "--name", name)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start agent %s in %s: %v", name, h.Name, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Logf("agent %s did not end within 30 s of SIGINT: killed\n%s", name, out)
			_ = cmd.Process.Kill()
			<-done
		}
	})
	return out
}

// startAgents starts an agent in each host, named host-0, host-1, ...
func startAgents(t *testing.T, hosts *netns.Net, bootstrap string) []*syncBuffer {
	t.Helper()
	var outs []*syncBuffer
	for i, h := range hosts.Hosts {
		outs = append(outs, startAgent(t, h, bootstrap, fmt.Sprintf("host-%d", i)))
	}
	return outs
}

// coordinator is kbench (this test binary as kbench) run in the root namespace with args.
func coordinator(t *testing.T, ctx context.Context, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Env = append(os.Environ(), helperEnv+"=kbench")
	return cmd
}

var agentLine = regexp.MustCompile(`(?m)^agent (\S+) \(.*\): (\d+) producers?, (\d+) records sent, (\d+) acked, (\d+) failed, (\d+) unsent`)

// TestAgentsInHosts runs three agents, each in a host of its own, and kbench produce
// --agents 3 in the root namespace: the merged total must equal the sum of the agents'
// lines and the records the brokers hold. On one 2-core machine this proves the protocol
// and the merge across network namespaces, not scaling.
func TestAgentsInHosts(t *testing.T) {
	hosts := newNet(t, 3)
	c := startCluster(t, hosts.Server().String())
	const topic, records = "netns-agents", 3000
	createTopic(t, c.Bootstrap(), topic, 3)

	outs := startAgents(t, hosts, c.Bootstrap())
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	coord := coordinator(t, ctx, "produce", "--bootstrap-server", c.Bootstrap(), "--topic", topic,
		"--num-records", strconv.Itoa(records), "--record-size", "100", "--throughput", "-1",
		"--agents", "3") // no --producers: one on each agent
	out, err := coord.CombinedOutput()
	if err != nil {
		for i, o := range outs {
			t.Logf("agent host-%d:\n%s", i, o)
		}
		t.Fatalf("kbench produce --agents 3: %v\n%s", err, out)
	}
	t.Logf("kbench produce --agents 3:\n%s", out)

	// The merged summary comes first: "3000 records sent, ...", as Kafka's tool prints it.
	if !regexp.MustCompile(`(?m)^3000 records sent`).Match(out) {
		t.Errorf("no merged summary of 3000 records in:\n%s", out)
	}
	var names []string
	var acked int64
	for _, m := range agentLine.FindAllStringSubmatch(string(out), -1) {
		names = append(names, m[1])
		if m[2] != "1" {
			t.Errorf("agent %s ran %s producers; without --producers each agent runs one", m[1], m[2])
		}
		a, _ := strconv.ParseInt(m[4], 10, 64)
		acked += a
		if m[5] != "0" || m[6] != "0" {
			t.Errorf("agent %s: %s failed, %s unsent", m[1], m[5], m[6])
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"host-0", "host-1", "host-2"}) {
		t.Fatalf("agent lines for %v, want host-0..2:\n%s", names, out)
	}
	// Each agent's acknowledged records add up to the run's: 3000 in all.
	if acked != records {
		t.Errorf("agents acked %d in all, want %d:\n%s", acked, records, out)
	}
	if got := endOffsets(t, c.Bootstrap(), topic); got != records {
		t.Errorf("brokers hold %d records of %s, want %d", got, topic, records)
	}
}

func createTopic(t *testing.T, bootstrap, topic string, partitions int32) {
	t.Helper()
	client, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(bootstrap, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	admin := kadm.NewClient(client)
	resp, err := admin.CreateTopic(context.Background(), partitions, 1, nil, topic)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		t.Fatalf("create topic %s: %v", topic, err)
	}
	// The broker's metadata follows the controller a moment later; kbench produce checks
	// the topic first, so wait until metadata shows it.
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	for {
		topics, err := admin.ListTopics(ctx, topic)
		if err == nil && topics.Has(topic) && len(topics[topic].Partitions) == int(partitions) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("topic %s not in metadata: %v", topic, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

var windowLine = regexp.MustCompile(`^\d+ records sent, [0-9.]+ records/sec`)

// TestAgentCutOffAborts cuts one agent's host off the network mid-run (a partition: its
// connections go silent, nothing is closed) and checks that kbench produce --agents 3
// aborts and names that agent.
func TestAgentCutOffAborts(t *testing.T) {
	hosts := newNet(t, 3)
	c := startCluster(t, hosts.Server().String())
	const topic = "netns-cut"
	createTopic(t, c.Bootstrap(), topic, 3)
	for i, h := range hosts.Hosts {
		startAgent(t, h, c.Bootstrap(), fmt.Sprintf("host-%d", i))
	}
	cut := hosts.Hosts[1]
	// Restored before the agents are stopped (cleanups run last first), so host-1's agent
	// can end.
	t.Cleanup(func() { _ = cut.Restore(context.Background()) })

	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// Long enough that only an abort ends it early; a window line each second shows the
	// load is running before the cut.
	coord := exec.CommandContext(ctx, self, "produce", "--bootstrap-server", c.Bootstrap(), "--topic", topic,
		"--duration", "60s", "--record-size", "100", "--throughput", "3000", "--producers", "3",
		"--agents", "3", "--reporting-interval", "1000")
	coord.Env = append(os.Environ(), helperEnv+"=kbench")
	out := &syncBuffer{}
	pr, pw := io.Pipe()
	coord.Stdout, coord.Stderr = io.MultiWriter(out, pw), out
	if err := coord.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- coord.Wait(); pw.Close() }()

	running := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if windowLine.MatchString(sc.Text()) && running != nil {
				close(running)
				running = nil
			}
		}
	}()
	select {
	case <-running:
	case err := <-exited:
		t.Fatalf("kbench produce ended before any load: %v\n%s", err, out)
	}
	if err := cut.Cut(ctx); err != nil {
		t.Fatal(err)
	}
	err = <-exited
	t.Logf("kbench produce --agents 3, host-1 cut:\n%s", out)
	if err == nil {
		t.Fatalf("kbench produce succeeded with host-1 cut off")
	}
	if !strings.Contains(out.String(), "agent host-1 silent") {
		t.Errorf("the error does not name host-1 as silent:\n%s", out)
	}
}

// TestCapacityOnAgentsInHosts runs kbench capacity --agents 2 with an agent in each of two
// hosts: every trial runs on both agents (each logs its share of each trial), and the count
// is exact: each trial's records are acknowledged, failed or unsent, and the trials' and
// the settle probes' acknowledged records add up to what the brokers hold.
func TestCapacityOnAgentsInHosts(t *testing.T) {
	hosts := newNet(t, 2)
	c := startCluster(t, hosts.Server().String())
	const topic = "netns-capacity"
	createTopic(t, c.Bootstrap(), topic, 2)
	outs := startAgents(t, hosts, c.Bootstrap())
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	coord := coordinator(t, ctx, "capacity", "--bootstrap-server", c.Bootstrap(), "--topic", topic,
		"--record-size", "100", "--producers", "2", "--agents", "2", "--trial", "4s", "--confirm", "4s",
		"--warmup", "1s", "--precision", "20%", "--max-duration", "60s", "--json")
	var stdout, stderr bytes.Buffer
	coord.Stdout, coord.Stderr = &stdout, &stderr
	err := coord.Run()
	if code := coord.ProcessState.ExitCode(); code != 0 && code != 7 {
		for i, o := range outs {
			t.Logf("agent host-%d:\n%s", i, o)
		}
		t.Fatalf("kbench capacity --agents 2: %v (exit %d)\n%s", err, code, stderr.String())
	}
	t.Logf("kbench capacity --agents 2:\n%s", stderr.String())
	var res results.Capacity
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res.Trials) < 3 {
		t.Fatalf("no JSON result with trials (%v):\n%s", err, stdout.String())
	}
	acked := res.BaselineRecords
	for _, tr := range res.Trials {
		r := tr.Records
		if r.Sent != r.Acked+r.Failed+r.Unsent || r.Sent == 0 {
			t.Errorf("trial %d: %d sent, %d acked, %d failed, %d unsent: not accounted for", tr.N, r.Sent, r.Acked, r.Failed, r.Unsent)
		}
		acked += r.Acked + tr.SettleRecords
	}
	// The idempotent producer (the Java default) writes each acknowledged record once.
	if got := endOffsets(t, c.Bootstrap(), topic); got != acked {
		t.Errorf("brokers hold %d records of %s, the search accounts for %d acknowledged", got, topic, acked)
	}
	// Each agent ran its share of every trial: one plan line per trial.
	plans := regexp.MustCompile(`scenario ` + topic + ` #\d+: `)
	for i, o := range outs {
		if n := len(plans.FindAllString(o.String(), -1)); n != len(res.Trials) {
			t.Errorf("agent host-%d logged %d trials, the search ran %d:\n%s", i, n, len(res.Trials), o)
		}
	}
}
