package cluster

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/kbench/kbench/internal/flavor"
)

// flavorHost is where broker cgroups and memory-backed log dirs are made; tests replace it.
var flavorHost = flavor.System()

// logDir is broker id's Kafka log dir: in the cluster directory, or under the cluster's
// memory-backed directory with the tmpfs disk class.
func logDir(opts Options, id int) string {
	if opts.dataRoot != "" {
		return filepath.Join(opts.dataRoot, fmt.Sprintf("broker-%d", id))
	}
	return dataDir(opts.Dir, id)
}

// LogDirs returns every node's Kafka log dir, in the order of Brokers: where a topic's
// files are, and where a deleted topic's files can be watched going.
func (c *Cluster) LogDirs() []string {
	opts := Options{Dir: c.state.Dir, dataRoot: c.state.TmpfsDir}
	var dirs []string
	for _, b := range c.Brokers() {
		dirs = append(dirs, logDir(opts, b.ID))
	}
	return dirs
}

// prepareTmpfs creates the memory-backed directory for the log dirs when the disk class is
// tmpfs, named with the cluster's ID.
func (c *Cluster) prepareTmpfs(opts *Options) error {
	if !opts.Limits.Disk.Tmpfs {
		return nil
	}
	dir, err := flavorHost.TmpfsDir("kbench-" + c.state.ClusterID)
	if err != nil {
		return err
	}
	c.state.TmpfsDir, opts.dataRoot = dir, dir
	return nil
}

// createCgroups gives every node a cgroup of its own with the cluster's limits, named
// kbench-<cluster ID>-broker-<N>, before any broker starts: a limit that cannot be set stops
// the start, rather than letting brokers run unlimited.
func (c *Cluster) createCgroups(opts Options, nodes []node, log io.Writer) (map[int]flavor.Group, error) {
	if !opts.Limits.Any() {
		return nil, nil
	}
	groups := map[int]flavor.Group{}
	for _, n := range nodes {
		g, err := flavorHost.Create(fmt.Sprintf("kbench-%s-broker-%d", c.state.ClusterID, n.ID), opts.Limits, logDir(opts, n.ID))
		if err != nil {
			return nil, fmt.Errorf("limit broker %d: %w; not starting brokers without the limits asked for", n.ID, err)
		}
		groups[n.ID] = g
		c.state.Cgroups = append(c.state.Cgroups, g.Dirs...)
	}
	fmt.Fprintf(log, "each broker in its own cgroup: %s\n", opts.Limits)
	return groups, nil
}

// releaseFlavor removes the cluster's cgroups and memory-backed log dirs once its brokers
// have stopped; a copied cluster directory's record of them belongs to the original.
func (c *Cluster) releaseFlavor() error {
	if c.firstDir != "" {
		return nil
	}
	var errs []error
	if len(c.state.Cgroups) > 0 {
		errs = append(errs, flavorHost.Remove(c.state.Cgroups))
	}
	if c.state.TmpfsDir != "" {
		errs = append(errs, flavorHost.RemoveTmpfsDir(c.state.TmpfsDir))
	}
	return errors.Join(errs...)
}

// Limits returns the resources each broker was limited to (zero: none).
func (c *Cluster) Limits() flavor.Limits { return c.state.Limits }

// syncFlush is the broker config that makes Kafka fsync every batch it appends, so that its
// writes are synchronous and a cgroup v1 write throttle applies to them.
const syncFlush = "log.flush.interval.messages"

// checkWriteThrottle refuses a write limit that would not limit Kafka's writes: on cgroup
// v1 only synchronous writes are throttled, and Kafka's are buffered unless it is told to
// flush every batch.
func checkWriteThrottle(opts Options) error {
	if !opts.Limits.Disk.WritesLimited() || opts.BrokerConfig[syncFlush] == "1" {
		return nil
	}
	ok, err := flavorHost.ThrottlesBufferedWrites()
	if err != nil {
		return fmt.Errorf("broker disk class: %w", err)
	}
	if !ok {
		return fmt.Errorf("broker disk class: this host's cgroup v1 blkio controller does not charge buffered writeback to a broker's cgroup, so a write limit would not slow Kafka's log writes (measured: 50 MiB/s written under a 5 MiB/s limit); add broker config %s=1 (an fsync per batch, which the limit then throttles), limit reads only, or use a cgroup v2 host", syncFlush)
	}
	return nil
}
