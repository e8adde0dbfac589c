package metrics

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// checkParse runs a parser over a fixture and compares the result, or the error, with the
// expectation. An empty want with no error only requires that a real file parses.
func checkParse[T any](t *testing.T, parse func([]byte) (T, error), file string, want *T, wantErr string) {
	t.Helper()
	got, err := parse(readFixture(t, file))
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

func TestParseCPUTimes(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    *cpuTimes
		wantErr string
	}{
		// Total is the first eight columns; guest (70) is already inside user.
		{file: "stat", want: &cpuTimes{Total: 1000 + 10 + 300 + 8000 + 200 + 0 + 40 + 50, Idle: 8000, IOWait: 200, CPUs: 2}},
		{file: "real/stat"},
		{file: "stat_no_cpu", wantErr: "no aggregate cpu line"},
		{file: "stat_short", wantErr: "want at least 8"},
	} {
		t.Run(tc.file, func(t *testing.T) { checkParse(t, parseCPUTimes, tc.file, tc.want, tc.wantErr) })
	}
}

func TestParseDiskStats(t *testing.T) {
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
		}},
		{file: "real/diskstats"},
		{file: "diskstats_short", wantErr: "want at least 13"},
		{file: "diskstats_bad", wantErr: "line 1 (sda) column 6"},
	} {
		t.Run(tc.file, func(t *testing.T) { checkParse(t, parseDiskStats, tc.file, tc.want, tc.wantErr) })
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

func TestParseNetDev(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    *netTotals
		wantErr string
	}{
		{file: "net_dev", want: &netTotals{RxBytes: 1000 + 300, TxBytes: 2000 + 400, LoopbackBytes: 5000}},
		{file: "real/net_dev"},
		{file: "net_dev_short", wantErr: "want at least 9"},
		{file: "net_dev_no_colon", wantErr: "line 3 has no interface name"},
	} {
		t.Run(tc.file, func(t *testing.T) { checkParse(t, parseNetDev, tc.file, tc.want, tc.wantErr) })
	}
}

func TestParseMemInfo(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    *memInfo
		wantErr string
	}{
		{file: "meminfo", want: &memInfo{Cached: 4000000 * 1024, Dirty: 2048 * 1024, Available: 6000000 * 1024}},
		{file: "real/meminfo"},
		{file: "meminfo_no_cached", wantErr: "no Cached line"},
		{file: "meminfo_bad", wantErr: "Cached"},
	} {
		t.Run(tc.file, func(t *testing.T) { checkParse(t, parseMemInfo, tc.file, tc.want, tc.wantErr) })
	}
}

func TestParseLoadAvg(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    *[3]float64
		wantErr string
	}{
		{file: "loadavg", want: &[3]float64{0.5, 1.25, 2}},
		{file: "real/loadavg"},
		{file: "loadavg_short", wantErr: "want at least 3"},
	} {
		t.Run(tc.file, func(t *testing.T) { checkParse(t, parseLoadAvg, tc.file, tc.want, tc.wantErr) })
	}
}

// A host file that is missing or malformed costs only its own fields.
func TestReadHostPartial(t *testing.T) {
	proc := fstest.MapFS{
		"stat":      {Data: readFixture(t, "stat")},
		"diskstats": {Data: readFixture(t, "diskstats_bad")},
		"meminfo":   {Data: readFixture(t, "meminfo")},
		"loadavg":   {Data: readFixture(t, "loadavg")},
	}
	h, err := readHost(proc)
	if err == nil || !strings.Contains(err.Error(), "/proc/diskstats") || !strings.Contains(err.Error(), "/proc/net/dev") {
		t.Errorf("error %v, want one naming /proc/diskstats and /proc/net/dev", err)
	}
	want := map[string]bool{"stat": true, "meminfo": true, "loadavg": true}
	if !reflect.DeepEqual(h.have, want) {
		t.Errorf("parts read %v, want %v", h.have, want)
	}
}
