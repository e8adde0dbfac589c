package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kbench/kbench/internal/results"
)

// Difference is one property that differs between the two runs of a comparison, as text.
type Difference struct {
	What string `json:"what"`
	A    string `json:"a"`
	B    string `json:"b"`
}

func (d Difference) String() string { return fmt.Sprintf("%s %s vs %s", d.What, d.A, d.B) }

// unset stands for a property one run did not record or set.
const unset = "unset"

// clusterDifferences lists what differs between the clusters two runs measured: Kafka's
// version, embedded or external, the broker count, each broker's CPU allotment and the
// client's security protocol. Any of them changes every scenario's figures.
func clusterDifferences(a, b results.Environment) []Difference {
	return diffMaps(clusterFacts(a), clusterFacts(b))
}

func clusterFacts(e results.Environment) map[string]string {
	m := map[string]string{
		"Kafka version": e.KafkaVersion,
		"cluster":       string(e.Cluster),
		"brokers":       fmt.Sprint(e.Brokers),
		"security":      e.Security,
	}
	if e.BrokerCPUs > 0 {
		m["broker CPU allotment (cores)"] = fmt.Sprint(e.BrokerCPUs)
	}
	return m
}

// workloadDifferences lists what differs between the workloads of one scenario in two runs,
// each described by one of its repeats (every repeat of a scenario runs the same workload).
func workloadDifferences(a, b results.Repeat) []Difference {
	return diffMaps(workloadFacts(a), workloadFacts(b))
}

// identityProps are client properties that name a client or a cluster rather than shape
// its load; they differ between runs by design.
var identityProps = []string{"bootstrap.servers", "client.id", "group.id", "group.instance.id", "transactional.id"}

// workloadFacts flattens what a repeat's clients were asked to do into named values: the
// recorded workload, the topic, and every client property (the study's and the effective
// ones, defaults included), so a changed default shows as well as a changed setting.
func workloadFacts(r results.Repeat) map[string]string {
	w := r.Workload
	m := map[string]string{
		"kind":        w.Kind,
		"record size": fmt.Sprintf("%d B", w.RecordSize),
		"producers":   fmt.Sprint(w.Producers),
		"consumers":   fmt.Sprint(w.Consumers),
		"records":     fmt.Sprint(w.NumRecords),
		"duration":    fmt.Sprintf("%g s", w.Duration),
		"warm-up":     fmt.Sprintf("%g s", w.Warmup),
		"rate":        "unlimited",
		"fetch size":  fmt.Sprint(w.FetchSize),
		"partitions":  fmt.Sprint(r.Topic.Partitions),
		"replicas":    fmt.Sprint(r.Topic.Replicas),
	}
	if w.Throughput > 0 {
		m["rate"] = fmt.Sprintf("%g records/s", w.Throughput)
	}
	for k, v := range r.Topic.Configs {
		m["topic "+k] = v
	}
	props := func(role string, sets ...map[string]string) {
		for _, set := range sets {
			for k, v := range set {
				// Paths to key and trust stores differ between machines, not loads.
				if !slices.Contains(identityProps, k) && !strings.HasSuffix(k, ".location") {
					m[role+" "+k] = v
				}
			}
		}
	}
	// The study's own properties win over the effective ones, which older runs lack.
	props("producer", r.ProducerConfig, w.ProducerProps)
	props("consumer", r.ConsumerConfig, w.ConsumerProps)
	return m
}

// diffMaps lists the keys whose values differ, sorted by key; a key missing on one side
// shows as unset.
func diffMaps(a, b map[string]string) []Difference {
	keys := slices.Sorted(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []Difference
	for _, k := range keys {
		va, oka := a[k]
		vb, okb := b[k]
		if oka && okb && va == vb {
			continue
		}
		if !oka || va == "" {
			va = unset
		}
		if !okb || vb == "" {
			vb = unset
		}
		if va != vb {
			out = append(out, Difference{What: k, A: va, B: vb})
		}
	}
	return out
}

// joinDifferences writes differences as one line.
func joinDifferences(ds []Difference) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.String()
	}
	return strings.Join(parts, "; ")
}
