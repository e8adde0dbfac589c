package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/numfmt"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/verify"
)

// TestVerifyConfig checks the step from flags to the run's configuration.
func TestVerifyConfig(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		check func(t *testing.T, c verify.Config)
	}{
		{"defaults", nil, func(t *testing.T, c verify.Config) {
			if c.Replicas != 3 || c.Partitions != verify.DefaultPartitions || c.Producers != verify.DefaultProducers ||
				c.Rate != verify.DefaultRate || c.Duration != verify.DefaultDuration {
				t.Errorf("config = %+v", c)
			}
			if c.TopicConfigs["min.insync.replicas"] != "2" || c.TopicConfigs["unclean.leader.election.enable"] != "false" {
				t.Errorf("topic configs = %v", c.TopicConfigs)
			}
			if !strings.HasPrefix(c.Topic, "kbench-verify-") || len(c.FaultPlan.Steps) != 0 {
				t.Errorf("topic %q, plan %+v", c.Topic, c.FaultPlan)
			}
		}},
		{"the positive case", []string{"--replicas", "3", "--min-insync-replicas", "2", "--producer-props", "acks=all",
			"--faults", "leader-kill x3 every 10s", "--duration", "40s", "--throughput", "500", "--producers", "2", "--partitions", "4"},
			func(t *testing.T, c verify.Config) {
				// Three steps at 0s, 10s and 20s, each down 5 s (the default heal).
				if len(c.FaultPlan.Steps) != 3 || c.FaultPlan.End() != 25*time.Second {
					t.Errorf("plan = %+v", c.FaultPlan)
				}
				if c.ProducerProps["acks"] != "all" || c.Rate != 500 || c.Producers != 2 || c.Partitions != 4 || c.Duration != 40*time.Second {
					t.Errorf("config = %+v", c)
				}
			}},
		{"unclean negative control", []string{"--unclean-leader-election", "--min-insync-replicas", "1", "--producer-props", "acks=1"},
			func(t *testing.T, c verify.Config) {
				if c.TopicConfigs["unclean.leader.election.enable"] != "true" || c.TopicConfigs["min.insync.replicas"] != "1" {
					t.Errorf("topic configs = %v", c.TopicConfigs)
				}
			}},
		{"transactional", []string{"--transactional", "--transaction-duration-ms", "250", "--abort-share", "0.1"}, func(t *testing.T, c verify.Config) {
			if !c.Transactional || c.TransactionLength != 250*time.Millisecond || c.AbortShare != 0.1 {
				t.Errorf("config = %+v, want transactions of 250 ms, a tenth aborted", c)
			}
		}},
		{"broker default min.insync.replicas", []string{"--min-insync-replicas", "0"}, func(t *testing.T, c verify.Config) {
			if _, set := c.TopicConfigs["min.insync.replicas"]; set {
				t.Errorf("topic configs = %v, want min.insync.replicas unset", c.TopicConfigs)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var f verifyFlags
			cmd := &cobra.Command{Use: "verify"}
			f.register(cmd)
			if err := cmd.ParseFlags(tt.args); err != nil {
				t.Fatal(err)
			}
			c, err := f.config(cmd, cmd.Flags().Args())
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, c)
		})
	}
}

// TestVerifyBadInput: each bad input is one line naming the flag, exit 1, within seconds,
// and nothing created (no run directory).
func TestVerifyBadInput(t *testing.T) {
	dir := t.TempDir()
	runDir := filepath.Join(dir, "run")
	dead := closedPort(t)
	tests := []struct {
		name string
		args []string
		says string
	}{
		{"unknown fault", []string{"--faults", "leader-explode"}, "--faults"},
		{"negative duration", []string{"--duration", "-5s"}, "--duration -5s"},
		{"acks=0", []string{"--producer-props", "acks=0"}, "acks=0"},
		{"replicas above brokers", []string{"--replicas", "4"}, "--replicas 4"},
		{"min.insync above replicas", []string{"--min-insync-replicas", "4"}, "--min-insync-replicas 4"},
		{"duration shorter than the plan", []string{"--faults", "leader-kill x3 every 10s", "--duration", "10s"}, "shorter than the fault plan"},
		{"external faults without commands", []string{"--bootstrap-server", dead, "--faults", "leader-kill"}, "--fault-command"},
		{"unreachable cluster", []string{"--bootstrap-server", dead, "--duration", "2s"}, "unable to reach the cluster"},
		{"abort share without transactions", []string{"--abort-share", "0.1"}, "need --transactional"},
		{"abort share of one", []string{"--transactional", "--abort-share", "1"}, "--abort-share 1"},
		{"transactions without idempotence", []string{"--transactional", "--producer-props", "acks=1"}, "--transactional needs an idempotent producer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"verify", "--run-dir", runDir}, tt.args...)
			_, stderr, code := runKbench(args...)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != 1 || len(lines) != 1 || !strings.Contains(lines[0], tt.says) {
				t.Errorf("exit %d, stderr %q; want 1 and one line containing %q", code, stderr, tt.says)
			}
			if _, err := os.Stat(runDir); err == nil {
				t.Errorf("run directory %s was created", runDir)
			}
		})
	}
}

