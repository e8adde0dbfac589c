package cli

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// badInputGuard bounds one bad input: it must fail, not hang. A guard, not a measurement.
const badInputGuard = 60 * time.Second

// TestBadInput runs kbench on each bad input of the corpus: it must exit non-zero with
// exactly one line on stderr naming the flag (or the cause), never a panic or a stack
// trace, and create nothing (no topic on the cluster, no run directory).
func TestBadInput(t *testing.T) {
	boot := fakeBootstrap(t, "corpus")
	dead := closedPort(t)
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	sasl := filepath.Join(dir, "sasl.properties")
	if err := os.WriteFile(sasl, []byte("security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	produce := func(extra ...string) []string {
		return append([]string{"produce", "--bootstrap-server", boot, "--topic", "corpus", "--record-size", "10", "--num-records", "10"}, extra...)
	}
	consume := func(extra ...string) []string {
		return append([]string{"consume", "--bootstrap-server", boot, "--topic", "corpus", "--messages", "10"}, extra...)
	}
	run := func(extra ...string) []string {
		return append([]string{"run", "quick", "--runs-dir", runs, "--yes"}, extra...)
	}
	tests := []struct {
		name string
		args []string
		says string // a substring of the one line
	}{
		{"produce: negative records", produce("--num-records", "-1"), "--num-records -1: must be at least 0"},
		{"cluster up: negative JIT warm-up", []string{"cluster", "up", "--dir", filepath.Join(dir, "never"), "--jit-warmup", "-1s"}, "--jit-warmup -1s: must be 0s (none) or more"},
		{"produce: zero record size", produce("--record-size", "0"), "--record-size 0: must be at least 1"},
		{"produce: negative record size", produce("--record-size", "-5"), "--record-size -5"},
		{"produce: record above max.request.size", produce("--record-size", "2000000"), "record size 2000000 bytes does not fit max.request.size=1048576"},
		{"produce: zero throughput", produce("--throughput", "0"), "--throughput 0: must be -1 (no limit)"},
		{"produce: throughput -2", produce("--throughput", "-2"), "--throughput -2"},
		{"produce: throughput NaN", produce("--throughput", "NaN"), "--throughput NaN"},
		{"produce: zero producers", produce("--producers", "0"), "--producers 0: must be at least 1"},
		{"produce: negative duration", produce("--duration", "-1s"), "--duration -1s: must be a positive duration"},
		{"produce: zero duration", produce("--duration", "0s"), "--duration 0s"},
		{"produce: negative warm-up", produce("--warmup", "-1s"), "--warmup -1s"},
		{"produce: warm-up not shorter", produce("--num-records", "0", "--duration", "5s", "--warmup", "10s"), "--warmup 10s: must be shorter than --duration 5s"},
		{"produce: negative warm-up records", produce("--warmup-records", "-1"), "--warmup-records -1"},
		{"produce: warm-up records not fewer", produce("--warmup-records", "10"), "--warmup-records 10: must be fewer than --num-records 10"},
		{"produce: zero reporting interval", produce("--reporting-interval", "0"), "--reporting-interval 0: must be at least 1 ms"},
		{"produce: negative reporting interval", produce("--reporting-interval", "-5"), "--reporting-interval -5"},
		{"produce: negative transaction duration", produce("--transaction-duration-ms", "-1"), "--transaction-duration-ms -1"},
		{"produce: zero key space", produce("--key-distribution", "random", "--key-space", "0"), "--key-space 0"},
		{"produce: key space without keys", produce("--key-space", "5"), "--key-space does nothing without --key-distribution"},
		{"produce: key range without keys (Kafka 4.4)", produce("--record-key-range", "5"), "--record-key-range does nothing without --key-distribution"},
		{"produce: key count twice", produce("--key-distribution", "range", "--key-space", "5", "--record-key-range", "5"), "give the key count once"},
		{"produce: unknown key distribution", produce("--key-distribution", "zipf"), `invalid key distribution "zipf"`},
		{"produce: delimiter without file", produce("--payload-delimiter", ","), "--payload-delimiter does nothing without --payload-file"},
		{"produce: no topic", []string{"produce", "--bootstrap-server", boot, "--record-size", "1", "--num-records", "1"}, "--topic is required"},
		{"produce: two record sources", produce("--payload-monotonic"), "one of --record-size, --payload-file or --payload-monotonic"},
		{"produce: not a number", produce("--num-records", "abc"), `"--num-records"`},
		{"produce: security without bootstrap", []string{"produce", "--topic", "corpus", "--record-size", "1", "--num-records", "1", "--producer.config", sasl},
			"no --bootstrap-server"},
		{"produce: unreachable", produce("--bootstrap-server", dead), dead + ": connection refused"},
		{"produce: missing topic, --no-create", produce("--topic", "corpus-missing", "--no-create"), "topic corpus-missing does not exist"},
		{"consume: negative messages", consume("--messages", "-1"), "--messages -1"},
		{"consume: negative num-records", consume("--num-records", "-1"), "--num-records -1"},
		{"consume: zero fetch size", consume("--fetch-size", "0"), "--fetch-size 0"},
		{"consume: zero timeout", consume("--timeout", "0"), "--timeout 0: must be at least 1 ms"},
		{"consume: negative timeout", consume("--timeout", "-1"), "--timeout -1"},
		{"consume: zero reporting interval", consume("--reporting-interval", "0"), "--reporting-interval 0"},
		{"consume: zero consumers", consume("--consumers", "0"), "--consumers 0"},
		{"consume: negative threads", consume("--threads", "-1"), "--threads -1"},
		{"consume: negative duration", consume("--duration", "-1m"), "--duration -1m0s"},
		{"consume: zero socket buffer", consume("--socket-buffer-size", "0"), "--socket-buffer-size 0"},
		{"consume: topic and include", consume("--include", "c.*"), "--topic and --include: give one"},
		{"consume: neither topic nor include", []string{"consume", "--bootstrap-server", boot, "--messages", "1"}, "--topic or --include is required"},
		{"consume: security without bootstrap", []string{"consume", "--topic", "corpus", "--messages", "1", "--consumer.config", sasl}, "no --bootstrap-server"},
		{"consume: unreachable", consume("--bootstrap-server", dead), dead + ": connection refused"},
		{"consume: missing topic", consume("--topic", "corpus-absent"), "topic corpus-absent does not exist"},
		{"run: negative max rate", run("--max-rate", "-1"), "--max-rate -1: must be 0 (no cap)"},
		{"run: max rate NaN", run("--max-rate", "NaN"), "--max-rate NaN"},
		{"run: command-config without bootstrap", run("--command-config", sasl), "--command-config does nothing without --bootstrap-server"},
		{"run: metrics-url without bootstrap", run("--metrics-url", "http://127.0.0.1:1/metrics"), "--metrics-url does nothing without --bootstrap-server"},
		{"run: unreachable", run("--bootstrap-server", dead), dead + ": connection refused"},
	}
	t.Run("corpus", func(t *testing.T) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				type outcome struct {
					stdout, stderr string
					code           int
				}
				done := make(chan outcome, 1)
				go func() {
					o, e, c := runKbench(tt.args...)
					done <- outcome{o, e, c}
				}()
				var got outcome
				select {
				case got = <-done:
				case <-time.After(badInputGuard):
					t.Fatalf("kbench %s did not return within the %s guard", strings.Join(tt.args, " "), badInputGuard)
				}
				if got.code == 0 {
					t.Errorf("exit code 0, want non-zero; stdout %q", got.stdout)
				}
				lines := strings.Split(strings.TrimRight(got.stderr, "\n"), "\n")
				if len(lines) != 1 || got.stderr == "" {
					t.Errorf("stderr has %d lines, want exactly one:\n%s", len(lines), got.stderr)
				}
				if !strings.Contains(got.stderr, tt.says) {
					t.Errorf("stderr %q does not say %q", got.stderr, tt.says)
				}
				for _, bad := range []string{"panic", "goroutine", ".go:"} {
					if strings.Contains(got.stderr+got.stdout, bad) {
						t.Errorf("output has %q:\n%s\n%s", bad, got.stdout, got.stderr)
					}
				}
			})
		}
	})
	if entries, _ := os.ReadDir(runs); len(entries) > 0 {
		t.Errorf("bad inputs created run directories: %v", entries)
	}
	if topics := listTopics(t, boot); !slices.Equal(topics, []string{"corpus"}) {
		t.Errorf("topics after the corpus: %v, want only corpus", topics)
	}
}

func listTopics(t *testing.T, boot string) []string {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(boot, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	topics, err := kadm.NewClient(cl).ListTopics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return topics.Names()
}
