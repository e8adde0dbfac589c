package metrics

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// spinEnv makes the test binary a child that burns a known amount of CPU (see TestMain).
const spinEnv = "KBENCH_METRICS_SPIN_CPU"

// spinChild runs in the re-executed test binary: it prints "ready", waits for a line on
// stdin, spins on one core until getrusage says it used the CPU time in spinEnv, prints the
// CPU time it measured for the spin in seconds, and waits for stdin to close.
func spinChild() {
	want, err := time.ParseDuration(os.Getenv(spinEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	runtime.GOMAXPROCS(1)
	in := bufio.NewReader(os.Stdin)
	fmt.Println("ready")
	if _, err := in.ReadString('\n'); err != nil {
		os.Exit(2)
	}
	start := processCPU()
	x := 0
	for processCPU()-start < want {
		for i := 0; i < 100000; i++ {
			x += i
		}
	}
	fmt.Printf("%f %d\n", (processCPU() - start).Seconds(), x%2)
	in.ReadString('\n')
	os.Exit(0)
}

// processCPU is this process's user+system time, from getrusage(2).
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The sampler measures, through the real /proc, the CPU of a process that spins one core for
// a known CPU time, within 5%.
func TestCPUOfSpinningProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux /proc")
	}
	const spin = 1500 * time.Millisecond
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), spinEnv+"="+spin.String())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); cmd.Wait() }()
	out := bufio.NewReader(stdout)
	if line, err := out.ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("child said %q, %v", line, err)
	}

	s, err := NewSampler(SamplerConfig{Proc: "/proc", Brokers: []BrokerTarget{{ID: 1, PID: cmd.Process.Pid, CPUAllotment: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	s.sample(context.Background()) // baseline, before the spin
	start := time.Now()
	fmt.Fprintln(stdin, "go")
	line, err := out.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	s.sample(context.Background()) // after the spin
	elapsed := time.Since(start)
	childCPU, err := strconv.ParseFloat(strings.Fields(line)[0], 64)
	if err != nil {
		t.Fatalf("child said %q: %v", line, err)
	}

	rows := s.Stop().Brokers[0].Rows
	if len(rows) != 1 {
		t.Fatalf("want one row, got %d", len(rows))
	}
	// cpu_cores is CPU seconds per wall second over the row's interval, which spans the spin
	// (the interval is measured by the sampler; elapsed only bounds it from below).
	rowSeconds := rows[0].Values[FieldCPUCores] * s.lastProcInterval(t)
	if math.Abs(rowSeconds-childCPU)/childCPU > 0.05 {
		t.Errorf("measured %.3f CPU s, the child used %.3f s (spin %s, wall %s): off by more than 5%%",
			rowSeconds, childCPU, spin, elapsed)
	}
	t.Logf("measured %.3f CPU s, child's getrusage %.3f s", rowSeconds, childCPU)
	if pct := rows[0].Values[FieldCPUPercent]; pct > 105 {
		t.Errorf("one spinning thread measured as %.1f%% of one core", pct)
	}
}

// lastProcInterval returns the length in seconds of the last /proc interval of broker 0.
func (s *Sampler) lastProcInterval(t *testing.T) float64 {
	t.Helper()
	b := s.brokers[0]
	if b.proc == nil || b.procPrevAt.IsZero() {
		t.Fatal("no /proc interval recorded")
	}
	return b.proc.at.Sub(b.procPrevAt).Seconds()
}
