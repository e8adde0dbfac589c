package results

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestCollectHost(t *testing.T) {
	proc := fstest.MapFS{
		"cpuinfo": {Data: []byte("processor\t: 0\nmodel name\t: Test CPU @ 2.0GHz\n\nprocessor\t: 1\nmodel name\t: Test CPU @ 2.0GHz\n")},
		"meminfo": {Data: []byte("MemTotal:        8048576 kB\nMemFree:  1 kB\n")},

		"sys/kernel/ostype":    {Data: []byte("Linux\n")},
		"sys/kernel/osrelease": {Data: []byte("6.1.0-test\n")},
		"sys/kernel/hostname":  {Data: []byte("bench1\n")},
	}
	sys := fstest.MapFS{
		"block/nvme0n1/size":             {Data: []byte("1000215216\n")},
		"block/nvme0n1/queue/rotational": {Data: []byte("0\n")},
		"block/sda/size":                 {Data: []byte("2048\n")},
		"block/sda/queue/rotational":     {Data: []byte("1\n")},
		"block/loop0/size":               {Data: []byte("8\n")},
	}
	h, err := CollectHost(proc, sys)
	if err != nil {
		t.Fatal(err)
	}
	if h.CPUModel != "Test CPU @ 2.0GHz" || h.Cores != 2 || h.MemoryBytes != 8048576*1024 ||
		h.Kernel != "Linux 6.1.0-test" || h.Hostname != "bench1" {
		t.Errorf("host %+v", h)
	}
	want := []string{"nvme0n1 ssd 476.9 GiB", "sda hdd 1 MiB"}
	if strings.Join(h.Disks, "|") != strings.Join(want, "|") {
		t.Errorf("disks %q, want %q", h.Disks, want)
	}
}

func TestCollectHostMissing(t *testing.T) {
	// A malformed cpuinfo and no meminfo: the readable facts are kept, the error names the rest.
	proc := fstest.MapFS{"cpuinfo": {Data: []byte("garbage without colons\n")}}
	h, err := CollectHost(proc, nil)
	if err == nil || !strings.Contains(err.Error(), "meminfo") {
		t.Errorf("error %v, want one naming meminfo", err)
	}
	if h.Cores != 0 || h.CPUModel != "" {
		t.Errorf("host %+v from garbage", h)
	}
}

func TestFormatBytes(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"}, {3 << 30, "3 GiB"},
	} {
		if got := FormatBytes(tc.n); got != tc.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
