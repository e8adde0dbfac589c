package metrics

import (
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// checkRead places a fixture at name in a proc directory, reads it and compares the result,
// or the error, with the expectation. An empty want with no error only requires that a real
// file is read.
func checkRead[T any](t *testing.T, read func(procDir) (T, error), name, file string, want *T, wantErr string) {
	t.Helper()
	got, err := read(procFixture(t, fstest.MapFS{name: {Data: readFixture(t, file)}}))
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("%s: error %v, want one containing %q", file, err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if want != nil && !reflect.DeepEqual(got, *want) {
		t.Errorf("%s: got %+v, want %+v", file, got, *want)
	}
}

func TestReadCPUTimes(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    *cpuTimes
		wantErr string
	}{
		// Total is the first eight columns; guest (70) is already inside user.
		{file: "stat", want: &cpuTimes{Total: 1000 + 10 + 300 + 8000 + 200 + 0 + 40 + 50, Idle: 8000, IOWait: 200, Steal: 50, CPUs: 2}},
		{file: "real/stat"},
		{file: "stat_no_cpu", wantErr: "no aggregate cpu line"},
		// procfs reads the columns there are: a short line (the kernel writes ten) is not refused.
		{file: "stat_short", want: &cpuTimes{Total: 1000 + 10 + 300}},
	} {
		t.Run(tc.file, func(t *testing.T) { checkRead(t, readCPUTimes, "stat", tc.file, tc.want, tc.wantErr) })
	}
}

func TestReadDiskStats(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    *diskTotals
		wantErr string
	}{
		// Only sda and nvme0n1 count: loop0, dm-0 and md0 are virtual, the rest partitions.
		{file: "diskstats", want: &diskTotals{
			ReadBytes:  (2000 + 100) * 512,
			WriteBytes: (4000 + 300) * 512,
			IOTicks:    map[string]uint64{"sda": 1500, "nvme0n1": 250},
			Writes:     200 + 20,
			WriteMs:    20 + 2,
		}},
		{file: "real/diskstats"},
		// procfs skips a line shorter than the kernel's 14 columns.
		{file: "diskstats_short", want: &diskTotals{IOTicks: map[string]uint64{}}},
		{file: "diskstats_bad", wantErr: "match format"},
	} {
		t.Run(tc.file, func(t *testing.T) { checkRead(t, readDiskStats, "diskstats", tc.file, tc.want, tc.wantErr) })
	}
}

func TestWholeDisks(t *testing.T) {
	got := wholeDisks([]string{"sda", "sda1", "sdb10", "nvme0n1", "nvme0n1p2", "mmcblk0", "mmcblk0p1", "vda", "vda1", "xvdf", "loop3", "dm-1", "sr0"})
	want := map[string]bool{"sda": true, "sdb10": true, "nvme0n1": true, "mmcblk0": true, "vda": true, "xvdf": true}
	// sdb10 counts as a disk because sdb itself is not listed.
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestReadNetDev(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    *netTotals
		wantErr string
	}{
		{file: "net_dev", want: &netTotals{RxBytes: 1000 + 300, TxBytes: 2000 + 400, LoopbackBytes: 5000}},
		{file: "real/net_dev"},
		{file: "net_dev_short", wantErr: "malformed line"},
		{file: "net_dev_no_colon", wantErr: "missing colon"},
	} {
		t.Run(tc.file, func(t *testing.T) { checkRead(t, readNetDev, "net/dev", tc.file, tc.want, tc.wantErr) })
	}
}

func TestReadMemInfo(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    *memInfo
		wantErr string
	}{
		{file: "meminfo", want: &memInfo{Cached: 4000000 * 1024, Dirty: 2048 * 1024, Available: 6000000 * 1024}},
		{file: "real/meminfo"},
		{file: "meminfo_no_cached", wantErr: "no Cached line"},
		{file: "meminfo_bad", wantErr: `"lots"`},
	} {
		t.Run(tc.file, func(t *testing.T) { checkRead(t, readMemInfo, "meminfo", tc.file, tc.want, tc.wantErr) })
	}
	// ReadHostDirty reads the same file from a mount: the fixture's Dirty is 2,048 kB.
	dir := t.TempDir()
	writeProc(t, dir, fstest.MapFS{"meminfo": {Data: readFixture(t, "meminfo")}})
	if got, err := ReadHostDirty(dir); err != nil || got != 2048*1024 {
		t.Errorf("ReadHostDirty: %d, %v, want 2048 kB", got, err)
	}
	if _, err := ReadHostDirty(filepath.Join(dir, "missing")); err == nil {
		t.Error("ReadHostDirty of a missing directory: no error")
	}
}

