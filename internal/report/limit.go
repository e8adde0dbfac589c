package report

import (
	"fmt"
	"strings"

	"github.com/kbench/kbench/internal/results"
)

// Thresholds above which a measured resource counts as saturated. A target counts as reached
// at results.MinRateShare, the validity gate's own share.
const (
	brokerCPUBusy = 80.0 // % of a broker's CPU allotment
	// diskWriteBusy is the share of a broker's disk write limit (its disk class) at which
	// the limit binds. The throttle also charges the file system's journal and metadata
	// writes, which /proc/<pid>/io does not count to the broker: measured, brokers held by 3
	// and 7 MiB/s limits (12.6 MiB/s without) showed 76-81% and 73-79% of them.
	diskWriteBusy   = 0.70
	hostCPUBusy     = 85.0 // % of all host cores
	diskBusy        = 80.0 // % of time the disk was busy
	clientCoresBusy = 0.80 // share of the host's cores used by the clients
)

// notDetermined is the limit when no measured resource explains the rate.
const notDetermined = "not determined"

// measured are the medians, over the valid repeats, of the figures the limit is judged on;
// a has* flag is false when no repeat measured the figure.
type measured struct {
	brokerPct, brokerCores, hostPct, disk, clientCores, netMiB     float64
	hasBroker, hasBrokerCores, hasHost, hasDisk, hasClient, hasNet bool
	// remote is set when the brokers ran elsewhere (an external cluster): the host figures
	// are then the machine kbench ran on, and its disk says nothing about the brokers'.
	remote bool
	// proxyCores is the remote listener's proxy process CPU, when the clients used it.
	proxyCores float64
	hasProxy   bool
	// diskWrite is the busiest broker's mean bytes written per second, diskWriteLimit each
	// broker's write throttle (its disk class; 0 for none).
	diskWrite      float64
	hasDiskWrite   bool
	diskWriteLimit uint64
	// brokerNetMiB is the busiest broker's traffic (clients' and replication's) in MiB/s.
	brokerNetMiB float64
	hasBrokerNet bool
}

func measure(row Row, valid []results.Repeat, env results.Environment) measured {
	med := func(f func(results.Repeat) (float64, bool)) (float64, bool) {
		var vs []float64
		for _, r := range valid {
			if v, ok := f(r); ok {
				vs = append(vs, v)
			}
		}
		s := statOf(vs)
		return s.Median, s.N > 0
	}
	// The runner says "same host as the brokers" when an external cluster is on loopback.
	m := measured{remote: env.Cluster == results.External && !strings.HasPrefix(env.ClientPlacement, "same host")}
	m.brokerPct, m.hasBroker = med(brokerPctMax)
	m.brokerCores, m.hasBrokerCores = row.BrokerCores.Median, row.BrokerCores.N > 0
	m.hostPct, m.hasHost = med(func(r results.Repeat) (float64, bool) { return hostField(r, results.FieldHostCPUPct) })
	m.disk, m.hasDisk = med(func(r results.Repeat) (float64, bool) { return hostField(r, results.FieldHostDiskBusyPct) })
	m.netMiB, m.hasNet = med(func(r results.Repeat) (float64, bool) {
		rx, ok1 := hostField(r, results.FieldHostNetRxBps)
		tx, ok2 := hostField(r, results.FieldHostNetTxBps)
		return max(rx, tx) / (1 << 20), ok1 || ok2
	})
	m.diskWrite, m.hasDiskWrite = med(brokerDiskWriteMax)
	m.brokerNetMiB, m.hasBrokerNet = med(func(r results.Repeat) (float64, bool) {
		v, ok := brokerNetMax(r)
		return v / (1 << 20), ok
	})
	m.clientCores, m.hasClient = row.ClientCores.Median, row.ClientCores.N > 0
	if row.ProxyCores != nil {
		m.proxyCores, m.hasProxy = row.ProxyCores.Median, true
	}
	return m
}

// evidence lists what was measured, and what was not, in words.
func (m measured) evidence() (have, missing []string) {
	switch {
	case m.hasBroker:
		have = append(have, fmt.Sprintf("busiest broker CPU %.0f%%", m.brokerPct))
	case m.hasBrokerCores:
		// Remote brokers report their CPU time, but not the cores they may use.
		have = append(have, fmt.Sprintf("brokers' CPU %s cores in all", num(m.brokerCores)))
		missing = append(missing, "broker CPU share (allotment unknown)")
	default:
		missing = append(missing, "broker CPU")
	}
	host := "host"
	if m.remote {
		host = "kbench host"
	}
	if m.hasHost {
		have = append(have, fmt.Sprintf("%s CPU %.0f%%", host, m.hostPct))
	} else {
		missing = append(missing, host+" CPU")
	}
	if m.hasClient {
		have = append(have, fmt.Sprintf("client CPU %s cores", num(m.clientCores)))
	} else {
		missing = append(missing, "client CPU")
	}
	if m.hasProxy {
		have = append(have, fmt.Sprintf("zone proxy CPU %s cores", num(m.proxyCores)))
	}
	if m.hasDisk {
		have = append(have, fmt.Sprintf("%s disk busy %.0f%%", host, m.disk))
	}
	if m.remote {
		missing = append(missing, "broker disk")
	} else if !m.hasDisk {
		missing = append(missing, "disk")
	}
	// No link's capacity is recorded, so network traffic is evidence, never a limit. Brokers
	// on this host talk over loopback, which the host's interfaces leave out: their own
	// figures (clients and replication) say what they carried.
	if m.hasBrokerNet {
		have = append(have, fmt.Sprintf("busiest broker network %s MiB/s (clients and replication)", num(m.brokerNetMiB)))
	}
	switch {
	case m.hasNet && (m.netMiB > 0 || !m.hasBrokerNet):
		have = append(have, fmt.Sprintf("%s network %s MiB/s (link capacity unknown)", host, num(m.netMiB)))
	case !m.hasNet && !m.hasBrokerNet:
		missing = append(missing, "network")
	}
	return have, missing
}

