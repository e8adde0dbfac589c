package report

import (
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// TestProxyCPUBesideClients checks that the remote listener's proxy CPU reaches the limit
// line beside the client's: 1.5 s of proxy CPU over a 5 s window is 0.3 cores.
func TestProxyCPUBesideClients(t *testing.T) {
	rep := results.Repeat{}
	rep.Summary.Elapsed, rep.Summary.ClientCPUSeconds, rep.Summary.ProxyCPUSeconds = 5, 1, 1.5
	row := Row{ClientCores: Stat{N: 1, Median: 0.2}}
	row.ProxyCores = &Stat{N: 1, Median: 0.3}
	have, _ := measure(row, []results.Repeat{rep}, results.Environment{Cluster: results.Embedded}).evidence()
	if !strings.Contains(strings.Join(have, ", "), "client CPU 0.2 cores, zone proxy CPU 0.3 cores") {
		t.Errorf("evidence %q lacks the proxy CPU beside the client's", have)
	}
	row.ProxyCores = nil
	have, _ = measure(row, []results.Repeat{rep}, results.Environment{Cluster: results.Embedded}).evidence()
	if strings.Contains(strings.Join(have, ", "), "proxy") {
		t.Errorf("evidence %q names a proxy the run did not use", have)
	}
}
