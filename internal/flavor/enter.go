package flavor

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// A JVM reads its cgroup limits once, early in its start, and sizes its GC and compiler
// threads (availableProcessors) from them; a broker moved into its cgroup after exec was
// measured to see "no quota" and 2 processors under a 0.25-core quota. So the broker must
// start inside its cgroup: on cgroup v1, where membership is per thread, the thread that
// forks it enters the cgroup first (Enter); on cgroup v2, clone3 places the child in the
// cgroup (SetProcAttr). Add afterwards still moves the whole process, a no-op then.

// Enter moves the calling OS thread into g's v1 cgroups, so that a process it forks starts
// there; leave moves the thread back into its parent cgroups. The caller holds
// runtime.LockOSThread. On cgroup v2 Enter does nothing (see SetProcAttr).
func (g Group) Enter() (leave func() error, err error) {
	leave = func() error { return nil }
	if g.Version != 1 {
		return leave, nil
	}
	tid := strconv.Itoa(syscall.Gettid())
	var entered []string
	leave = func() error {
		for _, dir := range entered {
			// kbench's own cgroup in that hierarchy, where the thread came from.
			f := filepath.Join(filepath.Dir(dir), "tasks")
			if err := os.WriteFile(f, []byte(tid), 0o644); err != nil {
				return fmt.Errorf("move thread %s back to %s: %w", tid, filepath.Dir(dir), err)
			}
		}
		return nil
	}
	for _, dir := range g.Dirs {
		if err := os.WriteFile(filepath.Join(dir, "tasks"), []byte(tid), 0o644); err != nil {
			_ = leave()
			return nil, fmt.Errorf("move the starting thread into cgroup %s: %w%s", dir, err, hint(err))
		}
		entered = append(entered, dir)
	}
	return leave, nil
}

// SetProcAttr makes a cgroup v2 child start in g (clone3 CLONE_INTO_CGROUP); closeFD
// releases the cgroup's descriptor once the child has started. On v1 it does nothing.
func (g Group) SetProcAttr(attr *syscall.SysProcAttr) (closeFD func(), err error) {
	if g.Version != 2 || len(g.Dirs) != 1 {
		return func() {}, nil
	}
	fd, err := syscall.Open(g.Dirs[0], syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open cgroup %s: %w", g.Dirs[0], err)
	}
	attr.UseCgroupFD, attr.CgroupFD = true, fd
	return func() { _ = syscall.Close(fd) }, nil
}
