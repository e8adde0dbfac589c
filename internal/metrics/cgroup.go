// CPU limits and usage of a process's cgroup (cgroups(7)). procfs does not read the cgroup
// file system, and /proc/<pid>/cgroup is parsed by internal/cgroups, which flavor shares.

package metrics

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kbench/kbench/internal/cgroups"
)

// CgroupCPU is the CPU quota that applies to a process: the tightest quota on its cgroup's
// path, which the kernel enforces on the cgroup and every cgroup below it.
type CgroupCPU struct {
	// Version is the cgroup version the process's CPU controller is in (1 or 2).
	Version int
	// Path is the process's own cgroup, relative to the hierarchy's root ("/" for the root).
	Path string
	// QuotaPath is the cgroup whose quota applies ("" when none does), Quota that quota in
	// cores (quota/period; 0 when unlimited).
	QuotaPath string
	Quota     float64
}

// ReadCgroupCPU reads the CPU quota of process pid ("self" for this one) from proc, the proc
// file system's mount point, and cgroup, rooted at the cgroup mount (/sys/fs/cgroup): cgroup v2's cpu.max
// ("max 100000" or "200000 100000"), or cgroup v1's cpu.cfs_quota_us and cpu.cfs_period_us
// (-1: unlimited) under the cpu controller's directory. Every cgroup from the process's up
// to the root is read, since a parent's quota limits its children; files that do not exist
// mean no quota there.
func ReadCgroupCPU(proc string, cgroup fs.FS, pid string) (CgroupCPU, error) {
	b, err := os.ReadFile(filepath.Join(proc, pid, "cgroup"))
	if err != nil {
		return CgroupCPU{}, fmt.Errorf("unable to read /proc/%s/cgroup: %w", pid, err)
	}
	c, dir, err := parseProcCgroup(b)
	if err != nil {
		return CgroupCPU{}, fmt.Errorf("/proc/%s/cgroup: %w", pid, err)
	}
	for p := c.Path; ; p = path.Dir(p) {
		name := path.Join(dir, strings.TrimPrefix(p, "/"))
		if !fs.ValidPath(name) {
			// Outside this cgroup namespace ("/../.."): its files are not visible here.
			break
		}
		quota, ok, err := readQuota(cgroup, c.Version, name)
		if err != nil {
			return CgroupCPU{}, err
		}
		if ok && (c.Quota == 0 || quota < c.Quota) {
			c.Quota, c.QuotaPath = quota, p
		}
		if p == "/" || p == "." {
			break
		}
	}
	return c, nil
}

// parseProcCgroup finds the CPU controller's cgroup in /proc/<pid>/cgroup (see
// cgroups.Find); the directory returned is the one under the cgroup mount.
func parseProcCgroup(b []byte) (CgroupCPU, string, error) {
	version, mount, p, ok := cgroups.Find(b, "cpu")
	if !ok {
		return CgroupCPU{}, "", errors.New("no cpu controller listed")
	}
	return CgroupCPU{Version: version, Path: p}, mount, nil
}

// readQuota reads one cgroup's CPU quota in cores; ok is false when it has none.
func readQuota(cgroup fs.FS, version int, dir string) (cores float64, ok bool, err error) {
	if version == 2 {
		b, err := fs.ReadFile(cgroup, path.Join(dir, "cpu.max"))
		if errors.Is(err, fs.ErrNotExist) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, fmt.Errorf("unable to read %s/cpu.max: %w", dir, err)
		}
		f := strings.Fields(string(b))
		if len(f) == 0 || f[0] == "max" {
			return 0, false, nil
		}
		period := 100000.0 // the kernel's default when cpu.max gives the quota alone
		if len(f) > 1 {
			if period, err = strconv.ParseFloat(f[1], 64); err != nil || period <= 0 {
				return 0, false, fmt.Errorf("%s/cpu.max: bad period %q", dir, f[1])
			}
		}
		quota, err := strconv.ParseFloat(f[0], 64)
		if err != nil || quota <= 0 {
			return 0, false, fmt.Errorf("%s/cpu.max: bad quota %q", dir, f[0])
		}
		return quota / period, true, nil
	}
	quota, err := readNumber(cgroup, path.Join(dir, "cpu.cfs_quota_us"))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	if quota <= 0 {
		return 0, false, nil // -1: unlimited
	}
	period, err := readNumber(cgroup, path.Join(dir, "cpu.cfs_period_us"))
	if err != nil {
		return 0, false, err
	}
	if period <= 0 {
		return 0, false, fmt.Errorf("%s/cpu.cfs_period_us: period %g is not positive", dir, period)
	}
	return quota / period, true, nil
}

func readNumber(fsys fs.FS, name string) (float64, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return 0, fmt.Errorf("unable to read %s: %w", name, err)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

// ReadCgroupUsage returns the CPU seconds used so far by the cgroup at p (a QuotaPath),
// all its processes and descendants: cgroup v2's cpu.stat usage_usec, or cgroup v1's
// cpuacct.usage (nanoseconds) in the cpuacct controller's directory, found in
// /proc/self/cgroup.
func ReadCgroupUsage(proc string, cgroup fs.FS, version int, p string) (float64, error) {
	rel := strings.TrimPrefix(p, "/")
	if version == 2 {
		b, err := fs.ReadFile(cgroup, path.Join(rel, "cpu.stat"))
		if err != nil {
			return 0, fmt.Errorf("unable to read cgroup cpu.stat: %w", err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "usage_usec "); ok {
				us, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil {
					return 0, fmt.Errorf("cgroup cpu.stat usage_usec: %w", err)
				}
				return us / 1e6, nil
			}
		}
		return 0, errors.New("cgroup cpu.stat has no usage_usec")
	}
	dir := "cpuacct"
	if b, err := os.ReadFile(filepath.Join(proc, "self", "cgroup")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.SplitN(line, ":", 3); len(f) == 3 && strings.Contains(","+f[1]+",", ",cpuacct,") {
				dir = f[1]
			}
		}
	}
	ns, err := readNumber(cgroup, path.Join(dir, rel, "cpuacct.usage"))
	if err != nil {
		return 0, err
	}
	return ns / 1e9, nil
}
