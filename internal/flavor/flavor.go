// Package flavor gives embedded brokers the resources of a machine size: a CPU quota and
// optional CPU pinning, and a disk class (throttled reads and writes on the device under
// the log dirs, or memory-backed log dirs), through the cgroup interface the host has
// (cgroups(7): v1 cpu, cpuset and blkio controllers, or v2 cpu.max, cpuset.cpus, io.max).
//
// Each broker gets its own cgroup, created before it starts and removed after it stops.
// Where a limit cannot be set (not root, a read-only cgroup mount, a controller missing, a
// log dir with no block device to throttle) the error says so and the cluster does not
// start: a broker that silently ran unlimited would report the wrong machine's figures.
package flavor

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits are one broker's resources; the zero value limits nothing.
type Limits struct {
	// CPUs is the CPU quota in cores per broker (0.5 = half a core); 0 means no quota.
	CPUs float64 `json:"cpus,omitempty"`
	// Cpuset pins the broker to these CPUs ("0", "0-1", "0,2"); "" means no pinning.
	Cpuset string `json:"cpuset,omitempty"`
	// Disk is the broker's disk class.
	Disk Disk `json:"disk,omitzero"`
}

// Disk is a disk class: throttles on the device backing the log dirs, or a memory-backed
// log dir (Tmpfs). Zero fields do not limit.
type Disk struct {
	// Tmpfs puts the log dirs on a memory-backed filesystem (/dev/shm) instead of a disk.
	Tmpfs bool `json:"tmpfs,omitempty"`
	// WriteBPS and ReadBPS are bytes per second, WriteIOPS and ReadIOPS operations per
	// second, each the broker's own limit on the device.
	WriteBPS  uint64 `json:"write_bps,omitempty"`
	WriteIOPS uint64 `json:"write_iops,omitempty"`
	ReadBPS   uint64 `json:"read_bps,omitempty"`
	ReadIOPS  uint64 `json:"read_iops,omitempty"`
}

// Mi is a mebibyte in bytes; disk classes speak in MiB/s.
const Mi = 1 << 20

// Throttled reports whether d limits the device at all.
func (d Disk) Throttled() bool {
	return d.WriteBPS > 0 || d.WriteIOPS > 0 || d.ReadBPS > 0 || d.ReadIOPS > 0
}

// Any reports whether l limits anything, i.e. whether brokers need cgroups of their own.
func (l Limits) Any() bool { return l.CPUs > 0 || l.Cpuset != "" || l.Disk.Throttled() }

// MinCPUs is the smallest quota: the kernel refuses CFS quotas under 1 ms per 100 ms period.
const MinCPUs = 0.01

// The CFS period in microseconds. The kernel refills the quota each period, so a window
// that starts just before a refill can hold one period's quota more: with the kernel's
// default 100 ms period a 1 s sample of a 0.25-core broker can show 0.275 cores (measured:
// 0.267). A 10 ms period bounds that to 1% and spreads a broker's stalls finer; the quota
// stays at least the kernel's 1 ms minimum by lengthening the period for small quotas.
const (
	shortPeriod = 10000
	minQuota    = 1000
)

// cfs returns the CFS quota and period for cores: 0.25 cores is 2,500 µs of every
// 10,000 µs; 0.05 cores is 1,000 µs of every 20,000 µs.
func cfs(cores float64) (quota, period int64) {
	period = shortPeriod
	if cores*shortPeriod < minQuota {
		period = int64(minQuota/cores + 0.5)
	}
	return int64(cores*float64(period) + 0.5), period
}

// Validate checks l's values, naming the field (field is the prefix, e.g. "cluster").
func (l Limits) Validate(field string) error {
	if l.CPUs != 0 && l.CPUs < MinCPUs {
		return fmt.Errorf("%s.broker_cpus: %g is below the smallest CPU quota, %g cores", field, l.CPUs, MinCPUs)
	}
	if l.Cpuset != "" {
		if _, err := ParseCPUList(l.Cpuset); err != nil {
			return fmt.Errorf("%s.cpuset: %w", field, err)
		}
	}
	if l.Disk.Tmpfs && l.Disk.Throttled() {
		return fmt.Errorf("%s.disk: tmpfs takes no throttles (a memory-backed log dir has no device to throttle)", field)
	}
	return nil
}

