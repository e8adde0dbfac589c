package report

import (
	"fmt"
	"strings"

	"github.com/kbench/kbench/internal/results"
)

// Thresholds above which a resource counts as saturated.
const (
	targetReached   = 0.97 // share of the target rate that means the target, not a resource, limited
	brokerCPUBusy   = 80.0 // % of a broker's CPU allotment
	hostCPUBusy     = 85.0 // % of all host cores
	diskBusy        = 80.0 // % of time the disk was busy
	clientCoresBusy = 0.80 // share of the host's cores used by the clients
)

// limitOf names the resource that limited a scenario, from the medians of its valid repeats.
// The checks run from the most specific to the least: a met target rate, a saturated broker,
// the clients, the host as a whole, the disk; when nothing is saturated, the producer's
// request pipeline or replication round trips limited the rate.
func limitOf(row Row, valid []results.Repeat, env results.Environment) Limit {
	if len(valid) == 0 {
		return Limit{Resource: "unknown", Evidence: "no valid repeat"}
	}
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
	brokerPct, hasBroker := med(brokerPctMax)
	hostPct, hasHost := med(func(r results.Repeat) (float64, bool) { return hostField(r, results.FieldHostCPUPct) })
	disk, hasDisk := med(func(r results.Repeat) (float64, bool) { return hostField(r, results.FieldHostDiskBusyPct) })
	clientCores := row.ClientCores.Median

	var ev []string
	if hasBroker {
		ev = append(ev, fmt.Sprintf("busiest broker CPU %.0f%%", brokerPct))
	}
	if hasHost {
		ev = append(ev, fmt.Sprintf("host CPU %.0f%%", hostPct))
	}
	if row.ClientCores.N > 0 {
		ev = append(ev, fmt.Sprintf("client CPU %s cores", num(clientCores)))
	}
	if hasDisk {
		ev = append(ev, fmt.Sprintf("disk busy %.0f%%", disk))
	}
	evidence := strings.Join(ev, ", ")
	lim := func(resource, why string) Limit {
		if evidence != "" {
			why += "; " + evidence
		}
		return Limit{Resource: resource, Evidence: why}
	}

	rate := row.RecordsPerSec.Median
	cores := float64(env.Host.Cores)
	switch {
	case row.TargetRate > 0 && rate >= targetReached*row.TargetRate:
		return lim("target rate", fmt.Sprintf("reached %.0f%% of the %s records/s target", 100*rate/row.TargetRate, num(row.TargetRate)))
	case hasBroker && brokerPct >= brokerCPUBusy:
		return lim("broker CPU", fmt.Sprintf("a broker used %.0f%% of its CPU", brokerPct))
	case cores > 0 && clientCores >= clientCoresBusy*cores:
		return lim("client CPU", fmt.Sprintf("the clients used %s of %d cores", num(clientCores), int(cores)))
	case hasHost && hostPct >= hostCPUBusy:
		who := "the brokers"
		if clientCores > row.BrokerCores.Median {
			who = "the clients"
		}
		return lim("host CPU", fmt.Sprintf("the host's cores were %.0f%% busy, most of it %s (clients and brokers share the host)", hostPct, who))
	case hasDisk && disk >= diskBusy:
		return lim("disk", fmt.Sprintf("the data disk was busy %.0f%% of the time", disk))
	}
	acks := valid[0].ProducerConfig["acks"]
	if acks == "" {
		acks = valid[0].Workload.ProducerProps["acks"]
	}
	if (acks == "all" || acks == "-1") && valid[0].Topic.Replicas > 1 {
		return lim("replication", fmt.Sprintf("no resource saturated; acks=%s waits for %d replicas on every batch", acks, valid[0].Topic.Replicas))
	}
	return lim("producer pipeline", "no resource saturated; the rate is bounded by batch size and requests in flight per broker (batch.size, linger.ms, max.in.flight)")
}
