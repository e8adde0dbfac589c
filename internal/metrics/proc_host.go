// Host-wide readings from /proc through github.com/prometheus/procfs: CPU, disks, network,
// memory and load.

package metrics

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/prometheus/procfs"
)

// cpuTimes is the aggregate "cpu" line of /proc/stat (proc(5)), in clock ticks.
type cpuTimes struct {
	// Total is user+nice+system+idle+iowait+irq+softirq+steal. guest and guest_nice are left
	// out because the kernel already counts them in user and nice.
	Total uint64
	// Idle and IOWait are the idle and iowait columns; busy time is Total-Idle-IOWait.
	Idle, IOWait uint64
	// Steal is the steal column: time a virtual machine's CPUs were ready to run but the
	// hypervisor ran other machines (counted in Total, and in neither Idle nor busy work).
	Steal uint64
	// CPUs is the number of "cpuN" lines: the online CPUs.
	CPUs int
}

// readCPUTimes reads /proc/stat. procfs gives the columns in seconds (ticks/userHZ); they are
// turned back into whole ticks, so that sums and differences stay exact.
func readCPUTimes(proc procDir) (cpuTimes, error) {
	st, err := proc.Stat()
	if err != nil {
		return cpuTimes{}, err
	}
	c := st.CPUTotal
	if c == (procfs.CPUStat{}) && len(st.CPU) == 0 {
		return cpuTimes{}, fmt.Errorf("no aggregate cpu line")
	}
	ticks := func(seconds float64) uint64 { return uint64(math.Round(seconds * userHZ)) }
	t := cpuTimes{Idle: ticks(c.Idle), IOWait: ticks(c.Iowait), Steal: ticks(c.Steal), CPUs: len(st.CPU)}
	for _, col := range []float64{c.User, c.Nice, c.System, c.Idle, c.Iowait, c.IRQ, c.SoftIRQ, c.Steal} {
		t.Total += ticks(col)
	}
	return t, nil
}

// HostCPU is the host's CPU time so far, from /proc/stat: all of it, the part stolen by the
// hypervisor and the part its CPUs were busy (neither idle, waiting for I/O nor stolen), in
// clock ticks, and how many CPUs it has online.
type HostCPU struct {
	Total, Steal, Busy uint64
	CPUs               int
}

// ReadHostCPUWaited reads how long, since boot, at least one task on the host waited for a
// CPU it was ready to run on (/proc/pressure/cpu, "some": the kernel's pressure stall
// information). On a host whose CPUs the brokers and the load share, it is the contention
// that busy cores alone do not show: two CPUs 1.9 busy can keep a task waiting a quarter of
// the time.
func ReadHostCPUWaited(mount string) (time.Duration, error) {
	return readMounted(mount, "pressure/cpu", readCPUWaited)
}

// readCPUWaited reads the "some" total of pressure/cpu, which the kernel counts in µs.
func readCPUWaited(proc procDir) (time.Duration, error) {
	psi, err := proc.PSIStatsForResource("cpu")
	if err != nil {
		return 0, err
	}
	if psi.Some == nil {
		return 0, errors.New(`no "some" line`)
	}
	return time.Duration(psi.Some.Total) * time.Microsecond, nil
}

// ReadHostCPU reads the aggregate CPU line of the proc file system mounted at mount.
func ReadHostCPU(mount string) (HostCPU, error) {
	return readMounted(mount, "stat", func(proc procDir) (HostCPU, error) {
		c, err := readCPUTimes(proc)
		return c.host(), err
	})
}

// readMounted reads one file of the proc file system mounted at mount with read; its error
// names the file.
func readMounted[T any](mount, file string, read func(procDir) (T, error)) (T, error) {
	var zero T
	proc, err := openProc(mount)
	if err != nil {
		return zero, err
	}
	v, err := read(proc)
	if err != nil {
		return zero, fmt.Errorf("unable to read %s/%s: %w", mount, file, err)
	}
	return v, nil
}

// busy is the time c's CPUs were neither idle, waiting for I/O nor stolen.
func (c cpuTimes) busy() uint64 { return c.Total - c.Idle - c.IOWait - c.Steal }

// host is the part of c that HostCPU exports.
func (c cpuTimes) host() HostCPU {
	return HostCPU{Total: c.Total, Steal: c.Steal, Busy: c.busy(), CPUs: c.CPUs}
}

// StealPctSince is the share of the host's CPU time stolen between prev and h, in percent:
// on a virtual machine, how much of the CPUs other machines had. ok is false when no tick
// passed or the counters went back.
func (h HostCPU) StealPctSince(prev HostCPU) (pct float64, ok bool) {
	if h.Total <= prev.Total || h.Steal < prev.Steal {
		return 0, false
	}
	return float64(h.Steal-prev.Steal) / float64(h.Total-prev.Total) * 100, true
}

// BusySince is how much CPU time the host's CPUs spent busy between prev and h, all
// processes together. ok is false when no tick passed or the counters went back.
func (h HostCPU) BusySince(prev HostCPU) (busy time.Duration, ok bool) {
	if h.Total <= prev.Total || h.Busy < prev.Busy {
		return 0, false
	}
	return ticksDuration(h.Busy - prev.Busy), true
}

// diskTotals sums /proc/diskstats over whole disks.
type diskTotals struct {
	// ReadBytes and WriteBytes are sectors read and written times 512 (the kernel's
	// diskstats sector is always 512 bytes, whatever the device's own sector size).
	ReadBytes, WriteBytes uint64
	// IOTicks holds each disk's io_ticks: milliseconds the device had I/O in flight.
	IOTicks map[string]uint64
	// Writes are the writes completed and WriteMs the milliseconds they took, queue
	// included, summed over each write (iostat's w_await is their ratio).
	Writes, WriteMs uint64
}

