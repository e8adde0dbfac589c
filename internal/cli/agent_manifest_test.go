package cli

import (
	"bytes"
	"io"
	"path"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
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

// TestAgentManifestCommandParses hands the agent command line each launcher writes to
// kbench's own command tree, with the launcher's placeholders filled in as Kubernetes and
// systemd fill them: a flag of kbench agent renamed without the launchers fails here, not in
// the users' pods.
func TestAgentManifestCommandParses(t *testing.T) {
	for _, tc := range []struct {
		name     string
		args     []string
		argv     func(t *testing.T, out string) []string
		fill     *strings.Replacer
		wantName string
	}{
		{"kubernetes", []string{"--agents", "2", "--image", "kbench:dev", "--command-config-secret", "s"},
			jobCommand, strings.NewReplacer("$(KBENCH_AGENT_INDEX)", "1"), "agent-1"},
		{"systemd", []string{"--format", "systemd", "--command-config", "/etc/kbench/client.properties"},
			execStart, strings.NewReplacer("%i", "host-a", "%d", "/run/credentials/kbench-agent@host-a.service"), "host-a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			args := append([]string{"agent", "manifest", "--bootstrap-server", "10.0.0.1:9092"}, tc.args...)
			if code := run(args, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			argv := tc.argv(t, out.String())
			if len(argv) < 2 || path.Base(argv[0]) != "kbench" {
				t.Fatalf("command %q does not run kbench", argv)
			}
			for i := range argv {
				argv[i] = tc.fill.Replace(argv[i])
			}
			cmd, rest, err := newRootCommand(io.Discard, io.Discard).Find(argv[1:])
			if err != nil || cmd.Name() != "agent" {
				t.Fatalf("%q finds %v, %v; want kbench agent", argv, cmd.Name(), err)
			}
			if err := cmd.ParseFlags(rest); err != nil {
				t.Fatalf("kbench agent refuses %q: %v", rest, err)
			}
			for flag, want := range map[string]string{"bootstrap-server": "10.0.0.1:9092", "name": tc.wantName} {
				if got := cmd.Flags().Lookup(flag).Value.String(); got != want {
					t.Errorf("--%s = %q, want %q", flag, got, want)
				}
			}
			if cmd.Flags().Lookup("command-config").Value.String() == "" {
				t.Error("--command-config not passed to the agent")
			}
		})
	}
}

// jobCommand is the container command of the printed Job.
func jobCommand(t *testing.T, out string) []string {
	t.Helper()
	var job struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct {
						Command []string `yaml:"command"`
					} `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	if err := yaml.Unmarshal([]byte(out), &job); err != nil || len(job.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("decode job: %v\n%s", err, out)
	}
	return job.Spec.Template.Spec.Containers[0].Command
}

// execStart is the printed unit's ExecStart, split on spaces as systemd splits it (the unit
// quotes nothing).
func execStart(t *testing.T, out string) []string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "ExecStart="); ok {
			return strings.Fields(v)
		}
	}
	t.Fatalf("no ExecStart in:\n%s", out)
	return nil
}
