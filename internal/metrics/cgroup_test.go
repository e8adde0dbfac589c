package metrics

import (
	"context"
	"math"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// fourCPUs is a /proc/stat with four online CPUs.
const fourCPUs = "cpu  1 0 0 1 0 0 0 0 0 0\ncpu0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0\ncpu2 0 0 0 0 0 0 0 0\ncpu3 0 0 0 0 0 0 0 0\n"

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func TestReadCgroupCPU(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cgroup  string // /proc/<pid>/cgroup
		files   fstest.MapFS
		want    CgroupCPU
		wantErr string
	}{
		{name: "v2 quota on the process's cgroup", cgroup: "0::/kafka/b1\n",
			// 150000/100000 = 1.5 cores
			files: fstest.MapFS{"kafka/b1/cpu.max": file("150000 100000\n")},
			want:  CgroupCPU{Version: 2, Path: "/kafka/b1", QuotaPath: "/kafka/b1", Quota: 1.5}},
		{name: "v2 tighter quota on a parent", cgroup: "0::/kafka/b1\n",
			// own 4 cores, parent 200000/100000 = 2 cores: the parent's wins
			files: fstest.MapFS{"kafka/b1/cpu.max": file("400000 100000\n"), "kafka/cpu.max": file("200000 100000\n"), "cpu.max": file("max 100000\n")},
			want:  CgroupCPU{Version: 2, Path: "/kafka/b1", QuotaPath: "/kafka", Quota: 2}},
		{name: "v2 unlimited", cgroup: "0::/\n", files: fstest.MapFS{"cpu.max": file("max 100000\n")},
			want: CgroupCPU{Version: 2, Path: "/"}},
		{name: "v1 co-mounted cpu,cpuacct", cgroup: "12:memory:/x\n4:cpu,cpuacct:/docker/abc\n0::/\n",
			// 50000/100000 = 0.5 cores
			files: fstest.MapFS{"cpu,cpuacct/docker/abc/cpu.cfs_quota_us": file("50000\n"), "cpu,cpuacct/docker/abc/cpu.cfs_period_us": file("100000\n"),
				"cpu,cpuacct/docker/cpu.cfs_quota_us": file("-1\n"), "cpu,cpuacct/docker/cpu.cfs_period_us": file("100000\n")},
			want: CgroupCPU{Version: 1, Path: "/docker/abc", QuotaPath: "/docker/abc", Quota: 0.5}},
		{name: "v1 unlimited", cgroup: "2:cpuacct:/\n1:cpu:/\n0::/\n",
			files: fstest.MapFS{"cpu/cpu.cfs_quota_us": file("-1\n"), "cpu/cpu.cfs_period_us": file("100000\n")},
			want:  CgroupCPU{Version: 1, Path: "/"}},
		{name: "outside the namespace", cgroup: "0::/../../user.slice\n", files: fstest.MapFS{},
			want: CgroupCPU{Version: 2, Path: "/../../user.slice"}},
		{name: "bad cpu.max", cgroup: "0::/a\n", files: fstest.MapFS{"a/cpu.max": file("lots 100000\n")}, wantErr: `bad quota "lots"`},
		{name: "no cpu controller", cgroup: "4:memory:/a\n", wantErr: "no cpu controller"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proc := procDirOf(t, fstest.MapFS{"42/cgroup": file(tc.cgroup)})
			got, err := ReadCgroupCPU(proc, tc.files, "42")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

func TestReadCgroupUsage(t *testing.T) {
	v2 := fstest.MapFS{"cpu.stat": file("usage_usec 2500000\nuser_usec 2000000\n")}
	if got, err := ReadCgroupUsage(t.TempDir(), v2, 2, "/"); err != nil || got != 2.5 {
		t.Errorf("v2: %v, %v; want 2.5 s (2,500,000 us)", got, err)
	}
	proc := procDirOf(t, fstest.MapFS{"self/cgroup": file("3:cpu,cpuacct:/c\n")})
	v1 := fstest.MapFS{"cpu,cpuacct/c/cpuacct.usage": file("1500000000\n")}
	if got, err := ReadCgroupUsage(proc, v1, 1, "/c"); err != nil || got != 1.5 {
		t.Errorf("v1: %v, %v; want 1.5 s (1.5e9 ns)", got, err)
	}
}

func TestCPUAllotments(t *testing.T) {
	proc := procDirOf(t, fstest.MapFS{
		"stat":     file(fourCPUs),
		"1/cgroup": file("0::/user/kbench\n"),
		"2/cgroup": file("0::/user/kbench\n"),
		"3/cgroup": file("0::/pods/b3\n"),
		"4/cgroup": file("0::/ctr/b4\n"),
		"5/cgroup": file("0::/ctr/b5\n"),
	})
	cg := fstest.MapFS{
		"pods/b3/cpu.max": file("50000 100000\n"),  // 0.5 cores, broker 3 alone
		"ctr/cpu.max":     file("300000 100000\n"), // 3 cores over brokers 4 and 5
	}
	for _, tc := range []struct {
		name    string
		brokers []BrokerTarget
		want    []Allotment
	}{
		{name: "embedded, no quota: 4 host cores / 2 brokers = 2",
			brokers: []BrokerTarget{{ID: 1, PID: 1}, {ID: 2, PID: 2}},
			want:    []Allotment{{Cores: 2, Basis: BasisSharedHost, Sharing: 2}, {Cores: 2, Basis: BasisSharedHost, Sharing: 2}}},
		{name: "own quota 0.5; shared quota 3 / 2 = 1.5",
			brokers: []BrokerTarget{{ID: 3, PID: 3}, {ID: 4, PID: 4}, {ID: 5, PID: 5}},
			want: []Allotment{{Cores: 0.5, Basis: BasisQuota, QuotaPath: "/pods/b3", Sharing: 1},
				{Cores: 1.5, Basis: BasisSharedQuota, QuotaPath: "/ctr", Sharing: 2}, {Cores: 1.5, Basis: BasisSharedQuota, QuotaPath: "/ctr", Sharing: 2}}},
		{name: "remote: unknown; given: kept",
			brokers: []BrokerTarget{{ID: 6, MetricsURL: "http://b6"}, {ID: 7, MetricsURL: "http://b7", CPUAllotment: 8}},
			want:    []Allotment{{Basis: BasisUnknown}, {Cores: 8, Basis: "given", Sharing: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CPUAllotments(proc, cg, tc.brokers)
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("broker %d: got %+v, want %+v", tc.brokers[i].ID, got[i], tc.want[i])
				}
			}
		})
	}
	if s := (Allotment{Basis: BasisUnknown}).String(); !strings.Contains(s, "unknown") {
		t.Errorf("unknown allotment says %q", s)
	}
}

// TestSamplerCgroupHost: kbench in a container limited to 1.5 cores; the host rows give the
// container's CPU against its quota beside the machine's.
func TestSamplerCgroupHost(t *testing.T) {
	proc := procDirOf(t, fstest.MapFS{"stat": {Data: hostStat(10000, 8000, 0)}, "self/cgroup": file("0::/\n")})
	cg := fstest.MapFS{"cpu.max": file("150000 100000\n"), "cpu.stat": file("usage_usec 1000000\n")}
	s, err := NewSampler(SamplerConfig{Proc: proc, Cgroup: cg})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := t0
	s.clock = func() time.Time { return now }
	s.sample(context.Background())
	now = t0.Add(2 * time.Second)
	writeProc(t, proc, fstest.MapFS{"stat": {Data: hostStat(10000+1000, 8000+500, 0)}})
	cg["cpu.stat"] = file("usage_usec 3400000\n")
	s.sample(context.Background())
	got := s.Stop()
	if len(got.Host) != 1 {
		t.Fatalf("host rows %+v", got.Host)
	}
	// 3.4 s - 1.0 s = 2.4 s of CPU in 2 s = 1.2 cores; of the 1.5-core quota, 80%.
	for field, want := range map[string]float64{FieldHostCgroupCPUCores: 1.2, FieldHostCgroupCPUBusyPct: 80, FieldHostCgroupCPUQuota: 1.5,
		FieldHostCPUBusyPct: 50} { // the machine: 500 of 1000 ticks busy
		if v, ok := got.Host[0].Values[field]; !ok || math.Abs(v-want) > 1e-9 {
			t.Errorf("%s = %v (present %v), want %v", field, v, ok, want)
		}
	}
}

func TestAllotmentString(t *testing.T) {
	for _, tc := range []struct {
		a    Allotment
		want string
	}{
		{Allotment{Cores: 2, Basis: BasisSharedHost, Sharing: 1}, "2 cores: the host's cores, the only broker on it (no CPU quota)"},
		{Allotment{Cores: 0.667, Basis: BasisSharedHost, Sharing: 3}, "0.667 cores: the host's cores shared by 3 brokers (no CPU quota)"},
		{Allotment{Cores: 1.5, Basis: BasisSharedQuota, QuotaPath: "/ctr", Sharing: 2}, "1.5 cores: the CPU quota of cgroup /ctr shared by 2 brokers"},
		{Allotment{Cores: 0.5, Basis: BasisQuota, QuotaPath: "/pods/b3", Sharing: 1}, "0.5 cores: the broker's own CPU quota (cgroup /pods/b3)"},
	} {
		if got := tc.a.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
