package cli

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kbench/kbench/internal/load"
)

func fakeBootstrap(t *testing.T, topics ...string) string {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, topics...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return strings.Join(c.ListenAddrs(), ",")
}

func runKbench(args ...string) (stdout, stderr string, code int) {
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return o.String(), e.String(), code
}

// TestProduceConsumeCommands runs both verbs with the flag spellings of Kafka 4.1 and 4.2
// against an in-process cluster and checks their lines with the expressions that parse
// Kafka's own tools.
func TestProduceConsumeCommands(t *testing.T) {
	boot := fakeBootstrap(t, "cli-a", "cli-b")
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  []string // regexp names or substrings that must appear
		wantErr  string
	}{
		{name: "Kafka 4.1 spelling, several props after one flag",
			args: []string{"produce", "--topic", "cli-a", "--num-records", "3000", "--record-size", "100", "--throughput", "-1",
				"--producer-props", "bootstrap.servers=" + boot, "acks=1", "linger.ms=0"},
			wantOut: []string{"3000 records sent", "CPU-s per million records, 0 failed."}},
		{name: "Kafka 4.2 spelling with warm-up",
			args: []string{"produce", "--bootstrap-server", boot, "--topic", "cli-a", "--num-records", "2000", "--record-size", "10",
				"--throughput", "-1", "--command-property", "compression.type=zstd", "--warmup-records", "500"},
			wantOut: []string{"Warmup first 500 records.", "2000 records sent", "1500 steady state records sent"}},
		{name: "-X alias, keys, producers",
			args: []string{"produce", "--bootstrap-server", boot, "--topic", "cli-b", "--num-records", "1000", "--payload-monotonic",
				"--throughput", "-1", "-X", "acks=all", "--producers", "2", "--key-distribution", "round-robin"},
			wantOut: []string{"1000 records sent"}},
		{name: "unknown property lists the supported ones",
			args: []string{"produce", "--bootstrap-server", boot, "--topic", "cli-a", "--num-records", "1", "--record-size", "1",
				"-X", "ack=1"},
			wantCode: 1, wantErr: `unknown producer property "ack"; supported: acks,`},
		{name: "positional argument that is not a property",
			args:     []string{"produce", "--bootstrap-server", boot, "--topic", "cli-a", "--num-records", "1", "--record-size", "1", "oops"},
			wantCode: 1, wantErr: `extra argument 1 is not name=value (not shown: it may be part of a secret`},
		{name: "consume the 4.1 way",
			args:    []string{"consume", "--bootstrap-server", boot, "--topic", "cli-a", "--messages", "5000", "--timeout", "20000"},
			wantOut: []string{"start.time, end.time", ", 5000, ", "End-to-end (header) latency ms"}},
		// Kafka's tool counts the whole poll that reaches --messages: one poll of
		// max.poll.records when the topic holds more.
		{name: "consume one message reads one poll",
			args:    []string{"consume", "--bootstrap-server", boot, "--topic", "cli-a", "--messages", "1", "--command-property", "max.poll.records=100"},
			wantOut: []string{", 100, "}},
		{name: "consume the 4.2 way, detailed, no header, two consumers",
			args: []string{"consume", "--bootstrap-server", boot, "--include", "cli-.*", "--num-records", "6000", "--consumers", "2",
				"--show-detailed-stats", "--reporting-interval", "100", "--hide-header", "--command-property", "fetch.max.wait.ms=100",
				"--group", "g2"},
			wantOut: []string{"client CPU"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runKbench(tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.wantCode, errOut)
			}
			for _, w := range tt.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("stderr %q lacks %q", errOut, tt.wantErr)
			}
			for _, l := range strings.Split(out, "\n") {
				if strings.Contains(l, "records sent") && !reProduceTotal.MatchString(l) && !reProduceWindow.MatchString(l) {
					t.Errorf("line %q matches neither of Kafka's producer line formats", l)
				}
				if len(l) > 4 && l[4] == '-' && !reConsumeTotal.MatchString(l) && !reConsumeDetail.MatchString(l) {
					t.Errorf("line %q matches neither of Kafka's consumer line formats", l)
				}
			}
		})
	}
}

func TestProduceJSON(t *testing.T) {
	boot := fakeBootstrap(t, "cli-json")
	jaas := `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="topsecret";`
	out, errOut, code := runKbench("produce", "--bootstrap-server", boot, "--topic", "cli-json", "--num-records", "500",
		"--record-size", "50", "--throughput", "2000", "--json", "-X", "send.buffer.bytes=1", "-X", jaas)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res load.ProduceResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not one JSON result: %v\n%s", err, out)
	}
	if res.Sent != 500 || res.Total.Acked != 500 || res.Total.DueHistogram.Count() != 500 {
		t.Errorf("sent %d acked %d histogram %d, want 500 each", res.Sent, res.Total.Acked, res.Total.DueHistogram.Count())
	}
	if res.Settings["linger.ms"] != "5" {
		t.Errorf("effective settings lack the defaults: %v", res.Settings)
	}
	// franz-go cannot apply send.buffer.bytes: it is not recorded as in force.
	if v, ok := res.Settings["send.buffer.bytes"]; ok {
		t.Errorf("send.buffer.bytes recorded as %q though not applied", v)
	}
	if strings.Contains(out, "topsecret") || strings.Contains(errOut, "topsecret") {
		t.Error("password printed")
	}
	if !strings.Contains(errOut, "kbench: warning: send.buffer.bytes=1 ignored") {
		t.Errorf("no warning for a property without equivalent: %q", errOut)
	}
}
