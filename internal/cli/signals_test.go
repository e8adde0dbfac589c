package cli

import (
	"bytes"
	"context"
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