// TestVerifyFake runs kbench verify against kfake: a clean run prints the two lines, exits
// 0 and leaves verify.json holding the same counts.
func TestVerifyFake(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(3))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	runDir := filepath.Join(t.TempDir(), "run")
	stdout, stderr, code := runKbench("verify", "--bootstrap-server", strings.Join(c.ListenAddrs(), ","), "--replicas", "1",
		"--min-insync-replicas", "1", "--partitions", "3", "--producers", "2", "--throughput", "400", "--duration", "1s",
		"--run-dir", runDir)
	if code != 0 {
		t.Fatalf("exit %d, stderr %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "lost 0, duplicated 0, reordered 0, inconsistent 0, unexpected 0 (of ") {
		t.Fatalf("stdout %q", stdout)
	}
	res, err := results.ReadVerify(runDir)
	if err != nil {
		t.Fatal(err)
	}
	acked := " (of " + numfmt.Digits(strconv.FormatInt(res.Totals.Acked, 10)) + " acknowledged)"
	if res.Counts.Anomalies() != 0 || !strings.HasSuffix(lines[1], acked) || res.Totals.Acked == 0 || res.Read.Records != res.Totals.Acked {
		t.Errorf("verify.json counts %+v acked %d read %d; printed %q", res.Counts, res.Totals.Acked, res.Read.Records, lines[1])
	}
}

// TestVerifyJSONIsTheFile: --json prints verify.json's bytes.
func TestVerifyJSONIsTheFile(t *testing.T) {
	res := &verify.Result{Run: 3, Topic: "kbench-verify-t", Totals: verify.Totals{Sent: 10, Acked: 10},
		Rows: []verify.Row{{At: 1, Seconds: 1, Acked: 10, P50Ms: 1.5, P99Ms: 2}}}
	dir := t.TempDir()
	if err := results.WriteVerify(dir, res.Record()); err != nil {
		t.Fatal(err)
	}
	file, err := os.ReadFile(filepath.Join(dir, results.VerifyFile))
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	if err := printVerdict(&out, &errOut, true, res); err != nil {
		t.Fatal(err)
	}
	if out.String() != string(file) {
		t.Errorf("--json printed\n%s\nverify.json holds\n%s", out.String(), file)
	}
	if !strings.Contains(errOut.String(), "lost 0,") {
		t.Errorf("stderr %q, want the verdict", errOut.String())
	}
}

// TestVerifyExitCodes: anomalies exit 6 after both lines; a clean result exits 0.
func TestVerifyExitCodes(t *testing.T) {
	for _, tt := range []struct {
		name string
		lost int64
		code int
	}{{"clean", 0, 0}, {"lost", 3, exitAnomalies}} {
		t.Run(tt.name, func(t *testing.T) {
			res := &verify.Result{Totals: verify.Totals{Sent: 10, Acked: 10}, Counts: verify.Counts{Lost: tt.lost}}
			var out, errOut strings.Builder
			err := printVerdict(&out, &errOut, false, res)
			code := 0
			var exit *exitError
			if errors.As(err, &exit) {
				code = exit.code
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code || !strings.Contains(out.String(), fmt.Sprintf("lost %d,", tt.lost)) {
				t.Errorf("code %d, stdout %q; want %d and the verdict", code, out.String(), tt.code)
			}
		})
	}
}

// TestVerifyInterrupted: a run cancelled during its load returns exit code 130, and the
// topic it created is deleted.
func TestVerifyInterrupted(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	boot := strings.Join(c.ListenAddrs(), ",")
	f := verifyFlags{bootstrap: boot, brokers: 3, runDir: filepath.Join(t.TempDir(), "run")}
	cfg := verify.Config{Bootstrap: boot, Topic: "kbench-verify-interrupted", Partitions: 1, Replicas: 1, Producers: 1,
		Rate: 100, Duration: time.Minute}
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	var out, errOut strings.Builder
	err = runVerify(ctx, &out, &errOut, &f, cfg)
	var exit *exitError
	if !errors.As(err, &exit) || exit.code != exitInterrupted {
		t.Fatalf("error %v, want exit %d", err, exitInterrupted)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	topics, err := kadm.NewClient(cl).ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if topics.Has("kbench-verify-interrupted") {
		t.Errorf("the interrupted run's topic was left behind")
	}
}
