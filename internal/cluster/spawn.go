package cluster

import (
	"errors"
	"os/exec"
	"runtime"
	"sync"
	"syscall"

	"github.com/kbench/kbench/internal/flavor"
)

// startBroker starts cmd. A detached broker gets its own session, so that it outlives
// `kbench cluster up` and a Ctrl-C in the terminal does not reach it. An attached one is
// started with a parent-death signal, so it dies with this process however that ends.
func startBroker(cmd *exec.Cmd, detach bool) error { return startInGroup(cmd, detach, nil) }

// startInGroup is startBroker with the process started inside cgroup g (nil: where kbench
// is), so that the JVM sees its limits from its first instruction.
func startInGroup(cmd *exec.Cmd, detach bool, g *flavor.Group) error {
	if detach {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if g == nil {
			return cmd.Start()
		}
		done := make(chan error, 1)
		go func() {
			// No UnlockOSThread: the thread entered the broker's cgroup, so it ends with
			// this goroutine instead of going back to the runtime's pool.
			runtime.LockOSThread()
			done <- startOnThread(cmd, g)
		}()
		return <-done
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	req := spawnRequest{cmd: cmd, group: g, done: make(chan error, 1)}
	spawner().requests <- req
	return <-req.done
}

// startOnThread starts cmd from the calling (locked) thread, inside g when g is set.
func startOnThread(cmd *exec.Cmd, g *flavor.Group) error {
	if g == nil {
		return cmd.Start()
	}
	closeFD, err := g.SetProcAttr(cmd.SysProcAttr)
	if err != nil {
		return err
	}
	defer closeFD()
	leave, err := g.Enter()
	if err != nil {
		return err
	}
	startErr := cmd.Start()
	if err := leave(); err != nil {
		return errors.Join(startErr, err)
	}
	return startErr
}

type spawnRequest struct {
	cmd   *exec.Cmd
	group *flavor.Group
	done  chan error
}

type spawnThread struct{ requests chan spawnRequest }

var (
	spawnOnce sync.Once
	spawnSelf *spawnThread
)

// spawner returns the goroutine that starts attached brokers. Linux sends the parent-death
// signal when the forking *thread* exits, and Go retires threads at will; this goroutine
// stays locked to its thread for the life of the process, so the signal comes only when the
// process itself dies.
func spawner() *spawnThread {
	spawnOnce.Do(func() {
		spawnSelf = &spawnThread{requests: make(chan spawnRequest)}
		go func() {
			runtime.LockOSThread()
			for req := range spawnSelf.requests {
				req.done <- startOnThread(req.cmd, req.group)
			}
		}()
	})
	return spawnSelf
}
