package flavor

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeHost lays out a cgroup mount, /proc/self/cgroup and /sys/dev/block in a temporary
// directory. procCgroup is /proc/self/cgroup's text; dirs are created under the mount.
func fakeHost(t *testing.T, procCgroup string, dirs ...string) Host {
	t.Helper()
	root := t.TempDir()
	h := Host{Cgroup: filepath.Join(root, "cgroup"), Proc: filepath.Join(root, "proc"), Sys: filepath.Join(root, "sys"),
		Shm: filepath.Join(root, "shm"),
		// The log dir sits on disk 254:0 unless a test says otherwise.
		device:       func(string) (uint32, uint32, error) { return 254, 0, nil },
		memoryBacked: func(string) bool { return true },
		rmdir:        os.RemoveAll}
	for _, d := range append(dirs, "") {
		must(t, os.MkdirAll(filepath.Join(h.Cgroup, d), 0o755))
	}
	must(t, os.MkdirAll(filepath.Join(h.Proc, "self"), 0o755))
	must(t, os.WriteFile(filepath.Join(h.Proc, "self", "cgroup"), []byte(procCgroup), 0o644))
	must(t, os.MkdirAll(h.Shm, 0o755))
	return h
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	must(t, err)
	return string(b)
}

// v1 is this machine's layout: separate cpu, cpuset and blkio hierarchies, kbench in each
// root, except memory.
const v1 = "9:name=systemd:/\n7:blkio:/\n4:memory:/x\n3:cpuset:/\n1:cpu:/\n0::/\n"

func TestCreateV1(t *testing.T) {
	h := fakeHost(t, v1, "cpu", "cpuset", "blkio")
	must(t, os.WriteFile(filepath.Join(h.Cgroup, "cpuset", "cpuset.mems"), []byte("0\n"), 0o644))
	l := Limits{CPUs: 0.25, Cpuset: "1", Disk: Disk{WriteBPS: 50 * Mi, WriteIOPS: 2000, ReadBPS: 10 * Mi}}
	g, err := h.Create("kbench-abc-broker-1", l, "/data")
	must(t, err)
	cpu := filepath.Join(h.Cgroup, "cpu", "kbench-abc-broker-1")
	cpuset := filepath.Join(h.Cgroup, "cpuset", "kbench-abc-broker-1")
	blkio := filepath.Join(h.Cgroup, "blkio", "kbench-abc-broker-1")
	if strings.Join(g.Dirs, " ") != strings.Join([]string{cpu, cpuset, blkio}, " ") {
		t.Fatalf("dirs %v", g.Dirs)
	}
	want := map[string]string{
		// 0.25 cores of a 10,000 µs period is 2,500 µs.
		filepath.Join(cpu, "cpu.cfs_quota_us"):  "2500",
		filepath.Join(cpu, "cpu.cfs_period_us"): "10000",
		filepath.Join(cpuset, "cpuset.cpus"):    "1",
		filepath.Join(cpuset, "cpuset.mems"):    "0",
		// 50 MiB/s = 50 x 1,048,576 = 52,428,800 B/s; 10 MiB/s = 10,485,760 B/s.
		filepath.Join(blkio, "blkio.throttle.write_bps_device"):  "254:0 52428800",
		filepath.Join(blkio, "blkio.throttle.write_iops_device"): "254:0 2000",
		filepath.Join(blkio, "blkio.throttle.read_bps_device"):   "254:0 10485760",
	}
	for f, v := range want {
		if got := read(t, f); got != v {
			t.Errorf("%s = %q, want %q", f, got, v)
		}
	}
	if ok, err := h.ThrottlesBufferedWrites(); ok || err != nil {
		t.Errorf("cgroup v1 does not throttle buffered writes: got %v, %v", ok, err)
	}
	if _, err := os.Stat(filepath.Join(blkio, "blkio.throttle.read_iops_device")); err == nil {
		t.Error("read_iops_device written without a read IOPS limit")
	}
	must(t, g.Add(4242))
	for _, d := range g.Dirs {
		if got := read(t, filepath.Join(d, "cgroup.procs")); got != "4242" {
			t.Errorf("%s/cgroup.procs = %q", d, got)
		}
	}
	must(t, h.Remove(g.Dirs))
	for _, d := range g.Dirs {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind", d)
		}
	}
}

