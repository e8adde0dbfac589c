package flavor

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/kbench/kbench/internal/metrics"
)

// TestRealQuota creates a real cgroup with a 0.25-core quota, moves a process in and reads
// the quota back the way the broker metrics do (internal/metrics, from /proc/<pid>/cgroup),
// then removes it. Skipped where this process may not create cgroups.
func TestRealQuota(t *testing.T) {
	h := System()
	if _, err := h.find("cpu"); err != nil || os.Geteuid() != 0 {
		t.Skip("no writable cpu cgroup controller here")
	}
	cmd := exec.Command("sleep", "30")
	must(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	name := fmt.Sprintf("kbench-test-%d", os.Getpid())
	g, err := h.Create(name, Limits{CPUs: 0.25}, "")
	if err != nil {
		t.Skipf("cgroups not writable here: %v", err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if err := h.Remove(g.Dirs); err != nil {
			t.Error(err)
		}
	}()
	must(t, g.Add(cmd.Process.Pid))
	c, err := metrics.ReadCgroupCPU("/proc", os.DirFS("/sys/fs/cgroup"), strconv.Itoa(cmd.Process.Pid))
	must(t, err)
	// 25,000 µs per 100,000 µs period is 0.25 cores.
	if c.Quota != 0.25 || c.QuotaPath != "/"+name {
		t.Errorf("read back %+v, want quota 0.25 at /%s", c, name)
	}
}
