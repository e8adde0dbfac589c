// Host-wide readings from /proc: CPU, disks, network, memory and load.

package metrics

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// cpuTimes is the aggregate "cpu" line of /proc/stat (proc(5)), in clock ticks.
type cpuTimes struct {
	// Total is user+nice+system+idle+iowait+irq+softirq+steal. guest and guest_nice are left
	// out because the kernel already counts them in user and nice.
	Total uint64
	// Idle and IOWait are the idle and iowait columns; busy time is Total-Idle-IOWait.
	Idle, IOWait uint64
	// CPUs is the number of "cpuN" lines: the online CPUs.
	CPUs int
}

// parseCPUTimes parses /proc/stat.
func parseCPUTimes(b []byte) (cpuTimes, error) {
	var t cpuTimes
	found := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || !strings.HasPrefix(f[0], "cpu") {
			continue
		}
		if f[0] != "cpu" {
			t.CPUs++
			continue
		}
		if len(f) < 9 {
			return cpuTimes{}, fmt.Errorf("cpu line has %d columns, want at least 8", len(f)-1)
		}
		for i := 1; i <= 8; i++ {
			v, err := strconv.ParseUint(f[i], 10, 64)
			if err != nil {
				return cpuTimes{}, fmt.Errorf("cpu column %d: %w", i, err)
			}
			t.Total += v
			switch i {
			case 4:
				t.Idle = v
			case 5:
				t.IOWait = v
			}
		}
		found = true
	}
	if !found {
		return cpuTimes{}, fmt.Errorf("no aggregate cpu line")
	}
	return t, nil
}

// diskTotals sums /proc/diskstats over whole disks.
type diskTotals struct {
	// ReadBytes and WriteBytes are sectors read and written times 512 (the kernel's
	// diskstats sector is always 512 bytes, whatever the device's own sector size).
	ReadBytes, WriteBytes uint64
	// IOTicks holds each disk's io_ticks: milliseconds the device had I/O in flight.
	IOTicks map[string]uint64
}

// parseDiskStats parses /proc/diskstats (Documentation/admin-guide/iostats.rst): after
// major, minor and name come reads completed, reads merged, sectors read (6th column), time
// reading, writes completed, writes merged, sectors written (10th), time writing, I/Os in
// progress and io_ticks (13th). Partitions and virtual devices are skipped so no byte is
// counted twice (see wholeDisks).
func parseDiskStats(b []byte) (diskTotals, error) {
	type dev struct {
		name              string
		read, write, busy uint64
	}
	var devs []dev
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) < 13 {
			return diskTotals{}, fmt.Errorf("line %d has %d columns, want at least 13", line, len(f))
		}
		var d dev
		d.name = f[2]
		for _, c := range []struct {
			col int
			dst *uint64
		}{{5, &d.read}, {9, &d.write}, {12, &d.busy}} {
			v, err := strconv.ParseUint(f[c.col], 10, 64)
			if err != nil {
				return diskTotals{}, fmt.Errorf("line %d (%s) column %d: %w", line, d.name, c.col+1, err)
			}
			*c.dst = v
		}
		devs = append(devs, d)
	}
	names := make([]string, len(devs))
	for i, d := range devs {
		names[i] = d.name
	}
	whole := wholeDisks(names)
	t := diskTotals{IOTicks: map[string]uint64{}}
	for _, d := range devs {
		if !whole[d.name] {
			continue
		}
		t.ReadBytes += d.read * 512
		t.WriteBytes += d.write * 512
		t.IOTicks[d.name] = d.busy
	}
	return t, nil
}

// virtualDiskPrefixes name block devices that are not disks, or that stack on other devices
// whose bytes are already counted (device mapper, software RAID).
var virtualDiskPrefixes = []string{"loop", "ram", "zram", "dm-", "md", "sr", "fd", "nbd"}

// wholeDisks returns the names that are whole physical disks: not virtual, and not a
// partition, which is recognised by another listed device being its prefix followed by digits,
// optionally after a "p" (sda -> sda1, nvme0n1 -> nvme0n1p1, mmcblk0 -> mmcblk0p1).
func wholeDisks(names []string) map[string]bool {
	listed := map[string]bool{}
	for _, n := range names {
		listed[n] = true
	}
	whole := map[string]bool{}
	for _, n := range names {
		if hasAnyPrefix(n, virtualDiskPrefixes) || isPartition(n, listed) {
			continue
		}
		whole[n] = true
	}
	return whole
}

