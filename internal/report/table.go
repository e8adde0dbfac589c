package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kbench/kbench/internal/results"
)

// paramNames returns the union of the scenarios' parameter names, in order of first use.
func paramNames(scenarios []results.Scenario) []string {
	var names []string
	seen := map[string]bool{}
	for _, s := range scenarios {
		for _, p := range s.Params {
			if !seen[p.Name] {
				seen[p.Name] = true
				names = append(names, p.Name)
			}
		}
	}
	return names
}

// resultRows computes one row per scenario of run.json, in the study's order, including
// scenarios without results (Total 0) so gaps are visible.
func resultRows(rd *results.RunDir, names []string, env results.Environment, spreadLimit float64) []Row {
	var rows []Row
	for _, sc := range rd.Run.Scenarios {
		reps := rd.Repeats[sc.ID]
		row := Row{ID: sc.ID, Total: len(reps), paramMap: sc.ParamMap()}
		for _, n := range names {
			v, _ := sc.Lookup(n)
			row.Params = append(row.Params, v)
		}
		var valid []results.Repeat
		for _, r := range reps {
			row.Failed += r.Summary.RecordsFailed
			if r.Validity.Valid {
				valid = append(valid, r)
				continue
			}
			reasons := r.Validity.Reasons
			if len(reasons) == 0 {
				reasons = []string{"marked invalid"}
			}
			row.Invalid = append(row.Invalid, InvalidRepeat{Repeat: r.Repeat, Reasons: reasons})
		}
		row.Valid = len(valid)
		row.repeatsForPlot = valid
		if len(valid) > 0 {
			row.TargetRate = valid[0].Summary.TargetRate
		}
		fill(&row, valid)
		row.Unstable = row.RecordsPerSec.Spread() > spreadLimit || row.P99.Spread() > 2*spreadLimit
		row.Limit = limitOf(row, valid, env)
		rows = append(rows, row)
	}
	return rows
}

// metric extracts one figure from a repeat; the names are the claim package's canonical
// metric names plus the report's own.
func metric(r results.Repeat, name string) (float64, bool) {
	s := r.Summary
	switch name {
	case "records_per_sec":
		return s.RecordsPerSec, true
	case "mb_per_sec", "mib_per_sec":
		return s.MiBPerSec, true
	case "avg", "latency_avg_ms":
		return s.Latency.AvgMs, s.Latency.Count > 0
	case "p50", "latency_p50_ms":
		return s.Latency.P50Ms, s.Latency.Count > 0
	case "p95", "latency_p95_ms":
		return s.Latency.P95Ms, s.Latency.Count > 0
	case "p99", "latency_p99_ms":
		return s.Latency.P99Ms, s.Latency.Count > 0
	case "p999", "latency_p999_ms":
		return s.Latency.P999Ms, s.Latency.Count > 0
	case "max", "latency_max_ms":
		return s.Latency.MaxMs, s.Latency.Count > 0
	case "broker_cpu":
		return brokerCores(r)
	case "broker_cpu_pct":
		return brokerPctMax(r)
	case "client_cpu":
		if s.Elapsed <= 0 {
			return 0, false
		}
		return s.ClientCPUSeconds / s.Elapsed, true
	case "client_cpu_per_million":
		return s.ClientCPUPerMillion, s.RecordsAcked > 0
	}
	if id, ok := strings.CutPrefix(name, "broker_cpu_pct_b"); ok {
		return brokerField(r, id, results.FieldCPUPct)
	}
	return 0, false
}

// brokerField is the mean of one broker's field, the broker named by its ID.
func brokerField(r results.Repeat, broker, field string) (float64, bool) {
	for _, b := range r.BrokerSummary {
		if b.Broker == broker {
			st, ok := b.Fields[field]
			return st.Mean, ok
		}
	}
	return 0, false
}

// brokerCores is the mean CPU of all brokers together, in cores.
func brokerCores(r results.Repeat) (float64, bool) {
	var sum float64
	var n int
	for _, b := range r.BrokerSummary {
		if b.Broker == results.HostSeries {
			continue
		}
		if st, ok := b.Fields[results.FieldCPUCores]; ok {
			sum += st.Mean
			n++
		}
	}
	return sum, n > 0
}

// brokerPctMax is the mean CPU percentage of the busiest broker.
func brokerPctMax(r results.Repeat) (float64, bool) {
	var m float64
	var ok bool
	for _, b := range r.BrokerSummary {
		if b.Broker == results.HostSeries {
			continue
		}
		if st, has := b.Fields[results.FieldCPUPct]; has {
			m, ok = max(m, st.Mean), true
		}
	}
	return m, ok
}

