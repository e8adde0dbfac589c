package metrics

import (
	"fmt"
	"os"
	"testing"
	"testing/fstest"
	"time"
)

// taskStat is a /proc/<pid>/task/<tid>/stat line with utime and stime in ticks.
func taskStat(tid int, comm string, utime, stime int) *fstest.MapFile {
	return &fstest.MapFile{Data: fmt.Appendf(nil, "%d (%s) S 1 4242 4242 0 -1 4194560 100 0 0 0 %d %d 0 0 20 0 87 0 61905 3133440 150000 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n", tid, comm, utime, stime)}
}

// A broker's JIT CPU is its C1 and C2 compiler threads' user and system ticks, and no
// other thread's: here 120+30 and 400+50 of C2, 75+5 of C1: 680 ticks, 6.8 s at 100 Hz.
func TestJITCPU(t *testing.T) {
	files := fstest.MapFS{
		"4242/stat":             {Data: readFixture(t, "pid_stat")},
		"4242/task/4242/comm":   {Data: []byte("java\n")},
		"4242/task/4242/stat":   taskStat(4242, "java", 900, 100),
		"4242/task/4250/comm":   {Data: []byte("C2 CompilerThre\n")},
		"4242/task/4250/stat":   taskStat(4250, "C2 CompilerThre", 120, 30),
		"4242/task/4251/comm":   {Data: []byte("C2 CompilerThre\n")},
		"4242/task/4251/stat":   taskStat(4251, "C2 CompilerThre", 400, 50),
		"4242/task/4252/comm":   {Data: []byte("C1 CompilerThre\n")},
		"4242/task/4252/stat":   taskStat(4252, "C1 CompilerThre", 75, 5),
		"4242/task/4260/comm":   {Data: []byte("data-plane-kafka-request-handler-0\n")},
		"4242/task/4260/stat":   taskStat(4260, "data-plane-kafk", 5000, 700),
		"4242/task/4261/comm":   {Data: []byte("G1 Conc#0\n")},
		"4242/task/4261/stat":   taskStat(4261, "G1 Conc#0", 300, 0),
		"4242/task/4262/comm":   {Data: []byte("C2 CompilerThre\n")},
		"4242/task/4262/stat":   {Data: []byte("truncated")}, // ended while read: skipped
		"4242/task/4263/comm":   {Data: []byte("Common-Cleaner\n")},
		"4242/task/4263/status": {Data: []byte("Name: Common-Cleaner\n")},
	}
	got, err := JITCPU(procDirOf(t, files), 4242)
	if err != nil {
		t.Fatal(err)
	}
	if want := 6800 * time.Millisecond; got != want {
		t.Errorf("JIT CPU %s, want %s", got, want)
	}
	if _, err := JITCPU(procDirOf(t, fstest.MapFS{"4242/stat": {Data: readFixture(t, "pid_stat")}}), 7); err == nil {
		t.Error("no error for a process that is not there")
	}
}

// This process is Go, not Java: it has threads and none of them compiles.
func TestJITCPUOfThisProcess(t *testing.T) {
	got, err := JITCPU("/proc", os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if got != 0 {
		t.Errorf("JIT CPU of a Go process: %s, want 0", got)
	}
}