func TestReadLoadAvg(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    *[3]float64
		wantErr string
	}{
		{file: "loadavg", want: &[3]float64{0.5, 1.25, 2}},
		{file: "real/loadavg"},
		{file: "loadavg_short", wantErr: "Malformed line"},
	} {
		t.Run(tc.file, func(t *testing.T) { checkRead(t, readLoadAvg, "loadavg", tc.file, tc.want, tc.wantErr) })
	}
}

// A host file that is missing or malformed costs only its own fields.
func TestReadHostPartial(t *testing.T) {
	proc := procFixture(t, fstest.MapFS{
		"stat":      {Data: readFixture(t, "stat")},
		"diskstats": {Data: readFixture(t, "diskstats_bad")},
		"meminfo":   {Data: readFixture(t, "meminfo")},
		"loadavg":   {Data: readFixture(t, "loadavg")},
	})
	h, err := readHost(proc)
	if err == nil || !strings.Contains(err.Error(), "/proc/diskstats") || !strings.Contains(err.Error(), "/proc/net/dev") {
		t.Errorf("error %v, want one naming /proc/diskstats and /proc/net/dev", err)
	}
	want := map[string]bool{"stat": true, "meminfo": true, "loadavg": true}
	if !reflect.DeepEqual(h.have, want) {
		t.Errorf("parts read %v, want %v", h.have, want)
	}
}

// This machine's own /proc gives every part: the kernel's files are what procfs is built for.
func TestReadHostOfThisMachine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs Linux /proc")
	}
	proc, err := openProc("/proc")
	if err != nil {
		t.Fatal(err)
	}
	h, err := readHost(proc)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.have) != 5 || h.cpu.CPUs < 1 || h.cpu.Total == 0 || h.mem.Cached == 0 {
		t.Errorf("parts %v, cpu %+v, memory %+v: want all five parts, a CPU and some page cache", h.have, h.cpu, h.mem)
	}
}

func TestStealPctSince(t *testing.T) {
	for _, tc := range []struct {
		name      string
		prev, cur HostCPU
		pct       float64
		ok        bool
	}{
		// 1,000 ticks passed, 50 of them stolen: 5%.
		{"some stolen", HostCPU{Total: 10000, Steal: 100}, HostCPU{Total: 11000, Steal: 150}, 5, true},
		{"none stolen", HostCPU{Total: 10000, Steal: 100}, HostCPU{Total: 10400, Steal: 100}, 0, true},
		{"no tick passed", HostCPU{Total: 10000}, HostCPU{Total: 10000}, 0, false},
		{"counters went back", HostCPU{Total: 10000, Steal: 100}, HostCPU{Total: 11000, Steal: 90}, 0, false},
	} {
		pct, ok := tc.cur.StealPctSince(tc.prev)
		if pct != tc.pct || ok != tc.ok {
			t.Errorf("%s: %v %v, want %v %v", tc.name, pct, ok, tc.pct, tc.ok)
		}
	}
	// The fixture's aggregate line: steal is its eighth column, 50 of 9,600 ticks; busy is
	// user 1000 + nice 10 + system 300 + irq 0 + softirq 40 (idle 8000, iowait 200 and the
	// steal left out); two cpuN lines.
	dir := t.TempDir()
	writeProc(t, dir, fstest.MapFS{"stat": {Data: readFixture(t, "stat")}})
	got, err := ReadHostCPU(dir)
	if err != nil || got != (HostCPU{Total: 9600, Steal: 50, Busy: 1350, CPUs: 2}) {
		t.Errorf("ReadHostCPU: %+v, %v, want 9600, 50 and 1,350 ticks of 2 CPUs", got, err)
	}
	if _, err := ReadHostCPU(filepath.Join(dir, "missing")); err == nil {
		t.Error("ReadHostCPU of a missing directory: no error")
	}
}

