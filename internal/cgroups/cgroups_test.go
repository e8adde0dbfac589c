package cgroups

import "testing"

func TestFind(t *testing.T) {
	v1 := "12:cpuset:/kb\n11:blkio:/user.slice\n4:cpu,cpuacct:/docker/abc\n0::/init.scope\n"
	for _, tt := range []struct {
		name, in, controller string
		version              int
		mount, path          string
		ok                   bool
	}{
		{"v1 cpu in a joint hierarchy", v1, "cpu", 1, "cpu,cpuacct", "/docker/abc", true},
		{"v1 cpuset", v1, "cpuset", 1, "cpuset", "/kb", true},
		{"v1 blkio", v1, "blkio", 1, "blkio", "/user.slice", true},
		// A controller no v1 hierarchy lists falls to the v2 line.
		{"v1 host, controller only in v2", v1, "io", 2, ".", "/init.scope", true},
		{"pure v2", "0::/user.slice/kbench\n", "cpu", 2, ".", "/user.slice/kbench", true},
		{"nothing", "garbage\n", "cpu", 0, "", "", false},
		{"empty", "", "cpu", 0, "", "", false},
	} {
		version, mount, path, ok := Find([]byte(tt.in), tt.controller)
		if version != tt.version || mount != tt.mount || path != tt.path || ok != tt.ok {
			t.Errorf("%s: got %d %q %q %v, want %d %q %q %v", tt.name, version, mount, path, ok, tt.version, tt.mount, tt.path, tt.ok)
		}
	}
}
