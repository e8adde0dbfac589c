package agent_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/agent"
	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/results"
)

// testCluster is a real embedded cluster the process tests share; one broker keeps three
// agent processes, a coordinator and the broker within two cores.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	os.Exit(clustertest.Run(m, cluster.Options{Brokers: 1}, &testCluster))
}

// kbenchBinary builds kbench once per test into a temporary directory.
func kbenchBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "kbench")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/kbench/kbench/cmd/kbench").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// agentProc is one `kbench agent` process.
type agentProc struct {
	name string
	cmd  *exec.Cmd
	log  string
}

// startAgents starts n agent processes named <prefix>-1..n; they are stopped by PID when
// the test ends (SIGCONT first, in case a test stopped one).
func startAgents(t *testing.T, bin, prefix string, n int) []*agentProc {
	t.Helper()
	var ps []*agentProc
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("%s-%d", prefix, i)
		logPath := filepath.Join(t.TempDir(), name+".log")
		f, err := os.Create(logPath)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "agent", "--bootstrap-server", testCluster.Bootstrap(), "--name", name)
		cmd.Stdout, cmd.Stderr = f, f
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		p := &agentProc{name: name, cmd: cmd, log: logPath}
		ps = append(ps, p)
		t.Cleanup(func() {
			_ = cmd.Process.Signal(syscall.SIGCONT)
			_ = cmd.Process.Signal(syscall.SIGTERM)
			done := make(chan struct{})
			go func() { _ = cmd.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = cmd.Process.Kill()
				<-done
			}
			f.Close()
			if t.Failed() {
				b, _ := os.ReadFile(logPath)
				t.Logf("%s log:\n%s", name, b)
			}
		})
	}
	return ps
}

