// The CPU allotment each broker's CPU percentage is relative to.

package metrics

import (
	"fmt"
	"io/fs"
	"strconv"
)

// Allotment is the CPU a broker may use, and in words how kbench found it, since a
// percentage means nothing without its denominator.
type Allotment struct {
	// Cores is the allotment; 0 when unknown (no FieldCPUPercent is then computed).
	Cores float64
	// Basis is one of the Basis* constants.
	Basis string
	// QuotaPath is the cgroup whose quota applies, when one does.
	QuotaPath string
	// Sharing is the number of brokers that share the allotment's quota or host.
	Sharing int
}

// The bases of an Allotment.
const (
	// BasisQuota: the broker's cgroup has a CPU quota of its own (a container per broker).
	BasisQuota = "cgroup CPU quota"
	// BasisSharedQuota: the brokers on this host share one cgroup quota (kbench in a
	// container with its embedded cluster); each gets quota / brokers.
	BasisSharedQuota = "shared cgroup CPU quota / brokers"
	// BasisSharedHost: no quota; the brokers share the host's cores, each host cores /
	// brokers on this host.
	BasisSharedHost = "host cores / brokers on this host"
	// BasisUnknown: a broker on another machine, seen through its metrics endpoint only;
	// nothing there says how many cores it may use.
	BasisUnknown = "unknown (remote broker, metrics endpoint only)"
)

// CPUAllotments decides each broker's CPU allotment: a broker on this machine (with a PID)
// gets its cgroup's CPU quota, divided among the brokers that share that cgroup; without a
// quota, the host's cores divided among the brokers on this host. A remote broker's
// allotment is unknown. A broker whose CPUAllotment is set keeps it (the user said so).
func CPUAllotments(proc string, cgroup fs.FS, brokers []BrokerTarget) []Allotment {
	out := make([]Allotment, len(brokers))
	quotas := make([]CgroupCPU, len(brokers))
	local := 0
	sharing := map[string]int{} // quota cgroup -> local brokers under it
	for i, b := range brokers {
		if b.PID == 0 || b.CPUAllotment > 0 {
			continue
		}
		local++
		if c, err := ReadCgroupCPU(proc, cgroup, strconv.Itoa(b.PID)); err == nil && c.Quota > 0 {
			quotas[i] = c
			sharing[c.QuotaPath]++
		}
	}
	host := hostCPUs(proc)
	for i, b := range brokers {
		switch q := quotas[i]; {
		case b.CPUAllotment > 0:
			out[i] = Allotment{Cores: b.CPUAllotment, Basis: "given", Sharing: 1}
		case b.PID == 0:
			out[i] = Allotment{Basis: BasisUnknown}
		case q.Quota > 0 && sharing[q.QuotaPath] == 1:
			out[i] = Allotment{Cores: capToHost(q.Quota, host), Basis: BasisQuota, QuotaPath: q.QuotaPath, Sharing: 1}
		case q.Quota > 0:
			n := sharing[q.QuotaPath]
			out[i] = Allotment{Cores: capToHost(q.Quota, host) / float64(n), Basis: BasisSharedQuota, QuotaPath: q.QuotaPath, Sharing: n}
		case host > 0:
			// local counts brokers with a quota too: a quota caps a broker, but it still
			// takes its share of the host.
			out[i] = Allotment{Cores: host / float64(local), Basis: BasisSharedHost, Sharing: local}
		default:
			out[i] = Allotment{Basis: BasisUnknown}
		}
	}
	return out
}

// capToHost limits a quota to the host's cores: a quota above them cannot be used.
func capToHost(quota, host float64) float64 {
	if host > 0 {
		return min(quota, host)
	}
	return quota
}

// String says the allotment and its basis in words, for a report.
func (a Allotment) String() string {
	switch a.Basis {
	case BasisUnknown, "":
		return "unknown: the broker runs elsewhere and its metrics do not say how many cores it may use"
	case BasisQuota:
		return fmt.Sprintf("%.3g cores: the broker's own CPU quota (cgroup %s)", a.Cores, a.QuotaPath)
	case BasisSharedQuota:
		return fmt.Sprintf("%.3g cores: the CPU quota of cgroup %s shared by %d brokers", a.Cores, a.QuotaPath, a.Sharing)
	case BasisSharedHost:
		if a.Sharing == 1 {
			return fmt.Sprintf("%.3g cores: the host's cores, the only broker on it (no CPU quota)", a.Cores)
		}
		return fmt.Sprintf("%.3g cores: the host's cores shared by %d brokers (no CPU quota)", a.Cores, a.Sharing)
	}
	return fmt.Sprintf("%.3g cores (%s)", a.Cores, a.Basis)
}
