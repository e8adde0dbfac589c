package cluster

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// stopProcesses sends SIGTERM to every pid (a broker's controlled shutdown), waits up to
// grace for them to exit, then sends SIGKILL to the rest.
func stopProcesses(pids []int, grace time.Duration) error {
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("stop process %d: %w", pid, err)
		}
	}
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		if !anyRunning(pids) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, pid := range pids {
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("kill process %d: %w", pid, err)
		}
	}
	for i := 0; i < 50 && anyRunning(pids); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	return nil
}

func anyRunning(pids []int) bool {
	for _, pid := range pids {
		if running(pid) {
			return true
		}
	}
	return false
}

// running reports whether pid exists and is not a zombie.
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil {
		return false
	}
	return !isZombie(pid)
}