func TestBusySince(t *testing.T) {
	for _, tc := range []struct {
		name      string
		prev, cur HostCPU
		busy      time.Duration
		ok        bool
	}{
		// 1,500 ticks busy at 100 a second: 15 s of CPU.
		{"busy", HostCPU{Total: 10000, Busy: 2000, CPUs: 2}, HostCPU{Total: 12000, Busy: 3500, CPUs: 2}, 15 * time.Second, true},
		{"idle", HostCPU{Total: 10000, Busy: 2000, CPUs: 4}, HostCPU{Total: 10400, Busy: 2000, CPUs: 4}, 0, true},
		{"no tick passed", HostCPU{Total: 10000, CPUs: 2}, HostCPU{Total: 10000, CPUs: 2}, 0, false},
		{"counters went back", HostCPU{Total: 10000, Busy: 2000, CPUs: 2}, HostCPU{Total: 11000, Busy: 1900, CPUs: 2}, 0, false},
	} {
		busy, ok := tc.cur.BusySince(tc.prev)
		if busy != tc.busy || ok != tc.ok {
			t.Errorf("%s: %v %v, want %v %v", tc.name, busy, ok, tc.busy, tc.ok)
		}
	}
}

func TestWriteWaitSince(t *testing.T) {
	for _, tc := range []struct {
		name      string
		prev, cur HostDisk
		ms        float64
		bytes     uint64
		ok        bool
	}{
		// 400 writes completed, taking 6,000 ms between them: 15 ms each.
		{"waited", HostDisk{Writes: 1000, WriteMs: 2000, WriteBytes: 1 << 20}, HostDisk{Writes: 1400, WriteMs: 8000, WriteBytes: 3 << 20}, 15, 2 << 20, true},
		{"no write", HostDisk{Writes: 1000, WriteMs: 2000}, HostDisk{Writes: 1000, WriteMs: 2000}, 0, 0, false},
		{"counters went back", HostDisk{Writes: 1000, WriteMs: 2000}, HostDisk{Writes: 1100, WriteMs: 1000}, 0, 0, false},
	} {
		ms, bytes, ok := tc.cur.WriteWaitSince(tc.prev)
		if ms != tc.ms || bytes != tc.bytes || ok != tc.ok {
			t.Errorf("%s: %v ms, %v bytes, %v; want %v, %v, %v", tc.name, ms, bytes, ok, tc.ms, tc.bytes, tc.ok)
		}
	}
	// The fixture: sda and nvme0n1 completed 200 + 20 writes in 20 + 2 ms, of 4,000 + 300
	// sectors.
	dir := t.TempDir()
	writeProc(t, dir, fstest.MapFS{"diskstats": {Data: readFixture(t, "diskstats")}})
	got, err := ReadHostDisk(dir)
	if err != nil || got != (HostDisk{Writes: 220, WriteMs: 22, WriteBytes: 4300 * 512}) {
		t.Errorf("ReadHostDisk: %+v, %v, want 220 writes, 22 ms, 4300 sectors", got, err)
	}
	if _, err := ReadHostDisk(filepath.Join(dir, "missing")); err == nil {
		t.Error("ReadHostDisk of a missing directory: no error")
	}
}

// The kernel counts the "some" total in µs; a file without it, or none, is an error.
func TestReadCPUWaited(t *testing.T) {
	want := 3201132397 * time.Microsecond
	for _, tc := range []struct {
		name, at, file string
		want           *time.Duration
		wantErr        string
	}{
		{"some and full", "pressure/cpu", "pressure_cpu", &want, ""},
		{"full only", "pressure/cpu", "pressure_cpu_full_only", nil, `no "some" line`},
		{"no file", "pressure/memory", "pressure_cpu", nil, "pressure"},
	} {
		t.Run(tc.name, func(t *testing.T) { checkRead(t, readCPUWaited, tc.at, tc.file, tc.want, tc.wantErr) })
	}
}
