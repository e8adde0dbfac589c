package flavor

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
)

// TestEnterV1 moves the calling thread into each v1 cgroup of the group (its tasks file)
// and back into the parent cgroup.
func TestEnterV1(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	root := t.TempDir()
	g := Group{Version: 1}
	for _, h := range []string{"cpu", "blkio"} {
		dir := filepath.Join(root, h, "kbench-x-broker-1")
		must(t, os.MkdirAll(dir, 0o755))
		g.Dirs = append(g.Dirs, dir)
	}
	tid := strconv.Itoa(syscall.Gettid())
	leave, err := g.Enter()
	must(t, err)
	for _, d := range g.Dirs {
		if got := read(t, filepath.Join(d, "tasks")); got != tid {
			t.Errorf("%s/tasks = %q, want thread %s", d, got, tid)
		}
	}
	must(t, leave())
	for _, h := range []string{"cpu", "blkio"} {
		if got := read(t, filepath.Join(root, h, "tasks")); got != tid {
			t.Errorf("%s/tasks = %q, want thread %s back", h, got, tid)
		}
	}
	// cgroup v2 places the child with clone3 instead: Enter touches nothing.
	v2 := Group{Version: 2, Dirs: []string{filepath.Join(root, "v2", "kbench-x-broker-1")}}
	must(t, os.MkdirAll(v2.Dirs[0], 0o755))
	if _, err := v2.Enter(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(v2.Dirs[0], "tasks")); err == nil {
		t.Error("v2 Enter wrote a tasks file")
	}
	var attr syscall.SysProcAttr
	closeFD, err := v2.SetProcAttr(&attr)
	must(t, err)
	defer closeFD()
	if !attr.UseCgroupFD || attr.CgroupFD <= 0 {
		t.Errorf("v2 SetProcAttr: %+v", attr)
	}
}
