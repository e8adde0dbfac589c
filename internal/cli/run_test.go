package cli

import (
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRunCommandErrors checks what `kbench run` says before it starts anything.
func TestRunCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	study := "name: bad\nrepeats: 1\ndefaults:\n  producers:\n    recordsize: 1KiB\n"
	if err := os.WriteFile(bad, []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "runs")
	for _, tc := range []struct {
		name string
		args []string
		want []string // substrings of the single stderr line
	}{
		{name: "malformed study", args: []string{"run", bad, "--runs-dir", runs},
			want: []string{bad + ":5:", "defaults.producers.recordsize", `"record_size"`}},
		{name: "no study", args: []string{"run", "--runs-dir", runs},
			want: []string{"name a study", "quick", "--resume"}},
		{name: "unknown study", args: []string{"run", "no-such-study", "--runs-dir", runs},
			want: []string{"no-such-study"}},
		{name: "resume of nothing", args: []string{"run", "--resume", filepath.Join(dir, "nothing"), "--runs-dir", runs},
			want: []string{"resume", "nothing"}},
		{name: "study and resume", args: []string{"run", "quick", "--resume", dir},
			want: []string{"not both"}},
		{name: "seed and resume", args: []string{"run", "--resume", dir, "--seed", "3"},
			want: []string{"--seed", "--resume", "run.json"}},
		{name: "unreachable cluster", args: []string{"run", "quick", "--bootstrap-server", closedPort(t), "--runs-dir", runs},
			want: []string{"cannot reach the cluster: bootstrap server 127.0.0.1:", "connection refused"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := runKbench(tc.args...)
			lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
			if code != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], "kbench: ") {
				t.Fatalf("exit %d, stderr %q (stdout %q), want exit 1 and one line kbench: ...", code, stderr, stdout)
			}
			for _, w := range tc.want {
				if !strings.Contains(lines[0], w) {
					t.Errorf("error %q does not mention %q", lines[0], w)
				}
			}
		})
	}
	if _, err := os.Stat(runs); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s behind (%v)", runs, err)
	}
}

// closedPort is a loopback address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestRunDryRun prints the plan of a built-in study and of a file, and runs nothing.
func TestRunDryRun(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	study := "name: mine\nrepeats: 2\nwarmup: 1s\nmatrix:\n  acks: [\"1\", all]\n"
	if err := os.WriteFile(file, []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "runs")
	for _, tc := range []struct {
		study string
		want  []string
	}{
		{"quick", []string{"study quick", "4 scenarios", "batch=1KiB,acks=1", "estimated duration"}},
		{file, []string{"study mine", "2 scenarios", "acks=all", "2 repeats", "estimated duration"}},
	} {
		stdout, stderr, code := runKbench("run", tc.study, "--dry-run", "--runs-dir", runs)
		if code != 0 || stderr != "" {
			t.Fatalf("%s: exit %d, stderr %q", tc.study, code, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stdout, w) {
				t.Errorf("%s: plan does not mention %q:\n%s", tc.study, w, stdout)
			}
		}
	}
	if _, err := os.Stat(runs); !os.IsNotExist(err) {
		t.Errorf("--dry-run created %s (%v)", runs, err)
	}
	// The order is printed round by round, both scenarios in each round, and a seed replays it.
	first, _, _ := runKbench("run", file, "--dry-run", "--seed", "5")
	again, _, _ := runKbench("run", file, "--dry-run", "--seed", "5")
	if first != again {
		t.Errorf("--seed 5 printed two different plans:\n%s\n%s", first, again)
	}
	order := first[strings.Index(first, "run order"):]
	for _, w := range []string{"seed 5", "round 1: ", "round 2: "} {
		if !strings.Contains(order, w) {
			t.Errorf("run order does not mention %q:\n%s", w, order)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(order), "\n")[1:] {
		if f := strings.Fields(line); len(f) != 4 || !slices.Contains(f, "1") || !slices.Contains(f, "2") {
			t.Errorf("round line %q does not run both scenarios", line)
		}
	}
}
