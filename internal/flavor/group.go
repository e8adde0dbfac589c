package flavor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
)

// Group is one broker's cgroup: a directory per v1 hierarchy it needs (cpu, cpuset,
// blkio), or the single v2 cgroup.
type Group struct {
	// Dirs are the cgroup directories, absolute.
	Dirs []string `json:"dirs"`
	// Version is the cgroup version of the hierarchies (1 or 2); 0 for no cgroup.
	Version int `json:"version,omitempty"`
}

// write is one cgroup file to write, in order.
type write struct{ file, value string }

// Create creates the cgroup name (kbench-<cluster ID>-broker-<N>) with l's limits, under the
// cgroup this process is in, in every hierarchy a limit needs; logDir is the broker's log
// dir, whose device a disk throttle applies to. On any failure nothing is left behind and
// the error says what could not be done and why, in one line.
func (h Host) Create(name string, l Limits, logDir string) (Group, error) {
	if !strings.HasPrefix(name, namePrefix) {
		return Group{}, fmt.Errorf("cgroup name %q does not start with %s", name, namePrefix)
	}
	plan := map[string][]write{} // cgroup dir -> files
	var order []string
	var v2Controllers map[string][]string // v2 parent -> controllers to enable
	add := func(controller string, writes func(hierarchy) ([]write, error)) error {
		hy, err := h.find(controller)
		if err != nil {
			return err
		}
		ws, err := writes(hy)
		if err != nil {
			return err
		}
		dir := filepath.Join(hy.dir, name)
		if _, ok := plan[dir]; !ok {
			order = append(order, dir)
		}
		plan[dir] = append(plan[dir], ws...)
		if hy.version == 2 {
			if v2Controllers == nil {
				v2Controllers = map[string][]string{}
			}
			v2Controllers[hy.dir] = append(v2Controllers[hy.dir], controllerNames[controller])
		}
		return nil
	}
	if l.CPUs > 0 {
		q, period := cfs(l.CPUs)
		err := add("cpu", func(hy hierarchy) ([]write, error) {
			if hy.version == 2 {
				return []write{{"cpu.max", fmt.Sprintf("%d %d", q, period)}}, nil
			}
			return []write{{"cpu.cfs_period_us", strconv.FormatInt(period, 10)}, {"cpu.cfs_quota_us", strconv.FormatInt(q, 10)}}, nil
		})
		if err != nil {
			return Group{}, fmt.Errorf("broker CPU quota: %w", err)
		}
	}
	if l.Cpuset != "" {
		err := add("cpuset", func(hy hierarchy) ([]write, error) {
			ws := []write{{"cpuset.cpus", l.Cpuset}}
			if hy.version == 1 {
				// A v1 cpuset cgroup takes no process until it has memory nodes; the
				// parent's are the ones this process may use.
				mems, err := os.ReadFile(filepath.Join(hy.dir, "cpuset.mems"))
				if err != nil {
					return nil, fmt.Errorf("unable to read the parent's memory nodes: %w", err)
				}
				ws = append(ws, write{"cpuset.mems", strings.TrimSpace(string(mems))})
			}
			return ws, nil
		})
		if err != nil {
			return Group{}, fmt.Errorf("broker cpuset: %w", err)
		}
	}
	if l.Disk.Throttled() {
		dev, err := h.blockDevice(logDir)
		if err != nil {
			return Group{}, fmt.Errorf("broker disk class: %w", err)
		}
		err = add("blkio", func(hy hierarchy) ([]write, error) {
			d := l.Disk
			if hy.version == 2 {
				var keys []string
				for _, kv := range []struct {
					k string
					v uint64
				}{{"rbps", d.ReadBPS}, {"wbps", d.WriteBPS}, {"riops", d.ReadIOPS}, {"wiops", d.WriteIOPS}} {
					if kv.v > 0 {
						keys = append(keys, fmt.Sprintf("%s=%d", kv.k, kv.v))
					}
				}
				return []write{{"io.max", dev + " " + strings.Join(keys, " ")}}, nil
			}
			var ws []write
			for _, kv := range []struct {
				file string
				v    uint64
			}{{"read_bps_device", d.ReadBPS}, {"write_bps_device", d.WriteBPS}, {"read_iops_device", d.ReadIOPS}, {"write_iops_device", d.WriteIOPS}} {
				if kv.v > 0 {
					ws = append(ws, write{"blkio.throttle." + kv.file, fmt.Sprintf("%s %d", dev, kv.v)})
				}
			}
			return ws, nil
		})
		if err != nil {
			return Group{}, fmt.Errorf("broker disk class: %w", err)
		}
		for parent := range v2Controllers {
			// cgroup v2 charges writeback to a cgroup only when it has the memory
			// controller too.
			v2Controllers[parent] = append(v2Controllers[parent], "memory")
		}
	}
	for parent, ctls := range v2Controllers {
		if err := enableV2(parent, ctls); err != nil {
			return Group{}, err
		}
	}
	g := Group{Version: 1}
	if v2Controllers != nil {
		g.Version = 2
	}
	for _, dir := range order {
		if err := os.Mkdir(dir, 0o755); err != nil {
			_ = h.Remove(g.Dirs)
			return Group{}, fmt.Errorf("create cgroup %s: %w%s", dir, err, hint(err))
		}
		g.Dirs = append(g.Dirs, dir)
		for _, w := range plan[dir] {
			if err := os.WriteFile(filepath.Join(dir, w.file), []byte(w.value), 0o644); err != nil {
				_ = h.Remove(g.Dirs)
				return Group{}, fmt.Errorf("set %s to %q: %w%s", filepath.Join(dir, w.file), w.value, err, hint(err))
			}
		}
	}
	return g, nil
}