// hostField is the mean of a host field, if sampled.
func hostField(r results.Repeat, field string) (float64, bool) {
	for _, b := range r.BrokerSummary {
		if b.Broker == results.HostSeries {
			st, ok := b.Fields[field]
			return st.Mean, ok
		}
	}
	return 0, false
}

func statOfMetric(reps []results.Repeat, name string) Stat {
	var vs []float64
	for _, r := range reps {
		if v, ok := metric(r, name); ok {
			vs = append(vs, v)
		}
	}
	return statOf(vs)
}

func fill(row *Row, valid []results.Repeat) {
	row.RecordsPerSec = statOfMetric(valid, "records_per_sec")
	row.MiBPerSec = statOfMetric(valid, "mib_per_sec")
	row.LatAvg = statOfMetric(valid, "avg")
	row.P50 = statOfMetric(valid, "p50")
	row.P95 = statOfMetric(valid, "p95")
	row.P99 = statOfMetric(valid, "p99")
	row.P999 = statOfMetric(valid, "p999")
	row.Max = statOfMetric(valid, "max")
	row.BrokerCores = statOfMetric(valid, "broker_cpu")
	row.ClientCores = statOfMetric(valid, "client_cpu")
	row.ClientCPUPerM = statOfMetric(valid, "client_cpu_per_million")
	var send, e2e, cons []float64
	for _, r := range valid {
		if l := r.Summary.SendLatency; l != nil && l.Count > 0 {
			send = append(send, l.P99Ms)
		}
		if l := r.Summary.EndToEnd; l != nil && l.Count > 0 {
			e2e = append(e2e, l.P99Ms)
		}
		if c := r.Summary.Consumer; c != nil {
			cons = append(cons, c.MiBPerSec)
		}
	}
	if len(send) > 0 && row.TargetRate > 0 {
		s := statOf(send)
		row.SendP99 = &s
	}
	if len(e2e) > 0 {
		s := statOf(e2e)
		row.E2EP99 = &s
	}
	if len(cons) > 0 {
		s := statOf(cons)
		row.ConsumerMiBPerSec = &s
	}
	// Per-broker CPU, in the order the brokers appear in the first repeat.
	var order []string
	cores := map[string][]float64{}
	pct := map[string][]float64{}
	for _, r := range valid {
		for _, b := range r.BrokerSummary {
			if b.Broker == results.HostSeries {
				continue
			}
			if _, seen := cores[b.Broker]; !seen {
				order = append(order, b.Broker)
				cores[b.Broker] = nil
			}
			if st, ok := b.Fields[results.FieldCPUCores]; ok {
				cores[b.Broker] = append(cores[b.Broker], st.Mean)
			}
			if st, ok := b.Fields[results.FieldCPUPct]; ok {
				pct[b.Broker] = append(pct[b.Broker], st.Mean)
			}
		}
	}
	for _, b := range order {
		row.Brokers = append(row.Brokers, BrokerCPU{Broker: b, Cores: statOf(cores[b]), Pct: statOf(pct[b])})
	}
}

// paramContext renders the parameters of row other than dim, for effect sentences.
func paramContext(row Row, names []string, dim string) string {
	var parts []string
	for i, n := range names {
		if n != dim && row.Params[i] != "" {
			parts = append(parts, n+"="+row.Params[i])
		}
	}
	return strings.Join(parts, ", ")
}

func sortedKV(m map[string]string) []KV {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]KV, 0, len(keys))
	for _, k := range keys {
		out = append(out, KV{k, m[k]})
	}
	return out
}

func environmentRows(e results.Environment) []KV {
	var kv []KV
	add := func(k, v string) {
		if v != "" {
			kv = append(kv, KV{k, v})
		}
	}
	cluster := string(e.Cluster)
	if e.Brokers > 0 {
		cluster = fmt.Sprintf("%s, %d brokers", cluster, e.Brokers)
	}
	add("Cluster", cluster)
	add("Kafka version", e.KafkaVersion)
	add("kbench version", e.KbenchVersion)
	add("Go version", e.GoVersion)
	add("Security", e.Security)
	if e.BrokerCPUs > 0 {
		add("Broker CPU allotment", fmt.Sprintf("%s cores per broker", num(e.BrokerCPUs)))
	}
	add("Client placement", e.ClientPlacement)
	h := e.Host
	add("Host CPU", strings.TrimSpace(fmt.Sprintf("%s (%d logical cores)", h.CPUModel, h.Cores)))
	if h.MemoryBytes > 0 {
		add("Host memory", results.FormatBytes(h.MemoryBytes))
	}
	add("Kernel", strings.TrimSpace(h.Kernel+" "+h.Arch))
	add("Disks", strings.Join(h.Disks, "; "))
	return kv
}