func TestCreateV2(t *testing.T) {
	// Pure cgroup v2, kbench in /user.slice: the cgroups go below it, with controllers
	// enabled for its children.
	h := fakeHost(t, "0::/user.slice\n", "user.slice")
	must(t, os.WriteFile(filepath.Join(h.Cgroup, "cgroup.controllers"), []byte("cpuset cpu io memory pids\n"), 0o644))
	parent := filepath.Join(h.Cgroup, "user.slice")
	must(t, os.WriteFile(filepath.Join(parent, "cgroup.subtree_control"), []byte("memory\n"), 0o644))
	g, err := h.Create("kbench-abc-broker-2", Limits{CPUs: 1.5, Disk: Disk{WriteBPS: 1 * Mi, ReadIOPS: 300}}, "/data")
	must(t, err)
	dir := filepath.Join(parent, "kbench-abc-broker-2")
	if len(g.Dirs) != 1 || g.Dirs[0] != dir {
		t.Fatalf("dirs %v, want [%s]", g.Dirs, dir)
	}
	// 1.5 cores = 15,000 µs per 10,000 µs; 1 MiB/s = 1,048,576 B/s.
	if got := read(t, filepath.Join(dir, "cpu.max")); got != "15000 10000" {
		t.Errorf("cpu.max = %q", got)
	}
	if got := read(t, filepath.Join(dir, "io.max")); got != "254:0 wbps=1048576 riops=300" {
		t.Errorf("io.max = %q", got)
	}
	// The fake file keeps only the last write; the kernel accumulates them.
	// memory is already enabled; cpu and io are added (io before memory, which is there).
	if got := read(t, filepath.Join(parent, "cgroup.subtree_control")); got != "+io" {
		t.Errorf("subtree_control last write %q, want +io", got)
	}
	if ok, err := h.ThrottlesBufferedWrites(); !ok || err != nil {
		t.Errorf("cgroup v2 throttles buffered writes: got %v, %v", ok, err)
	}
}

func TestCreateRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, procCgroup string
		limits           Limits
		setup            func(t *testing.T, h *Host)
		want             string
	}{
		{name: "no cpu controller", procCgroup: "7:blkio:/\n0::/\n", limits: Limits{CPUs: 1},
			want: "the cpu cgroup controller is not available"},
		{name: "v2 without io", procCgroup: "0::/\n", limits: Limits{Disk: Disk{WriteIOPS: 10}},
			setup: func(t *testing.T, h *Host) {
				must(t, os.WriteFile(filepath.Join(h.Cgroup, "cgroup.controllers"), []byte("cpu\n"), 0o644))
			},
			want: "the blkio cgroup controller is not available"},
		{name: "log dir on tmpfs", procCgroup: v1, limits: Limits{Disk: Disk{WriteBPS: 1}},
			setup: func(t *testing.T, h *Host) {
				h.device = func(string) (uint32, uint32, error) { return 0, 45, nil }
			},
			want: "device 0:45: tmpfs, overlay or another virtual filesystem"},
		{name: "cgroup mount not writable", procCgroup: v1, limits: Limits{CPUs: 1},
			setup: func(t *testing.T, h *Host) {
				// A file where the cpu hierarchy should be: mkdir fails as on a broken mount.
				must(t, os.Remove(filepath.Join(h.Cgroup, "cpu")))
				must(t, os.WriteFile(filepath.Join(h.Cgroup, "cpu"), nil, 0o444))
			},
			want: "create cgroup"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := fakeHost(t, tc.procCgroup, "cpu", "blkio")
			if tc.setup != nil {
				tc.setup(t, &h)
			}
			_, err := h.Create("kbench-x-broker-1", tc.limits, "/data")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
}

func TestBlockDevicePartition(t *testing.T) {
	// Partition 8:1 (sda1) is throttled as its disk, 8:0, whose dev file the sysfs
	// directory above the partition's holds.
	h := fakeHost(t, v1)
	h.device = func(string) (uint32, uint32, error) { return 8, 1, nil }
	sda := filepath.Join(h.Sys, "devices", "pci", "block", "sda")
	must(t, os.MkdirAll(filepath.Join(sda, "sda1"), 0o755))
	must(t, os.WriteFile(filepath.Join(sda, "dev"), []byte("8:0\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(sda, "sda1", "partition"), []byte("1\n"), 0o644))
	must(t, os.MkdirAll(filepath.Join(h.Sys, "dev", "block"), 0o755))
	must(t, os.Symlink("../../devices/pci/block/sda/sda1", filepath.Join(h.Sys, "dev", "block", "8:1")))
	dev, err := h.blockDevice("/data")
	must(t, err)
	if dev != "8:0" {
		t.Errorf("device %s, want 8:0", dev)
	}
}

func TestRemoveOnlyOwn(t *testing.T) {
	h := fakeHost(t, v1, "cpu/system")
	err := h.Remove([]string{filepath.Join(h.Cgroup, "cpu", "system")})
	if err == nil {
		t.Fatal("removed a cgroup kbench did not name")
	}
	if _, err := os.Stat(filepath.Join(h.Cgroup, "cpu", "system")); err != nil {
		t.Error("foreign cgroup removed")
	}
}

func TestTmpfsDir(t *testing.T) {
	h := fakeHost(t, v1)
	dir, err := h.TmpfsDir("kbench-abc")
	must(t, err)
	must(t, os.WriteFile(filepath.Join(dir, "segment"), []byte("x"), 0o644))
	must(t, h.RemoveTmpfsDir(dir))
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Error("tmpfs dir left behind")
	}
	h.memoryBacked = func(string) bool { return false }
	if _, err := h.TmpfsDir("kbench-def"); err == nil || !strings.Contains(err.Error(), "is not a tmpfs") {
		t.Errorf("error %v", err)
	}
	if err := h.RemoveTmpfsDir("/etc"); err == nil {
		t.Error("removed a directory outside Shm")
	}
}
