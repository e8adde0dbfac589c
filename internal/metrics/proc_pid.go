// Per-process readings from /proc/<pid>: CPU time, RSS, threads and disk bytes.

package metrics

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// userHZ is the unit of the utime and stime fields of /proc/<pid>/stat: clock ticks of
// sysconf(_SC_CLK_TCK), which the Linux kernel fixes at 100 (USER_HZ) for user space on every
// architecture Go supports, whatever the kernel's internal HZ.
const userHZ = 100

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

// parseProcStat parses one /proc/<pid>/stat line. proc(5) numbers its fields from 1: comm
// (2) is in parentheses and may itself hold spaces and parentheses, so the line is split after
// the last ')'; from there, state is field 3, utime 14, stime 15, num_threads 20 and rss 24.
func parseProcStat(b []byte) (procStat, error) {
	end := bytes.LastIndexByte(b, ')')
	if end < 0 {
		return procStat{}, fmt.Errorf("no ')' closing the command name")
	}
	f := strings.Fields(string(b[end+1:]))
	// f[0] is field 3 (state), so field n is f[n-3].
	const utime, stime, threads, rss = 14 - 3, 15 - 3, 20 - 3, 24 - 3
	if len(f) <= rss {
		return procStat{}, fmt.Errorf("%d fields after the command name, want at least %d", len(f), rss+1)
	}
	var s procStat
	u, err := strconv.ParseUint(f[utime], 10, 64)
	if err != nil {
		return procStat{}, fmt.Errorf("utime: %w", err)
	}
	st, err := strconv.ParseUint(f[stime], 10, 64)
	if err != nil {
		return procStat{}, fmt.Errorf("stime: %w", err)
	}
	s.CPUTicks = u + st
	if s.Threads, err = strconv.ParseInt(f[threads], 10, 64); err != nil {
		return procStat{}, fmt.Errorf("num_threads: %w", err)
	}
	if s.RSSPages, err = strconv.ParseInt(f[rss], 10, 64); err != nil {
		return procStat{}, fmt.Errorf("rss: %w", err)
	}
	return s, nil
}

// procIO is what the sampler uses from /proc/<pid>/io (proc(5)): bytes the process caused to
// be read from and written to storage (not page-cache hits, unlike rchar and wchar).
type procIO struct {
	ReadBytes, WriteBytes uint64
}

// parseProcIO parses /proc/<pid>/io, "key: value" lines. Both read_bytes and write_bytes
// must be present.
func parseProcIO(b []byte) (procIO, error) {
	var io procIO
	var haveRead, haveWrite bool
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var dst *uint64
		switch key {
		case "read_bytes":
			dst, haveRead = &io.ReadBytes, true
		case "write_bytes":
			dst, haveWrite = &io.WriteBytes, true
		default:
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return procIO{}, fmt.Errorf("%s: %w", key, err)
		}
		*dst = v
	}
	if !haveRead || !haveWrite {
		return procIO{}, fmt.Errorf("read_bytes or write_bytes missing")
	}
	return io, nil
}

// readProcStat reads and parses <pid>/stat from proc, an fs.FS rooted at /proc.
func readProcStat(proc fs.FS, pid int) (procStat, error) {
	name := strconv.Itoa(pid) + "/stat"
	b, err := fs.ReadFile(proc, name)
	if err != nil {
		return procStat{}, fmt.Errorf("unable to read /proc/%s: %w", name, err)
	}
	s, err := parseProcStat(b)
	if err != nil {
		return procStat{}, fmt.Errorf("unable to parse /proc/%s: %w", name, err)
	}
	return s, nil
}

// readProcIO reads and parses <pid>/io from proc, an fs.FS rooted at /proc.
func readProcIO(proc fs.FS, pid int) (procIO, error) {
	name := strconv.Itoa(pid) + "/io"
	b, err := fs.ReadFile(proc, name)
	if err != nil {
		return procIO{}, fmt.Errorf("unable to read /proc/%s: %w", name, err)
	}
	s, err := parseProcIO(b)
	if err != nil {
		return procIO{}, fmt.Errorf("unable to parse /proc/%s: %w", name, err)
	}
	return s, nil
}
