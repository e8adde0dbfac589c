package cluster

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFormatCommandKeepsThePasswordOffTheCommandLine checks that the storage tool's command
// line (what /proc/PID/cmdline and ps show) holds no SCRAM password, that the password is
// in a 0600 @argfile with the main class and arguments in order, and that remove deletes it.
func TestFormatCommandKeepsThePasswordOffTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(brokerDir(dir, 1), 0o755); err != nil {
		t.Fatal(err)
	}
	kafka := &Kafka{Java: "/usr/bin/java", Libs: t.TempDir()}
	opts := Options{Dir: dir, SASL: "scram-sha-256", password: "CANARY-0123abcd"}
	cmd, remove, err := formatCommand(context.Background(), kafka, opts, node{ID: 1}, "cid")
	if err != nil {
		t.Fatal(err)
	}
	line := strings.Join(cmd.Args, " ")
	if strings.Contains(line, "CANARY") {
		t.Fatalf("password on the command line: %s", line)
	}
	argFile := filepath.Join(brokerDir(dir, 1), ".format-args")
	if cmd.Args[len(cmd.Args)-1] != "@"+argFile {
		t.Errorf("last argument %q, want @%s", cmd.Args[len(cmd.Args)-1], argFile)
	}
	st, err := os.Stat(argFile)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("argument file mode %v, want 0600", st.Mode().Perm())
	}
	data, _ := os.ReadFile(argFile)
	want := `"kafka.tools.StorageTool"` + "\n" + `"format"` + "\n" + `"-t"` + "\n" + `"cid"` + "\n" + `"-c"` + "\n" +
		`"` + filepath.Join(brokerDir(dir, 1), "server.properties") + `"` + "\n" + `"--add-scram"` + "\n" +
		`"SCRAM-SHA-256=[name=kbench,password=CANARY-0123abcd]"` + "\n"
	if string(data) != want {
		t.Errorf("argument file:\n%s\nwant:\n%s", data, want)
	}
	remove()
	if _, err := os.Stat(argFile); !os.IsNotExist(err) {
		t.Errorf("argument file left behind: %v", err)
	}

	// PLAIN has no SCRAM credentials to create: no file, plain arguments.
	opts.SASL = "plain"
	cmd, remove, err = formatCommand(context.Background(), kafka, opts, node{ID: 1}, "cid")
	if err != nil {
		t.Fatal(err)
	}
	remove()
	if strings.Contains(strings.Join(cmd.Args, " "), "CANARY") || strings.Contains(strings.Join(cmd.Args, " "), "@") {
		t.Errorf("PLAIN format command: %v", cmd.Args)
	}
}

func TestArgFileQuote(t *testing.T) {
	// The launcher reads "a\"b\\c" back as a"b\c (JDK argument file syntax).
	if got := argFileQuote(`a"b\c`); got != `"a\"b\\c"` {
		t.Errorf("argFileQuote = %s", got)
	}
}
