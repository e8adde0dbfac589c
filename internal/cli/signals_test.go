package cli

import (
	"bytes"
	"context"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer the signal goroutine and the test may share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestSignals sends this process SIGTERM twice: the first cancels the context (the command
// cleans up), the second ends the process with code 130.
func TestSignals(t *testing.T) {
	exited := make(chan int, 1)
	real := exitNow
	exitNow = func(code int) { exited <- code }
	defer func() { exitNow = real }()
	var stderr syncBuffer
	ctx, stop := signalContext(context.Background(), &stderr)
	defer stop()

	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second): // a guard, not a measurement
		t.Fatal("SIGTERM did not cancel the context")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-exited:
		if code != 130 {
			t.Errorf("second SIGTERM exits %d, want 130", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a second SIGTERM did not end the process")
	}
	if lines := strings.Count(stderr.String(), "\n"); lines != 2 || !strings.Contains(stderr.String(), "SIGTERM") {
		t.Errorf("stderr %q, want one line per signal", stderr.String())
	}
}

// TestProduceSIGTERM stops a 60 s kbench produce with SIGTERM: it must stop the load, print
// its summary and exit 130, as after Ctrl-C.
func TestProduceSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("starts an in-process Kafka")
	}
	// While this test runs the process keeps a handler of its own, so a SIGTERM that
	// arrives when kbench's is not installed cannot end the test binary.
	guard := make(chan os.Signal, 1)
	signal.Notify(guard, syscall.SIGTERM)
	defer signal.Stop(guard)

	boot := fakeBootstrap(t, "sigterm")
	type outcome struct {
		stdout, stderr string
		code           int
	}
	done := make(chan outcome, 1)
	go func() {
		o, e, c := runKbench("produce", "--bootstrap-server", boot, "--topic", "sigterm", "--record-size", "100",
			"--throughput", "1000", "--duration", "60s")
		done <- outcome{o, e, c}
	}()
	time.Sleep(2 * time.Second) // into the load
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-done:
		if got.code != 130 {
			t.Errorf("exit code %d, want 130\n%s", got.code, got.stderr)
		}
		if !strings.Contains(got.stdout, "records sent") || !strings.Contains(got.stderr, "SIGTERM: stopping") {
			t.Errorf("no summary after SIGTERM:\nstdout %s\nstderr %s", got.stdout, got.stderr)
		}
	case <-time.After(30 * time.Second): // a guard, not a measurement
		t.Fatal("kbench produce did not stop after SIGTERM")
	}
}
