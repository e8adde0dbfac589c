package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestAgentManifest checks the command's wiring; agentlaunch's tests check the manifests.
func TestAgentManifest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string // a substring of the output
		stderr string // a substring of the one error line
	}{
		{"kubernetes", []string{"agent", "manifest", "--agents", "3", "--image", "kbench:dev",
			"--bootstrap-server", "10.0.0.1:9092", "--command-config-secret", "kbench-client"}, 0,
			"completionMode: Indexed", ""},
		{"systemd", []string{"agent", "manifest", "--format", "systemd", "--bootstrap-server", "10.0.0.1:9092"}, 0,
			"ExecStart=/usr/local/bin/kbench agent --bootstrap-server 10.0.0.1:9092 --name %i\n", ""},
		{"no agents", []string{"agent", "manifest", "--image", "kbench:dev", "--bootstrap-server", "b:9092"}, 1,
			"", "kbench: --agents is required"},
		{"secret with systemd", []string{"agent", "manifest", "--format", "systemd", "--bootstrap-server", "b:9092",
			"--command-config-secret", "s"}, 1, "", "--command-config-secret applies to --format kubernetes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(tc.args, &out, &errb)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderr) {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out.String(), errb.String())
			}
			if tc.code != 0 && strings.Count(errb.String(), "\n") != 1 {
				t.Errorf("stderr is not one line: %q", errb.String())
			}
		})
	}
}
