package runner

import (
	"os"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/results"
)

// TestWindowProxyCPU checks that a window through the remote listener records the proxy
// process's CPU apart from the client's, and that one without it records none.
func TestWindowProxyCPU(t *testing.T) {
	// Read from /proc at the window's start and end: 1 s, then 3.5 s: 2.5 s in the window.
	w := &window{proxyPID: 1, proxyStart: time.Second, proxyEnd: 3500 * time.Millisecond,
		proxyStartOK: true, proxyEndOK: true, cpuEnd: 2 * time.Second}
	var rep results.Repeat
	(&measurement{window: w}).fill(&rep, 0)
	if rep.Summary.ProxyCPUSeconds != 2.5 || rep.Summary.ClientCPUSeconds != 2 {
		t.Errorf("proxy %g s, client %g s; want 2.5 and 2", rep.Summary.ProxyCPUSeconds, rep.Summary.ClientCPUSeconds)
	}
	w = &window{proxyPID: 1, proxyStart: time.Second, proxyStartOK: true} // unreadable at the end
	rep = results.Repeat{}
	(&measurement{window: w}).fill(&rep, 0)
	if rep.Summary.ProxyCPUSeconds != 0 {
		t.Errorf("proxy CPU %g s from a half-read window", rep.Summary.ProxyCPUSeconds)
	}
	// The reads themselves: this process stands in for the proxy.
	w = newWindow()
	w.proxyPID = os.Getpid()
	w.begin(time.Now())
	w.finish(time.Now())
	if !w.proxyStartOK || !w.proxyEndOK || w.proxyEnd < w.proxyStart {
		t.Errorf("proxy reads %v %v, %s..%s", w.proxyStartOK, w.proxyEndOK, w.proxyStart, w.proxyEnd)
	}
}
