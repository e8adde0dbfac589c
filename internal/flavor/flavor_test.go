package flavor

import (
	"strings"
	"testing"
)

func TestParseDisk(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Disk
		err  string
	}{
		{in: "tmpfs", want: Disk{Tmpfs: true}},
		// 50 MiB/s = 52,428,800 B/s; 0.5 MiB/s = 524,288 B/s.
		{in: "write_mib_per_sec=50,write_iops=2000", want: Disk{WriteBPS: 52428800, WriteIOPS: 2000}},
		{in: "read_mib_per_sec=0.5, read_iops=100", want: Disk{ReadBPS: 524288, ReadIOPS: 100}},
		{in: "write_mib=50", err: `"write_mib" is not a disk key`},
		{in: "write_iops=1.5", err: "not a whole number"},
		{in: "write_iops=-1", err: "not a positive number"},
		{in: "fast", err: "is not tmpfs or key=value"},
	} {
		got, err := ParseDisk(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestLimits(t *testing.T) {
	l := Limits{CPUs: 0.5, Cpuset: "0-1", Disk: Disk{WriteBPS: 50 * Mi, WriteIOPS: 2000}}
	if got, want := l.String(), "0.5 cores (CFS quota), pinned to CPUs 0-1, disk writes 50 MiB/s 2000 IOPS"; got != want {
		t.Errorf("String %q, want %q", got, want)
	}
	if got, want := (Limits{CPUs: 1}).String(), "1 core (CFS quota)"; got != want {
		t.Errorf("String %q, want %q", got, want)
	}
	for _, tc := range []struct {
		l   Limits
		err string
	}{
		{l: Limits{CPUs: 0.001}, err: "cluster.broker_cpus: 0.001 is below"},
		{l: Limits{Cpuset: "1-0"}, err: "cluster.cpuset"},
		{l: Limits{Disk: Disk{Tmpfs: true, WriteIOPS: 1}}, err: "tmpfs takes no throttles"},
		{l: l},
	} {
		err := tc.l.Validate("cluster")
		if (err == nil) != (tc.err == "") || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%+v: error %v, want %q", tc.l, err, tc.err)
		}
	}
	if (Limits{}).Any() || !(Limits{Cpuset: "0"}).Any() || (Limits{Disk: Disk{Tmpfs: true}}).Any() {
		t.Error("Any")
	}
}

func TestCFS(t *testing.T) {
	for _, tc := range []struct {
		cores         float64
		quota, period int64
	}{
		{0.25, 2500, 10000}, // 0.25 x 10,000
		{2, 20000, 10000},   // 2 x 10,000
		{0.1, 1000, 10000},  // 0.1 x 10,000 = 1,000, the kernel's minimum quota
		{0.05, 1000, 20000}, // 1,000 / 0.05 = 20,000 µs period, 0.05 x 20,000 = 1,000
		{0.01, 1000, 100000},
	} {
		q, p := cfs(tc.cores)
		if q != tc.quota || p != tc.period {
			t.Errorf("%g cores: %d/%d µs, want %d/%d", tc.cores, q, p, tc.quota, tc.period)
		}
	}
}
