// Package cgroups reads which cgroup a process is in, from /proc/<pid>/cgroup, for the
// code that reads a broker's CPU quota (metrics) and the code that creates brokers' cgroups
// (flavor). It does no I/O of its own.
package cgroups

import (
	"bufio"
	"bytes"
	"slices"
	"strings"
)

// Find finds a controller's cgroup (by its v1 name) in the text of /proc/<pid>/cgroup:
// a v1 line "N:cpu,cpuacct:/path" gives version 1, the hierarchy's directory under the
// cgroup mount ("cpu,cpuacct", the controller list) and the path; otherwise the v2 line
// "0::/path" gives version 2, the mount itself (".") and the path, whether or not v2 offers
// that controller. ok is false when neither is there.
func Find(procCgroup []byte, controller string) (version int, mount, cgroupPath string, ok bool) {
	var v2 string
	haveV2 := false
	sc := bufio.NewScanner(bytes.NewReader(procCgroup))
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), ":", 3)
		if len(f) != 3 {
			continue
		}
		if f[0] == "0" && f[1] == "" {
			v2, haveV2 = f[2], true
			continue
		}
		if slices.Contains(strings.Split(f[1], ","), controller) {
			return 1, f[1], f[2], true
		}
	}
	if haveV2 {
		return 2, ".", v2, true
	}
	return 0, "", "", false
}