// ParseCPUList parses a cpuset list ("0-1,3") into its CPU numbers.
func ParseCPUList(s string) ([]int, error) {
	var cpus []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || a < 0 || b < a {
			return nil, fmt.Errorf("%q is not a CPU list such as 0, 0-1 or 0,2", s)
		}
		for c := a; c <= b; c++ {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// String describes l for a status line or a report, e.g. "0.5 cores, disk writes 50 MiB/s".
func (l Limits) String() string {
	var parts []string
	if l.CPUs > 0 {
		unit := "cores"
		if l.CPUs == 1 {
			unit = "core"
		}
		parts = append(parts, fmt.Sprintf("%g %s (CFS quota)", l.CPUs, unit))
	}
	if l.Cpuset != "" {
		parts = append(parts, "pinned to CPUs "+l.Cpuset)
	}
	if d := l.Disk.String(); d != "" {
		parts = append(parts, "disk "+d)
	}
	if len(parts) == 0 {
		return "unlimited"
	}
	return strings.Join(parts, ", ")
}

// String describes a disk class, e.g. "writes 50 MiB/s 2000 IOPS"; "" when it is the
// plain disk.
func (d Disk) String() string {
	if d.Tmpfs {
		return "tmpfs (memory-backed log dirs)"
	}
	var parts []string
	add := func(what string, bps, iops uint64) {
		var s []string
		if bps > 0 {
			s = append(s, fmt.Sprintf("%g MiB/s", float64(bps)/Mi))
		}
		if iops > 0 {
			s = append(s, fmt.Sprintf("%d IOPS", iops))
		}
		if len(s) > 0 {
			parts = append(parts, what+" "+strings.Join(s, " "))
		}
	}
	add("writes", d.WriteBPS, d.WriteIOPS)
	add("reads", d.ReadBPS, d.ReadIOPS)
	return strings.Join(parts, ", ")
}

// ParseDisk parses a disk class as the command line gives it: "tmpfs", or comma-separated
// key=value pairs with the study's keys (write_mib_per_sec=50,write_iops=2000,
// read_mib_per_sec=..., read_iops=...).
func ParseDisk(s string) (Disk, error) {
	if s == "tmpfs" {
		return Disk{Tmpfs: true}, nil
	}
	var d Disk
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return Disk{}, fmt.Errorf("%q is not tmpfs or key=value pairs such as write_mib_per_sec=50,write_iops=2000", s)
		}
		if err := d.Set(k, v); err != nil {
			return Disk{}, err
		}
	}
	return d, nil
}

// DiskKeys are a disk class's keys, in a study and on the command line.
var DiskKeys = []string{"write_mib_per_sec", "write_iops", "read_mib_per_sec", "read_iops"}

// Set sets the field named by key (one of DiskKeys) from a positive number.
func (d *Disk) Set(key, value string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
	if err != nil || f <= 0 {
		return fmt.Errorf("%s: %q is not a positive number", key, value)
	}
	switch key {
	case "write_mib_per_sec":
		d.WriteBPS = uint64(f * Mi)
	case "read_mib_per_sec":
		d.ReadBPS = uint64(f * Mi)
	case "write_iops", "read_iops":
		if f != float64(uint64(f)) {
			return fmt.Errorf("%s: %q is not a whole number of operations", key, value)
		}
		if key == "write_iops" {
			d.WriteIOPS = uint64(f)
		} else {
			d.ReadIOPS = uint64(f)
		}
	default:
		return fmt.Errorf("%q is not a disk key (valid: %s, or the whole value tmpfs)", key, strings.Join(DiskKeys, ", "))
	}
	return nil
}
