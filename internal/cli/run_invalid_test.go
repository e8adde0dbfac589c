package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run whose every repeat is invalid ends with its own exit code and the reasons counted.
func TestRunAllInvalidExitCode(t *testing.T) {
	boot := fakeBootstrap(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "t.yaml")
	// Three replicas on a one-broker cluster: every topic creation fails, so both repeats
	// are invalid for the same reason.
	study := "name: t-invalid\nrepeats: 2\nwarmup: 0s\ncooldown: 0s\ndefaults:\n  topic: {partitions: 1, replicas: 3}\n  producers: {record_size: 10, records: 10}\n"
	if err := os.WriteFile(file, []byte(study), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runKbench("run", file, "--bootstrap-server", boot, "--yes", "--runs-dir", filepath.Join(dir, "runs"), "--report", "json")
	if code != exitAllInvalid {
		t.Fatalf("exit %d, want %d; stdout %q, stderr %q", code, exitAllInvalid, stdout, stderr)
	}
	lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.Contains(last, "every repeat was invalid (2 of 2): 2x create topic <topic> (1 partitions, 3 replicas): INVALID_REPLICATION_FACTOR") {
		t.Errorf("last stderr line %q, want the reasons counted", last)
	}
}

// The reasons are listed most frequent first, then alphabetically.
func TestSummarizeReasons(t *testing.T) {
	got := summarizeReasons(map[string]int{"b": 1, "a": 1, "c": 3})
	if want := "3x c; 1x a; 1x b"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
}