// TestRunOnThreeAgentProcesses runs a study with --agents 3, the agents and the coordinator
// separate kbench processes: the repeat's totals are the sum of the per-agent files, its p99
// the p99 of the agents' histograms merged here, and every acknowledged record is consumed,
// each agent reading the partition its own producers wrote.
func TestRunOnThreeAgentProcesses(t *testing.T) {
	clustertest.Need(t, testCluster)
	bin := kbenchBinary(t)
	startAgents(t, bin, "run", 3)
	dir := t.TempDir()
	study := filepath.Join(dir, "agents.yaml")
	// 4 producers at 1500 records/s for 1 s of warm-up and 2 s measured, 3 partitions (one
	// per agent) and one consumer per agent.
	if err := os.WriteFile(study, []byte(`
name: t-agents
repeats: 1
warmup: 1s
cooldown: 0s
defaults:
  topic: {partitions: 3, replicas: 1}
  producers: {count: 4, record_size: 100, duration: 2s, rate: 1500}
  consumers: {count: 1}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "runs")
	cmd := exec.Command(bin, "run", study, "--bootstrap-server", testCluster.Bootstrap(), "--agents", "3",
		"--agent-timeout", "60s", "--yes", "--runs-dir", runs, "--report", "md")
	out, err := cmd.CombinedOutput()
	t.Logf("coordinator:\n%s", out)
	if err != nil {
		t.Fatalf("kbench run --agents 3: %v", err)
	}
	matches, _ := filepath.Glob(filepath.Join(runs, "*", "scenarios", "*", "repeat-1.json"))
	if len(matches) != 1 {
		t.Fatalf("repeat files %v", matches)
	}
	var rep results.Repeat
	readJSON(t, matches[0], &rep)
	if !rep.Validity.Valid {
		t.Errorf("repeat invalid: %v", rep.Validity.Reasons)
	}
	if rep.Agents == nil || len(rep.Agents.Rows) != 3 {
		t.Fatalf("agents %+v, want 3 rows", rep.Agents)
	}
	runDir := filepath.Dir(filepath.Dir(filepath.Dir(matches[0])))
	var acked, sent int64
	steadyDue := metrics.NewHistogram()
	for _, row := range rep.Agents.Rows {
		var ar agent.AgentResult
		readJSON(t, filepath.Join(runDir, row.File), &ar)
		if ar.Result.Total.Acked != row.Acked {
			t.Errorf("agent %s: row acked %d, file %d", row.Agent, row.Acked, ar.Result.Total.Acked)
		}
		acked += ar.Result.Total.Acked
		sent += ar.Result.Sent
		// Each agent's consumer read its own partitions: exactly what its producers wrote.
		if ar.Consumed == nil || ar.Consumed.Records != ar.Result.Total.Acked || len(ar.Share.Partitions) != 1 {
			t.Errorf("agent %s: partitions %v, acked %d, consumed %+v", row.Agent, ar.Share.Partitions, ar.Result.Total.Acked, ar.Consumed)
		}
		steadyDue.Merge(ar.Result.Steady.DueHistogram)
		t.Logf("agent %s: %d producers, %d sent, %d acked, steady p99 %d us, start offset %.1f ms",
			row.Agent, row.Producers, ar.Result.Sent, ar.Result.Total.Acked, ar.Result.Steady.DueLatency.P99Us, row.StartOffsetMs)
	}
	r := rep.Summary.Records
	if r == nil || r.Acked != acked || acked != sent || r.Failed != 0 || r.Unsent != 0 {
		t.Errorf("repeat records %+v; agents acked %d of %d sent", r, acked, sent)
	}
	if r != nil && (r.Consumed == nil || *r.Consumed != acked) {
		t.Errorf("consumed %v, want every one of the %d acknowledged", r.Consumed, acked)
	}
	if e := rep.Summary.EndToEnd; e == nil || e.Count != acked {
		t.Errorf("end-to-end latency %+v, want one per record (%d), measured on the agents", e, acked)
	}
	// The merged p99 is the p99 of the union, merged here from the agents' own histograms.
	byHand := steadyDue.Summary()
	if got := rep.Summary.Latency; got.Count != byHand.Count || got.P99Ms != float64(byHand.P99Us)/1000 {
		t.Errorf("repeat steady latency count %d p99 %v ms; by-hand merge count %d p99 %v ms", got.Count, got.P99Ms, byHand.Count, float64(byHand.P99Us)/1000)
	}
	t.Logf("merged: %d acked, steady p99 %.3f ms (by hand %.3f ms), start skew %.1f ms, control topic %d bytes",
		r.Acked, rep.Summary.Latency.P99Ms, float64(byHand.P99Us)/1000, rep.Agents.StartSkewMs, rep.Agents.ControlBytes)
	if !strings.Contains(string(out), "agent run-1 joined") && !strings.Contains(string(out), "joined (host") {
		t.Errorf("coordinator did not say which agents joined")
	}
}

// waitLog waits until the file at path holds sub, up to limit.
func waitLog(path, sub string, limit time.Duration) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if b, _ := os.ReadFile(path); strings.Contains(string(b), sub) {
			return true
		}
	}
	return false
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// TestAgentKilledOrStoppedAborts kills one agent with SIGKILL, or stops it with SIGSTOP,
// after the first merged window line of a 30 s produce: the coordinator aborts long before
// the run's end, naming the agent (the detector's 3 s limit itself is tested with a fake
// clock; the time from the signal to the abort is logged, not asserted).
func TestAgentKilledOrStoppedAborts(t *testing.T) {
	clustertest.Need(t, testCluster)
	bin := kbenchBinary(t)
	for _, tc := range []struct {
		prefix string
		sig    syscall.Signal
	}{{"kill", syscall.SIGKILL}, {"stop", syscall.SIGSTOP}} {
		prefix, sig := tc.prefix, tc.sig
		t.Run(prefix, func(t *testing.T) {
			ps := startAgents(t, bin, prefix, 3)
			victim := ps[1]
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "produce", "--bootstrap-server", testCluster.Bootstrap(),
				"--topic", "kbench-agents-"+prefix, "--producers", "3", "--record-size", "100", "--throughput", "1500",
				"--duration", "30s", "--reporting-interval", "1000", "--agents", "3", "--agent-timeout", "60s")
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr strings.Builder
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			var signalled time.Time
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				if signalled.IsZero() && strings.Contains(sc.Text(), "records sent") {
					if err := victim.cmd.Process.Signal(sig); err != nil {
						t.Fatal(err)
					}
					signalled = time.Now()
				}
			}
			err = cmd.Wait()
			took := time.Since(signalled)
			t.Logf("coordinator ended %.1f s after %v of %s: %v; stderr:\n%s", took.Seconds(), sig, victim.name, err, stderr.String())
			if signalled.IsZero() {
				t.Fatalf("no window line before the coordinator ended")
			}
			want := fmt.Sprintf("agent %s silent for", victim.name)
			if err == nil || !strings.Contains(stderr.String(), want) {
				t.Errorf("coordinator err %v, stderr %q; want it to fail naming %q", err, stderr.String(), want)
			}
			if took > 20*time.Second {
				t.Errorf("the coordinator ran on for %.0f s after the agent was lost", took.Seconds())
			}
			// The agents still alive stopped their trials on the coordinator's abort.
			for _, p := range []*agentProc{ps[0], ps[2]} {
				if !waitLog(p.log, "aborted: "+want, 10*time.Second) {
					t.Errorf("agent %s did not log the abort", p.name)
				}
			}
		})
	}
}
