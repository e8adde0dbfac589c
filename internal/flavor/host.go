package flavor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/kbench/kbench/internal/cgroups"
)

// Host is where cgroups, devices and memory-backed directories are found. Tests point it at
// a temporary directory; System is the real machine.
type Host struct {
	// Cgroup is the cgroup mount root (/sys/fs/cgroup): v1 hierarchies are directories
	// below it named as /proc/self/cgroup lists their controllers, a v2 hierarchy is it.
	Cgroup string
	// Proc is /proc, Sys is /sys, Shm a memory-backed filesystem (/dev/shm).
	Proc, Sys, Shm string

	// device returns the device number of the filesystem holding a path.
	device func(path string) (major, minor uint32, err error)
	// memoryBacked reports whether a directory is on tmpfs.
	memoryBacked func(dir string) bool
	// rmdir removes a cgroup (cgroupfs removes a cgroup's files with its directory).
	rmdir func(dir string) error
}

// System is this machine.
func System() Host {
	return Host{Cgroup: "/sys/fs/cgroup", Proc: "/proc", Sys: "/sys", Shm: "/dev/shm",
		device: statDevice, memoryBacked: onTmpfs, rmdir: syscall.Rmdir}
}

// hierarchy is where one controller's cgroups are: the cgroup kbench itself is in, under
// that controller's mount.
type hierarchy struct {
	version int
	dir     string // kbench's own cgroup in this hierarchy (absolute)
}

// controllerNames maps a limit's v1 controller to its v2 name.
var controllerNames = map[string]string{"cpu": "cpu", "cpuset": "cpuset", "blkio": "io"}

// find locates controller (v1 name) for this process: a v1 line "N:cpu,cpuacct:/path" in
// /proc/self/cgroup puts it at <Cgroup>/cpu,cpuacct/path; otherwise the v2 line "0::/path"
// puts it at <Cgroup>/path, if the v2 hierarchy offers the controller at all.
func (h Host) find(controller string) (hierarchy, error) {
	b, err := os.ReadFile(filepath.Join(h.Proc, "self", "cgroup"))
	if err != nil {
		return hierarchy{}, fmt.Errorf("unable to read the process's cgroups: %w", err)
	}
	version, mount, p, ok := cgroups.Find(b, controller)
	if ok && version == 1 {
		return hierarchy{version: 1, dir: filepath.Join(h.Cgroup, mount, p)}, nil
	}
	if ok {
		avail, err := os.ReadFile(filepath.Join(h.Cgroup, "cgroup.controllers"))
		if err == nil && slices.Contains(strings.Fields(string(avail)), controllerNames[controller]) {
			return hierarchy{version: 2, dir: filepath.Join(h.Cgroup, p)}, nil
		}
	}
	return hierarchy{}, fmt.Errorf("the %s cgroup controller is not available on this host (neither a cgroup v1 hierarchy nor cgroup v2's cgroup.controllers at %s lists it)", controller, h.Cgroup)
}

// Remove removes the cgroups in dirs (a Group's Dirs), once their processes have exited.
// An exited process stays in its cgroup until its parent reaps it, and a detached broker's
// parent is init, which may take its time (seconds, measured, in some containers): hence
// up to 30 s of retries. Only
// directories named kbench-* are touched, and ones already gone are fine.
func (h Host) Remove(dirs []string) error {
	var errs []error
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		if !strings.HasPrefix(filepath.Base(d), namePrefix) {
			errs = append(errs, fmt.Errorf("not removing cgroup %s: kbench names its cgroups %s*", d, namePrefix))
			continue
		}
		var err error
		for try := 0; try < 300; try++ {
			if err = h.rmdir(d); err == nil || errors.Is(err, os.ErrNotExist) {
				err = nil
				break
			}
			if !errors.Is(err, syscall.EBUSY) {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil {
			if errors.Is(err, syscall.EBUSY) {
				err = fmt.Errorf("%w: a process is still in it (an exited broker its parent has not reaped yet?); run kbench cluster down again later", err)
			}
			errs = append(errs, fmt.Errorf("remove cgroup %s: %w", d, err))
		}
	}
	return errors.Join(errs...)
}

// namePrefix starts the name of every cgroup and memory-backed directory kbench creates.
const namePrefix = "kbench-"

// onTmpfs reports whether dir is on tmpfs (statfs(2) TMPFS_MAGIC).
func onTmpfs(dir string) bool {
	var st syscall.Statfs_t
	return syscall.Statfs(dir, &st) == nil && st.Type == 0x01021994
}

// statDevice returns the device number (major:minor) of the filesystem holding path.
func statDevice(path string) (uint32, uint32, error) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return 0, 0, err
	}
	dev := uint64(st.Dev)
	// The kernel's new_encode_dev layout, as glibc's gnu_dev_major/minor decode it.
	major := uint32((dev>>8)&0xfff | (dev>>32)&^uint64(0xfff))
	minor := uint32(dev&0xff | (dev>>12)&^uint64(0xff))
	return major, minor, nil
}

// ThrottlesBufferedWrites reports whether a disk write limit applies to buffered writes,
// the kind Kafka makes (it leaves flushing to the kernel unless told otherwise). Only
// cgroup v2 charges page-cache writeback to the cgroup that dirtied the pages; on v1 the
// kernel's flusher threads write it back outside any broker cgroup, so a v1 write limit
// slows only synchronous writes (measured here: 50 MiB/s written by a broker under a
// 5 MiB/s limit; 3.7 MiB/s at most once every batch was fsynced).
func (h Host) ThrottlesBufferedWrites() (bool, error) {
	hy, err := h.find("blkio")
	if err != nil {
		return false, err
	}
	return hy.version == 2, nil
}

// WritesLimited reports whether d limits writes.
func (d Disk) WritesLimited() bool { return d.WriteBPS > 0 || d.WriteIOPS > 0 }
