package cluster

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"github.com/kbench/kbench/internal/flavor"
)

// Faults (kbench verify) kill, pause and restart single brokers. Every signal goes to a PID
// that is first checked to be that broker of this cluster directory (processAlive), never
// to processes found by name, and a restarted broker's PID is written to cluster.json
// before anything else can fail, so `kbench cluster down` stops it like the others.

// restartTimeout bounds the wait for a restarted broker to listen: a cold JVM on two busy
// cores with a log to recover was measured at about 20 s to start.
const restartTimeout = 2 * time.Minute

// Signals is the signals Kill sends: a crash (SIGKILL), a controlled shutdown (SIGTERM), a
// pause and its end (SIGSTOP, SIGCONT).
var Signals = []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGSTOP, syscall.SIGCONT}

// broker returns broker id, or an error naming the valid ids.
func (c *Cluster) broker(id int) (Broker, error) {
	brokers := c.Brokers()
	var ids []int
	for _, b := range brokers {
		if b.ID == id {
			return b, nil
		}
		ids = append(ids, b.ID)
	}
	return Broker{}, fmt.Errorf("broker %d: not in this cluster (brokers %v)", id, ids)
}

// Kill sends sig (one of Signals) to broker id's process, by its PID, once that PID is
// checked to be the broker's. After SIGSTOP it returns once the process is stopped (the
// signal is delivered asynchronously); it does not wait for an exit: see WaitExited.
func (c *Cluster) Kill(id int, sig syscall.Signal) error {
	if !slices.Contains(Signals, sig) {
		return fmt.Errorf("signal %v: want one of %v", sig, Signals)
	}
	b, err := c.broker(id)
	if err != nil {
		return err
	}
	if !c.processAlive(b) {
		return fmt.Errorf("broker %d (pid %d) is not running", id, b.PID)
	}
	if err := syscall.Kill(b.PID, sig); err != nil {
		return fmt.Errorf("send %v to broker %d (pid %d): %w", sig, id, b.PID, err)
	}
	if sig == syscall.SIGSTOP {
		for deadline := time.Now().Add(5 * time.Second); procState(b.PID) != 'T'; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				return fmt.Errorf("broker %d (pid %d) not stopped 5s after SIGSTOP (state %q)", id, b.PID, procState(b.PID))
			}
		}
	}
	return nil
}

// WaitExited waits until broker id's process has exited, up to timeout; a stopped
// (SIGSTOP) broker never exits, so the timeout is the caller's bound on a SIGTERM's
// controlled shutdown.
func (c *Cluster) WaitExited(ctx context.Context, id int, timeout time.Duration) error {
	b, err := c.broker(id)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	for c.processAlive(b) {
		if time.Now().After(deadline) {
			return fmt.Errorf("broker %d (pid %d) still running %s after it was signalled", id, b.PID, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
	return nil
}

// Restart starts broker id again after it has exited: the same node id, server.properties,
// ports, log dirs and cgroup, attached to this process or detached as the cluster was
// started. The new PID is saved in cluster.json at once; Restart returns the broker once
// its client port accepts connections. On any failure the new process is stopped by its
// PID, so a restart is never left half-done, and the error says why in one line.
func (c *Cluster) Restart(ctx context.Context, id int) (Broker, error) {
	old, err := c.broker(id)
	if err != nil {
		return Broker{}, err
	}
	if c.processAlive(old) {
		return Broker{}, fmt.Errorf("restart broker %d: it is still running (pid %d); stop it first", id, old.PID)
	}
	if c.firstDir != "" {
		return Broker{}, fmt.Errorf("restart broker %d: %s is a copy of the cluster started in %s", id, c.state.Dir, c.firstDir)
	}
	kafka, err := Install(ctx, c.state.KafkaVersion, io.Discard)
	if err != nil {
		return Broker{}, fmt.Errorf("restart broker %d: %w", id, err)
	}
	group, err := c.brokerGroup(id)
	if err != nil {
		return Broker{}, fmt.Errorf("restart broker %d: %w", id, err)
	}
	// A broker read from cluster.json was started detached by `kbench cluster up`; it
	// stays detached so that it outlives this process as the others do.
	opts := Options{Dir: c.state.Dir, Heap: c.state.Heap, Detach: c.detached || old.exited == nil}
	b, err := startNode(kafka, opts, restartNode(old), group)
	if err != nil {
		return Broker{}, err
	}
	if err := c.record(b, group); err != nil {
		_ = stopProcesses([]int{b.PID}, 5*time.Second)
		return Broker{}, fmt.Errorf("restart broker %d: %w", id, err)
	}
	if err := c.waitListening(ctx, b); err != nil {
		_ = stopProcesses([]int{b.PID}, 5*time.Second)
		return Broker{}, err
	}
	return b, nil
}

// restartNode is the node a broker was started as, from what cluster.json keeps of it.
func restartNode(b Broker) node {
	n := node{ID: b.ID, Client: b.Port, Controller: b.Controller}
	if u, err := url.Parse(b.MetricsURL); err == nil && b.MetricsURL != "" {
		n.Metrics, _ = strconv.Atoi(u.Port())
	}
	return n
}

// record puts b (and its cgroup) in place of the broker with its ID and saves cluster.json.
func (c *Cluster) record(b Broker, group *flavor.Group) error {
	if group != nil {
		if err := group.Add(b.PID); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	brokers := slices.Clone(c.state.Brokers)
	for i := range brokers {
		if brokers[i].ID == b.ID {
			brokers[i] = b
		}
	}
	c.state.Brokers = brokers
	return c.save()
}

// brokerGroup finds broker id's cgroup among the cluster's (named
// kbench-<cluster ID>-broker-<id>, see createCgroups); nil when the cluster has none.
func (c *Cluster) brokerGroup(id int) (*flavor.Group, error) {
	if len(c.state.Cgroups) == 0 {
		return nil, nil
	}
	name := fmt.Sprintf("kbench-%s-broker-%d", c.state.ClusterID, id)
	g := flavor.Group{Version: 1}
	for _, dir := range c.state.Cgroups {
		if filepath.Base(dir) == name {
			g.Dirs = append(g.Dirs, dir)
		}
	}
	if len(g.Dirs) == 0 {
		return nil, fmt.Errorf("its cgroup %s is not in cluster.json", name)
	}
	// Only cgroup v2 directories hold cgroup.controllers.
	if _, err := os.Stat(filepath.Join(g.Dirs[0], "cgroup.controllers")); err == nil {
		g.Version = 2
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("cgroup %s: %w", g.Dirs[0], err)
	}
	return &g, nil
}

// waitListening waits until b's client port accepts a connection; a broker that exits
// meanwhile fails with the end of its log.
func (c *Cluster) waitListening(ctx context.Context, b Broker) error {
	ctx, cancel := context.WithTimeout(ctx, restartTimeout)
	defer cancel()
	addr := hostPort(c.clientHost(), b.Port)
	for {
		if !c.processAlive(b) {
			tail := ""
			if data, err := os.ReadFile(b.LogFile); err == nil {
				tail = lastLines(string(data), 1)
			}
			return fmt.Errorf("restarted broker %d (pid %d) exited; last line of %s: %s", b.ID, b.PID, b.LogFile, tail)
		}
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return nil
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("restarted broker %d (pid %d) did not listen on %s within %s; its log is %s", b.ID, b.PID, addr, restartTimeout, b.LogFile)
			}
			return fmt.Errorf("restart broker %d: %w", b.ID, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}
