package metrics

import (
	"fmt"
	"strings"
	"time"
)

// jitThreads are the name prefixes of HotSpot's JIT compiler threads as /proc shows them
// (comm is cut at 15 bytes: "C2 CompilerThread0" reads "C2 CompilerThre").
var jitThreads = []string{"C1 CompilerThre", "C2 CompilerThre"}

// JITCPU returns the CPU time the JIT compiler threads of the Java process pid have used,
// from /proc/<pid>/task (proc is the mount, "/proc"). Their CPU says whether a broker is
// still compiling its hot paths, which its throughput cannot say when a CPU quota holds it
// at a plateau: three brokers at 0.3 core were still compiling for 4-12% of the wall time
// 26 minutes after they started. A compiler thread that exits (HotSpot stops idle ones)
// takes its time with it, so a difference between two readings can fall below zero: the
// caller counts that as none. A thread that ends between the listing and its read is
// skipped.
func JITCPU(proc string, pid int) (time.Duration, error) {
	fs, err := openProc(proc)
	if err != nil {
		return 0, err
	}
	threads, err := fs.AllThreads(pid)
	if err != nil {
		return 0, fmt.Errorf("unable to list the threads of process %d: %w", pid, err)
	}
	var ticks uint64
	for _, t := range threads {
		comm, err := t.Comm()
		if err != nil || !isJITThread(comm) {
			continue
		}
		st, err := t.Stat()
		if err != nil {
			continue
		}
		ticks += uint64(st.UTime) + uint64(st.STime)
	}
	return ticksDuration(ticks), nil
}

func isJITThread(comm string) bool {
	for _, p := range jitThreads {
		if strings.HasPrefix(comm, p) {
			return true
		}
	}
	return false
}