// enableV2 makes the controllers available to parent's children (cgroup.subtree_control).
// The kernel refuses this where parent holds processes itself (cgroup v2's no internal
// process rule): kbench then says so rather than work around the host's layout.
func enableV2(parent string, ctls []string) error {
	b, err := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control"))
	if err != nil {
		return fmt.Errorf("unable to read %s: %w", filepath.Join(parent, "cgroup.subtree_control"), err)
	}
	have := strings.Fields(string(b))
	for _, c := range ctls {
		if slices.Contains(have, c) {
			continue
		}
		f := filepath.Join(parent, "cgroup.subtree_control")
		if err := os.WriteFile(f, []byte("+"+c), 0o644); err != nil {
			return fmt.Errorf("enable the %s controller in %s: %w%s", c, f, err, hint(err))
		}
		have = append(have, c)
	}
	return nil
}

// hint says why a cgroup write typically fails.
func hint(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return " (limiting brokers needs root, or a cgroup delegated to this user)"
	case errors.Is(err, syscall.EROFS):
		return " (the cgroup filesystem is mounted read-only, as in many containers)"
	case errors.Is(err, syscall.EBUSY):
		return " (cgroup v2 enables controllers only in cgroups without processes of their own)"
	}
	return ""
}

// Add moves process pid, all its threads, into g.
func (g Group) Add(pid int) error {
	for _, dir := range g.Dirs {
		f := filepath.Join(dir, "cgroup.procs")
		if err := os.WriteFile(f, []byte(strconv.Itoa(pid)), 0o644); err != nil {
			return fmt.Errorf("move process %d into cgroup %s: %w%s", pid, dir, err, hint(err))
		}
	}
	return nil
}

// blockDevice returns "major:minor" of the whole disk holding dir, the device a throttle
// applies to: the kernel throttles disks, not partitions, so a partition gives its disk.
func (h Host) blockDevice(dir string) (string, error) {
	major, minor, err := h.device(dir)
	if err != nil {
		return "", fmt.Errorf("unable to find the device of log dir %s: %w", dir, err)
	}
	if major == 0 {
		return "", fmt.Errorf("log dir %s is on a filesystem without a block device (device 0:%d: tmpfs, overlay or another virtual filesystem), so its disk cannot be throttled; put the cluster directory on a disk-backed filesystem", dir, minor)
	}
	dev := fmt.Sprintf("%d:%d", major, minor)
	link := filepath.Join(h.Sys, "dev", "block", dev)
	if _, err := os.Stat(filepath.Join(link, "partition")); err == nil {
		target, err := os.Readlink(link)
		if err != nil {
			return "", fmt.Errorf("unable to find the disk of partition %s: %w", dev, err)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(link), target)
		}
		b, err := os.ReadFile(filepath.Join(filepath.Dir(target), "dev"))
		if err != nil {
			return "", fmt.Errorf("unable to find the disk of partition %s: %w", dev, err)
		}
		dev = strings.TrimSpace(string(b))
	}
	return dev, nil
}

// TmpfsDir creates the memory-backed directory name (kbench-<cluster ID>) under Shm for a
// cluster's log dirs, refusing when Shm is not memory-backed.
func (h Host) TmpfsDir(name string) (string, error) {
	if !strings.HasPrefix(name, namePrefix) {
		return "", fmt.Errorf("directory name %q does not start with %s", name, namePrefix)
	}
	if !h.memoryBacked(h.Shm) {
		return "", fmt.Errorf("disk tmpfs: %s is not a tmpfs filesystem on this host, so there is no memory-backed place for the log dirs", h.Shm)
	}
	dir := filepath.Join(h.Shm, name)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return "", fmt.Errorf("disk tmpfs: create %s: %w", dir, err)
	}
	return dir, nil
}

// RemoveTmpfsDir removes a directory TmpfsDir created, and everything in it.
func (h Host) RemoveTmpfsDir(dir string) error {
	if filepath.Dir(dir) != filepath.Clean(h.Shm) || !strings.HasPrefix(filepath.Base(dir), namePrefix) {
		return fmt.Errorf("not removing %s: kbench's memory-backed directories are %s/%s*", dir, h.Shm, namePrefix)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("remove memory-backed log dirs: %w", err)
	}
	return nil
}
