package runner

import (
	"fmt"
	"os"
	"strings"

	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/results"
)

// Where the kernel's files are read from; tests of the decision use metrics.CPUAllotments
// with fixtures.
var (
	procMount = "/proc"
	cgroupFS  = os.DirFS("/sys/fs/cgroup")
)

// allot decides each broker's CPU allotment, which its cpu_pct is relative to (see
// metrics.CPUAllotments), and records it in env: the cores when every broker has the same
// known allotment, and the basis in words.
func (t *target) allot(env *results.Environment) {
	env.BrokerCPUs, env.BrokerCPUBasis = t.allotment()
}

func (t *target) allotment() (cores float64, basis string) {
	allots := metrics.CPUAllotments(procMount, cgroupFS, t.brokers)
	seen := map[string]bool{}
	var parts []string
	for i, a := range allots {
		t.brokers[i].CPUAllotment = a.Cores
		if s := a.String(); !seen[s] {
			seen[s] = true
			parts = append(parts, s)
		}
	}
	if len(allots) == 0 {
		return 0, ""
	}
	if len(parts) == 1 {
		return allots[0].Cores, parts[0]
	}
	var per []string
	for i, a := range allots {
		per = append(per, fmt.Sprintf("broker %d: %s", t.brokers[i].ID, a))
	}
	return 0, strings.Join(per, "; ")
}