// readDiskStats reads /proc/diskstats (Documentation/admin-guide/iostats.rst): sectors read,
// sectors written and io_ticks of each device. Partitions and virtual devices are skipped so
// no byte is counted twice (see wholeDisks).
func readDiskStats(proc procDir) (diskTotals, error) {
	devs, err := proc.block.ProcDiskstats()
	if err != nil {
		return diskTotals{}, err
	}
	names := make([]string, len(devs))
	for i, d := range devs {
		names[i] = d.DeviceName
	}
	whole := wholeDisks(names)
	t := diskTotals{IOTicks: map[string]uint64{}}
	for _, d := range devs {
		if !whole[d.DeviceName] {
			continue
		}
		t.ReadBytes += d.ReadSectors * 512
		t.WriteBytes += d.WriteSectors * 512
		t.IOTicks[d.DeviceName] = d.IOsTotalTicks
		t.Writes += d.WriteIOs
		t.WriteMs += d.WriteTicks
	}
	return t, nil
}

// HostDisk is what the host's whole disks have written so far, from /proc/diskstats.
type HostDisk struct {
	Writes, WriteMs, WriteBytes uint64
}

// ReadHostDisk reads the disk counters of the proc file system mounted at mount.
func ReadHostDisk(mount string) (HostDisk, error) {
	return readMounted(mount, "diskstats", func(proc procDir) (HostDisk, error) {
		t, err := readDiskStats(proc)
		return HostDisk{Writes: t.Writes, WriteMs: t.WriteMs, WriteBytes: t.WriteBytes}, err
	})
}

// WriteWaitSince is the mean time a write completed between prev and d took, queue
// included, in milliseconds (iostat's w_await over that span), and the bytes written. ok is
// false when no write completed or the counters went back.
func (d HostDisk) WriteWaitSince(prev HostDisk) (ms float64, bytes uint64, ok bool) {
	if d.Writes <= prev.Writes || d.WriteMs < prev.WriteMs || d.WriteBytes < prev.WriteBytes {
		return 0, 0, false
	}
	return float64(d.WriteMs-prev.WriteMs) / float64(d.Writes-prev.Writes), d.WriteBytes - prev.WriteBytes, true
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

// readNetDev reads /proc/net/dev. procfs indexes a line's sixteen columns without checking
// that they are there, so a short line (never written by the kernel) would panic: it becomes
// an error instead.
func readNetDev(proc procDir) (t netTotals, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = netTotals{}, fmt.Errorf("malformed line: %v", r)
		}
	}()
	dev, err := proc.NetDev()
	if err != nil {
		return netTotals{}, err
	}
	for name, line := range dev {
		if name == "lo" {
			t.LoopbackBytes += line.RxBytes
			continue
		}
		t.RxBytes += line.RxBytes
		t.TxBytes += line.TxBytes
	}
	return t, nil
}

// memInfo is what the sampler uses from /proc/meminfo, in bytes.
type memInfo struct {
	// Cached is the page cache (Cached), Dirty the part of it waiting to be written back, and
	// Available the kernel's estimate of memory available without swapping (MemAvailable).
	Cached, Dirty, Available uint64
}

// readMemInfo reads /proc/meminfo. Cached is required; Dirty and MemAvailable are read when
// present.
func readMemInfo(proc procDir) (memInfo, error) {
	mi, err := proc.Meminfo()
	if err != nil {
		return memInfo{}, err
	}
	if mi.CachedBytes == nil {
		return memInfo{}, fmt.Errorf("no Cached line")
	}
	m := memInfo{Cached: *mi.CachedBytes}
	if mi.DirtyBytes != nil {
		m.Dirty = *mi.DirtyBytes
	}
	if mi.MemAvailableBytes != nil {
		m.Available = *mi.MemAvailableBytes
	}
	return m, nil
}

// ReadHostDirty reads the page cache waiting to be written back (meminfo's Dirty) of the proc
// file system mounted at mount, in bytes.
func ReadHostDirty(mount string) (uint64, error) {
	return readMounted(mount, "meminfo", func(proc procDir) (uint64, error) {
		m, err := readMemInfo(proc)
		return m.Dirty, err
	})
}

// readLoadAvg reads the 1, 5 and 15 minute load averages of /proc/loadavg.
func readLoadAvg(proc procDir) ([3]float64, error) {
	l, err := proc.LoadAvg()
	if err != nil {
		return [3]float64{}, err
	}
	return [3]float64{l.Load1, l.Load5, l.Load15}, nil
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

// readHost reads the host files. It returns every part it could read, and the joined errors
// of the others.
func readHost(proc procDir) (hostReading, error) {
	h := hostReading{have: map[string]bool{}}
	var errs []error
	for _, f := range []struct {
		name string
		read func() error
	}{
		{"stat", func() (err error) { h.cpu, err = readCPUTimes(proc); return }},
		{"diskstats", func() (err error) { h.disk, err = readDiskStats(proc); return }},
		{"net/dev", func() (err error) { h.net, err = readNetDev(proc); return }},
		{"meminfo", func() (err error) { h.mem, err = readMemInfo(proc); return }},
		{"loadavg", func() (err error) { h.load, err = readLoadAvg(proc); return }},
	} {
		if err := f.read(); err != nil {
			errs = append(errs, fmt.Errorf("unable to read /proc/%s: %w", f.name, err))
			continue
		}
		h.have[f.name] = true
	}
	return h, errors.Join(errs...)
}
