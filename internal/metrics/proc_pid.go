// Per-process readings from /proc/<pid> through github.com/prometheus/procfs: CPU time, RSS,
// threads and disk bytes.

package metrics

import (
	"fmt"
	"time"

	"github.com/prometheus/procfs"
	"github.com/prometheus/procfs/blockdevice"
)

// userHZ is the unit of the utime and stime fields of /proc/<pid>/stat: clock ticks of
// sysconf(_SC_CLK_TCK), which the Linux kernel fixes at 100 (USER_HZ) for user space on every
// architecture Go supports, whatever the kernel's internal HZ.
const userHZ = 100

// ticksDuration is a count of clock ticks (1/userHZ s) as a duration.
func ticksDuration(ticks uint64) time.Duration {
	return time.Duration(float64(ticks) / userHZ * float64(time.Second))
}

// procStat is what the sampler uses from /proc/<pid>/stat (proc(5)).
type procStat struct {
	// CPUTicks is utime+stime: user and system time of all the process's threads, in
	// clock ticks (1/userHZ s).
	CPUTicks uint64
	// Threads is num_threads.
	Threads int64
	// RSSPages is rss: resident pages.
	RSSPages int64
}

// procIO is what the sampler uses from /proc/<pid>/io (proc(5)): bytes the process caused to
// be read from and written to storage (not page-cache hits, unlike rchar and wchar).
type procIO struct {
	ReadBytes, WriteBytes uint64
}

// procDir reads the proc file system mounted at one directory ("/proc", or a directory of
// fixtures in tests).
type procDir struct {
	procfs.FS
	// block reads diskstats; procfs keeps it in its blockdevice package.
	block blockdevice.FS
}

// openProc returns the readers of the proc file system mounted at mount.
func openProc(mount string) (procDir, error) {
	fs, err := procfs.NewFS(mount)
	if err != nil {
		return procDir{}, fmt.Errorf("unable to open %s: %w", mount, err)
	}
	// blockdevice also wants a sysfs mount; only its proc side is read, so it is given the
	// same directory rather than depend on /sys.
	block, err := blockdevice.NewFS(mount, mount)
	if err != nil {
		return procDir{}, fmt.Errorf("unable to open %s: %w", mount, err)
	}
	return procDir{FS: fs, block: block}, nil
}

// readProcStat reads /proc/<pid>/stat. procfs splits the line after the last ')', since comm
// may itself hold spaces and parentheses.
func readProcStat(proc procDir, pid int) (procStat, error) {
	p, err := proc.Proc(pid)
	if err != nil {
		return procStat{}, fmt.Errorf("unable to read /proc/%d/stat: %w", pid, err)
	}
	st, err := p.Stat()
	if err != nil {
		return procStat{}, fmt.Errorf("unable to read /proc/%d/stat: %w", pid, err)
	}
	return procStat{CPUTicks: uint64(st.UTime) + uint64(st.STime), Threads: int64(st.NumThreads), RSSPages: int64(st.RSS)}, nil
}

// readProcIO reads /proc/<pid>/io.
func readProcIO(proc procDir, pid int) (procIO, error) {
	p, err := proc.Proc(pid)
	if err != nil {
		return procIO{}, fmt.Errorf("unable to read /proc/%d/io: %w", pid, err)
	}
	io, err := p.IO()
	if err != nil {
		return procIO{}, fmt.Errorf("unable to read /proc/%d/io: %w", pid, err)
	}
	return procIO{ReadBytes: io.ReadBytes, WriteBytes: io.WriteBytes}, nil
}
