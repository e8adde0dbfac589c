package cluster

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// startBroker starts cmd. A detached broker gets its own session, so that it outlives
// `kbench cluster up` and a Ctrl-C in the terminal does not reach it. An attached one is
// started with a parent-death signal, so it dies with this process however that ends.
func startBroker(cmd *exec.Cmd, detach bool) error {
	if detach {
		cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		return cmd.Start()
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	req := spawnRequest{cmd: cmd, done: make(chan error, 1)}
	spawner().requests <- req
	return <-req.done
}

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
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
				req.done <- req.cmd.Start()
			}
		}()
	})
	return spawnSelf
}
