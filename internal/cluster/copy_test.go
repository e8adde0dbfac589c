package cluster

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeBroker starts a process that looks like a broker of dir to ownsProcess: "kafka.Kafka"
// among its arguments, working directory dir/broker-1. It exits on SIGTERM.
func fakeBroker(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	if err := os.MkdirAll(brokerDir(dir, 1), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", `trap "exit 0" TERM; while :; do sleep 0.1; done`, "kafka.Kafka",
		filepath.Join(brokerDir(dir, 1), "server.properties")) // as a real broker's command line ends
	cmd.Dir = brokerDir(dir, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	// Start returns once the exec began, but the kernel sets the new command line up a
	// little later: on a busy host /proc/PID/cmdline can still read empty then. A real
	// broker is read long after it started; wait until this one's is in place.
	deadline := time.Now().Add(10 * time.Second)
	for {
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", cmd.Process.Pid))
		if err == nil && strings.Contains(string(cmdline), "kafka.Kafka") {
			return cmd
		}
		if time.Now().After(deadline) {
			t.Fatalf("fake broker %d: command line %q after 10 s", cmd.Process.Pid, cmdline)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func writeState(t *testing.T, dir string, s state) {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, stateFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCopiedDirectoryActsOnItsOwnBrokersOnly copies a cluster directory whose broker is
// running and stops the copy: the copy's cluster.json names the original's PID, which must
// be left running, and the original directory must stay.
func TestCopiedDirectoryActsOnItsOwnBrokersOnly(t *testing.T) {
	orig := filepath.Join(t.TempDir(), "orig")
	broker := fakeBroker(t, orig)
	pid := broker.Process.Pid
	s := state{Format: 1, Dir: orig, Brokers: []Broker{{ID: 1, PID: pid, LogFile: filepath.Join(brokerDir(orig, 1), "server.log")}}}
	writeState(t, orig, s)

	copyDir := filepath.Join(t.TempDir(), "copy")
	if err := os.MkdirAll(brokerDir(copyDir, 1), 0o755); err != nil {
		t.Fatal(err)
	}
	writeState(t, copyDir, s) // what cp -r leaves: the original's Dir and PID

	c, err := Open(copyDir)
	if err != nil {
		t.Fatal(err)
	}
	if c.Dir() != copyDir || c.StartedIn() != orig {
		t.Errorf("Dir %q StartedIn %q, want %q and %q", c.Dir(), c.StartedIn(), copyDir, orig)
	}
	if got := c.Brokers()[0].LogFile; got != filepath.Join(brokerDir(copyDir, 1), "server.log") {
		t.Errorf("log file %q still points at the original", got)
	}
	if c.Alive()[1] {
		t.Error("the copy counts the original's broker as its own")
	}
	if err := c.StopWithin(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("stopping the copy signalled the original's broker: %v", err)
	}
	if _, err := os.Stat(copyDir); !os.IsNotExist(err) {
		t.Errorf("copy not removed: %v", err)
	}
	if _, err := os.Stat(filepath.Join(orig, stateFile)); err != nil {
		t.Errorf("stopping the copy touched the original directory: %v", err)
	}

	// The original still owns its broker, and stops it.
	o, err := Open(orig)
	if err != nil {
		t.Fatal(err)
	}
	if o.StartedIn() != "" || !o.Alive()[1] {
		t.Fatalf("original: StartedIn %q alive %v, want \"\" and true", o.StartedIn(), o.Alive())
	}
	if err := o.StopWithin(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	if running(pid) {
		t.Error("the original's broker still runs after its own cluster down")
	}
}

// TestMovedDirectoryKeepsItsBrokers moves a cluster directory while its broker runs: the
// broker's working directory follows the move, so the moved directory still owns it.
func TestMovedDirectoryKeepsItsBrokers(t *testing.T) {
	base := t.TempDir()
	orig := filepath.Join(base, "orig")
	broker := fakeBroker(t, orig)
	writeState(t, orig, state{Format: 1, Dir: orig, Brokers: []Broker{{ID: 1, PID: broker.Process.Pid}}})
	moved := filepath.Join(base, "moved")
	if err := os.Rename(orig, moved); err != nil {
		t.Fatal(err)
	}
	c, err := Open(moved)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Alive()[1] {
		t.Error("the moved directory lost its broker")
	}
}

// TestReusedPIDIsNotABroker checks that a PID now held by another program does not count:
// this test's own process is not a kafka.Kafka JVM.
func TestReusedPIDIsNotABroker(t *testing.T) {
	dir := t.TempDir()
	if ownsProcess(os.Getpid(), dir) {
		t.Error("the test process counts as a broker")
	}
}

// TestStateFileRedactsBrokerConfigs checks that cluster.json (mode 0644) never holds a
// secret broker config; server.properties (0600) keeps it for the broker.
func TestStateFileRedactsBrokerConfigs(t *testing.T) {
	dir := t.TempDir()
	c := &Cluster{state: state{Format: 1, Dir: dir, BrokerConfig: map[string]string{
		"ssl.keystore.password": "CANARY-1", "num.io.threads": "8",
		"listener.name.sasl.plain.sasl.jaas.config": `org.apache.kafka.common.security.plain.PlainLoginModule required user_a="CANARY-2";`,
	}}}
	if err := c.save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "CANARY") {
		t.Errorf("cluster.json holds a secret:\n%s", data)
	}
	if !strings.Contains(string(data), `"num.io.threads": "8"`) {
		t.Errorf("cluster.json lost a plain broker config:\n%s", data)
	}
	if c.state.BrokerConfig["ssl.keystore.password"] != "CANARY-1" {
		t.Error("save changed the cluster's own broker configs")
	}
}
