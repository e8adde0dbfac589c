package cli

import (
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
)

// TestConsumeGroupProtocol runs kbench consume with group.protocol=consumer against a fake
// Kafka 4.1, which serves KIP-848, and a fake 3.9, which does not: there kbench stops with
// one line instead of consuming under the classic protocol.
func TestConsumeGroupProtocol(t *testing.T) {
	for _, tt := range []struct {
		version *kversion.Versions
		says    string // on stderr; "" for a run that succeeds
	}{{kversion.V4_1_0(), ""}, {kversion.V3_9_0(), "group.protocol=consumer needs brokers that serve KIP-848"}} {
		_, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(2, "gp"), kfake.MaxVersions(tt.version))
		if _, e, code := runKbench("produce", "--bootstrap-server", boot, "--topic", "gp", "--num-records", "100",
			"--record-size", "10", "--throughput", "-1"); code != 0 {
			t.Fatalf("produce: %s", e)
		}
		args := []string{"consume", "--bootstrap-server", boot, "--topic", "gp", "--messages", "100",
			"--consumers", "2", "--command-property", "group.protocol=consumer"}
		if tt.says == "" {
			args = append(args, "--json") // the rows then go to stderr
		}
		out, e, code := runKbench(args...)
		if tt.says == "" {
			if code != 0 || !strings.Contains(out, `"group.protocol": "consumer"`) {
				t.Errorf("Kafka %s: exit %d, stderr %q; want the protocol recorded:\n%s", tt.version.VersionGuess(), code, e, out)
			}
			continue
		}
		if code == 0 || !strings.Contains(e, tt.says) || strings.Count(strings.TrimRight(e, "\n"), "\n") != 0 {
			t.Errorf("Kafka %s: exit %d, stderr %q; want one line with %q", tt.version.VersionGuess(), code, e, tt.says)
		}
	}
}