func isPartition(name string, listed map[string]bool) bool {
	for i := len(name) - 1; i > 0; i-- {
		c := name[i]
		if c < '0' || c > '9' {
			break
		}
		parent := name[:i]
		if listed[parent] || (strings.HasSuffix(parent, "p") && listed[strings.TrimSuffix(parent, "p")]) {
			return true
		}
	}
	return false
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// netTotals sums /proc/net/dev.
type netTotals struct {
	// RxBytes and TxBytes are over every interface except loopback.
	RxBytes, TxBytes uint64
	// LoopbackBytes is what lo received (on loopback every byte sent is also received),
	// where an embedded cluster's traffic flows.
	LoopbackBytes uint64
}

// parseNetDev parses /proc/net/dev: two header lines, then "iface: " followed by eight
// receive columns (bytes first) and eight transmit columns (bytes first).
func parseNetDev(b []byte) (netTotals, error) {
	var t netTotals
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		iface, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			if line <= 2 {
				continue
			}
			return netTotals{}, fmt.Errorf("line %d has no interface name", line)
		}
		f := strings.Fields(rest)
		if len(f) < 9 {
			return netTotals{}, fmt.Errorf("line %d has %d columns, want at least 9", line, len(f))
		}
		rx, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return netTotals{}, fmt.Errorf("line %d receive bytes: %w", line, err)
		}
		tx, err := strconv.ParseUint(f[8], 10, 64)
		if err != nil {
			return netTotals{}, fmt.Errorf("line %d transmit bytes: %w", line, err)
		}
		if strings.TrimSpace(iface) == "lo" {
			t.LoopbackBytes += rx
			continue
		}
		t.RxBytes += rx
		t.TxBytes += tx
	}
	return t, nil
}

// memInfo is what the sampler uses from /proc/meminfo, in bytes.
type memInfo struct {
	// Cached is the page cache (Cached), Dirty the part of it waiting to be written back, and
	// Available the kernel's estimate of memory available without swapping (MemAvailable).
	Cached, Dirty, Available uint64
}

// parseMemInfo parses /proc/meminfo, "Key:  value kB" lines. Cached is required; Dirty and
// MemAvailable are read when present.
func parseMemInfo(b []byte) (memInfo, error) {
	var m memInfo
	haveCached := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var dst *uint64
		switch key {
		case "Cached":
			dst, haveCached = &m.Cached, true
		case "Dirty":
			dst = &m.Dirty
		case "MemAvailable":
			dst = &m.Available
		default:
			continue
		}
		f := strings.Fields(val)
		if len(f) == 0 {
			return memInfo{}, fmt.Errorf("%s: no value", key)
		}
		v, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return memInfo{}, fmt.Errorf("%s: %w", key, err)
		}
		if len(f) > 1 && f[1] == "kB" {
			v *= 1024
		}
		*dst = v
	}
	if !haveCached {
		return memInfo{}, fmt.Errorf("no Cached line")
	}
	return m, nil
}

// parseLoadAvg parses the first three columns of /proc/loadavg: the 1, 5 and 15 minute load
// averages.
func parseLoadAvg(b []byte) ([3]float64, error) {
	var l [3]float64
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return l, fmt.Errorf("%d columns, want at least 3", len(f))
	}
	for i := range l {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return l, fmt.Errorf("column %d: %w", i+1, err)
		}
		l[i] = v
	}
	return l, nil
}

// hostReading is one read of every host file. A file that could not be read or parsed leaves
// its part unset (have[part] false) so the other parts still count.
type hostReading struct {
	cpu  cpuTimes
	disk diskTotals
	net  netTotals
	mem  memInfo
	load [3]float64
	// cgroupCPU is the CPU seconds used by kbench's cgroup, read by the sampler.
	cgroupCPU float64
	have      map[string]bool
}

// readHost reads the host files from proc, an fs.FS rooted at /proc. It returns every part
// it could read, and the joined errors of the others.
func readHost(proc fs.FS) (hostReading, error) {
	h := hostReading{have: map[string]bool{}}
	var errs []error
	for _, f := range []struct {
		name  string
		parse func([]byte) error
	}{
		{"stat", func(b []byte) (err error) { h.cpu, err = parseCPUTimes(b); return }},
		{"diskstats", func(b []byte) (err error) { h.disk, err = parseDiskStats(b); return }},
		{"net/dev", func(b []byte) (err error) { h.net, err = parseNetDev(b); return }},
		{"meminfo", func(b []byte) (err error) { h.mem, err = parseMemInfo(b); return }},
		{"loadavg", func(b []byte) (err error) { h.load, err = parseLoadAvg(b); return }},
	} {
		b, err := fs.ReadFile(proc, f.name)
		if err != nil {
			errs = append(errs, fmt.Errorf("unable to read /proc/%s: %w", f.name, err))
			continue
		}
		if err := f.parse(b); err != nil {
			errs = append(errs, fmt.Errorf("unable to parse /proc/%s: %w", f.name, err))
			continue
		}
		h.have[f.name] = true
	}
	return h, errors.Join(errs...)
}