// limitOf names the resource that limited a scenario, from the medians of its valid repeats.
// It names only what was measured: a reached target rate, then a disk write limit the
// brokers wrote at (a throttled disk class of the scenario's cluster, shape), a saturated
// broker CPU, client CPU, host CPU or disk (the host's disk only when the brokers ran on
// it). When none of these is saturated, the limit is "not determined", with the figures
// that were measured and those that were not.
func limitOf(row Row, valid []results.Repeat, env results.Environment, shape *results.Shape) Limit {
	if len(valid) == 0 {
		return Limit{Resource: notDetermined, Evidence: "no valid repeat"}
	}
	m := measure(row, valid, env)
	if shape != nil {
		m.diskWriteLimit = shape.DiskWriteLimit
	}
	have, missing := m.evidence()
	behind := ""
	if row.TargetShare != nil && row.TargetShare.Median < results.MinRateShare {
		behind = fmt.Sprintf("sent at %s of the %s records/s target", shareText(row.TargetShare.Median), num(row.TargetRate))
	}
	lim := func(resource, why string) Limit {
		if behind != "" && resource != notDetermined {
			why = behind + "; " + why
		}
		if len(have) > 0 {
			why += "; " + strings.Join(have, ", ")
		}
		return Limit{Resource: resource, Evidence: why}
	}
	cores := float64(env.Host.Cores)
	switch {
	case row.TargetShare != nil && row.TargetShare.Median >= results.MinRateShare:
		return lim("target rate", fmt.Sprintf("sent at %s of the %s records/s target (%.0f%% counts as reached)",
			shareText(row.TargetShare.Median), num(row.TargetRate), 100*results.MinRateShare))
	case m.diskWriteLimit > 0 && m.hasDiskWrite && m.diskWrite >= diskWriteBusy*float64(m.diskWriteLimit):
		// A throttle the brokers wrote at holds them there however busy the host is.
		return lim("disk write limit", fmt.Sprintf("a broker wrote %s MiB/s under its disk class's %s MiB/s write limit",
			num(m.diskWrite/(1<<20)), num(float64(m.diskWriteLimit)/(1<<20))))
	case sharedHostBusy(m, env):
		// Without a CPU quota a broker's allotment is only its fair share of the host's
		// cores: the brokers and the clients all wait for the same cores, so the host is
		// the limit, whichever share each got.
		return lim("host CPU", fmt.Sprintf("the host's cores were %.0f%% busy, shared by the brokers (no CPU quota) and the clients", m.hostPct))
	case m.hasBroker && m.brokerPct >= brokerCPUBusy:
		return lim("broker CPU", fmt.Sprintf("a broker used %.0f%% of its CPU", m.brokerPct))
	case m.hasClient && cores > 0 && m.clientCores >= clientCoresBusy*cores:
		return lim("client CPU", fmt.Sprintf("the clients used %s of %d cores", num(m.clientCores), int(cores)))
	case m.remote && m.hasHost && m.hostPct >= hostCPUBusy:
		return lim("kbench host CPU", fmt.Sprintf("the machine kbench ran on was %.0f%% busy", m.hostPct))
	case m.hasHost && m.hostPct >= hostCPUBusy:
		who := "the brokers"
		if m.clientCores > row.BrokerCores.Median {
			who = "the clients"
		}
		return lim("host CPU", fmt.Sprintf("the host's cores were %.0f%% busy, most of it %s (clients and brokers share the host)", m.hostPct, who))
	case !m.remote && m.hasDisk && m.disk >= diskBusy:
		return lim("disk", fmt.Sprintf("the data disk was busy %.0f%% of the time", m.disk))
	}
	why := "no measured resource reached its threshold"
	if behind != "" {
		why = behind + ", and no measured resource reached its threshold"
	}
	l := lim(notDetermined, why)
	if len(missing) > 0 {
		l.Evidence += "; not measured: " + strings.Join(missing, ", ")
	}
	return l
}

// sharedHostBusy reports whether the brokers ran on this host without a CPU quota (their
// allotment is a share of its cores, see metrics.Allotment) while its cores were saturated.
func sharedHostBusy(m measured, env results.Environment) bool {
	return !m.remote && m.hasHost && m.hostPct >= hostCPUBusy && strings.Contains(env.BrokerCPUBasis, "(no CPU quota)")
}
