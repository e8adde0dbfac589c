package agentlaunch

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// unit is a parsed systemd unit file: section -> key -> values in order (keys may repeat).
type unit map[string]map[string][]string

// parseUnit reads the subset of systemd.syntax(7) the generator writes: [Section] headers,
// Key=Value lines, and comments starting with # or ;. Anything else is an error, so a
// stray line in the output fails the test instead of being ignored.
func parseUnit(t *testing.T, text string) unit {
	t.Helper()
	u := unit{}
	section := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for line := 1; sc.Scan(); line++ {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(l, ";"):
		case strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]"):
			section = l[1 : len(l)-1]
			if u[section] != nil {
				t.Fatalf("line %d: section [%s] twice", line, section)
			}
			u[section] = map[string][]string{}
		default:
			k, v, ok := strings.Cut(l, "=")
			if !ok || section == "" {
				t.Fatalf("line %d: %q is neither a section nor Key=Value inside one", line, l)
			}
			u[section][strings.TrimSpace(k)] = append(u[section][strings.TrimSpace(k)], strings.TrimSpace(v))
		}
	}
	return u
}

// one returns the only value of section.key.
func (u unit) one(t *testing.T, section, key string) string {
	t.Helper()
	v := u[section][key]
	if len(v) != 1 {
		t.Fatalf("[%s] %s has %d values %q, want 1", section, key, len(v), v)
	}
	return v[0]
}

func renderUnit(t *testing.T, o Options) string {
	t.Helper()
	o.Format = Systemd
	var buf bytes.Buffer
	if err := Write(&buf, o); err != nil {
		t.Fatalf("Write: %v", err)
	}
	return buf.String()
}

func TestSystemdUnit(t *testing.T) {
	text := renderUnit(t, Options{Agents: 3, Bootstrap: "10.0.0.1:9092,10.0.0.2:9092",
		CommandConfig: "/etc/kbench/client.properties"})
	u := parseUnit(t, text)

	// systemd splits ExecStart on spaces; %i is the instance (the agent's name) and %d the
	// credentials directory where LoadCredential puts the file.
	argv := strings.Fields(u.one(t, "Service", "ExecStart"))
	want := []string{"/usr/local/bin/kbench", "agent", "--bootstrap-server", "10.0.0.1:9092,10.0.0.2:9092",
		"--name", "%i", "--command-config", "%d/client.properties"}
	if !slices.Equal(argv, want) {
		t.Errorf("ExecStart = %q, want %q", argv, want)
	}
	if got := u.one(t, "Service", "LoadCredential"); got != "client.properties:/etc/kbench/client.properties" {
		t.Errorf("LoadCredential = %q", got)
	}
	if got := u.one(t, "Service", "Restart"); got != "no" {
		t.Errorf("Restart = %q, want no", got)
	}
	if got := u.one(t, "Service", "SuccessExitStatus"); got != "130" {
		t.Errorf("SuccessExitStatus = %q, want 130 (kbench's exit code when stopped)", got)
	}
	if got := u.one(t, "Service", "DynamicUser"); got != "yes" {
		t.Errorf("DynamicUser = %q, want yes", got)
	}
	if got := u.one(t, "Install", "WantedBy"); got != "multi-user.target" {
		t.Errorf("WantedBy = %q", got)
	}
	if !strings.Contains(text, "start 3 agents") {
		t.Errorf("header does not say how many agents to start:\n%s", text)
	}
}

func TestSystemdWithoutCommandConfig(t *testing.T) {
	u := parseUnit(t, renderUnit(t, Options{Bootstrap: "broker:9092", Binary: "/opt/kbench/bin/kbench"}))
	argv := strings.Fields(u.one(t, "Service", "ExecStart"))
	want := []string{"/opt/kbench/bin/kbench", "agent", "--bootstrap-server", "broker:9092", "--name", "%i"}
	if !slices.Equal(argv, want) {
		t.Errorf("ExecStart = %q, want %q", argv, want)
	}
	if v := u["Service"]["LoadCredential"]; v != nil {
		t.Errorf("LoadCredential = %q without --command-config", v)
	}
}

// TestSystemdAnalyzeVerify has systemd itself check the unit, where systemd-analyze exists:
// it reports unknown keys and bad specifiers that the small parser above cannot know.
func TestSystemdAnalyzeVerify(t *testing.T) {
	tool, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed")
	}
	// ExecStart must name an existing executable for verify to pass: use this test binary.
	self, err := os.Executable()
	if err != nil || !plainWord.MatchString(self) {
		t.Skipf("test binary path %q cannot go into ExecStart", self)
	}
	text := renderUnit(t, Options{Agents: 2, Bootstrap: "10.0.0.1:9092", Binary: self,
		CommandConfig: "/etc/kbench/client.properties"})
	// verify reads an instance of the template from a file named like one.
	file := filepath.Join(t.TempDir(), "kbench-agent@agent-0.service")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "verify", file).CombinedOutput()
	// Only complaints about this file count; the host's other units are not ours to judge.
	var ours []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, filepath.Base(file)) {
			ours = append(ours, l)
		}
	}
	if len(ours) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	} else if err != nil {
		t.Skipf("systemd-analyze verify fails here for reasons outside the unit: %v\n%s", err, out)
	}
}
