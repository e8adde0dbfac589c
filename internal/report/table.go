package report

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
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
// scenarios without results (Total 0) so gaps are visible. brokers are the broker columns.
func resultRows(rd *results.RunDir, names, brokers []string, env results.Environment, spreadLimit float64) []Row {
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
			row.Records = addRecords(row.Records, r.Summary.Records)
			if row.Kind == "" {
				row.Kind = r.Workload.Kind
			}
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
		if len(valid) > 0 && row.Kind != "consume" {
			row.TargetRate = valid[0].Summary.TargetRate
		}
		fill(&row, valid, brokers)
		row.Unstable = row.RecordsPerSec.Spread() > spreadLimit || row.P99.Spread() > 2*spreadLimit
		row.Limit = limitOf(row, valid, scenarioEnvironment(env, sc.Cluster), sc.Cluster)
		rows = append(rows, row)
	}
	return rows
}

// addRecords adds one repeat's record accounting to a scenario's sum.
func addRecords(sum *RecordCount, r *results.Records) *RecordCount {
	if r == nil {
		return sum
	}
	if sum == nil {
		sum = &RecordCount{}
	}
	sum.Repeats++
	sum.Acked += r.Acked
	sum.Failed += r.Failed
	sum.Unsent += r.Unsent
	sum.AckedAfterEnd += r.AckedAfterEnd
	sum.Reread += r.Reread
	sum.Hidden += r.Hidden
	if r.Consumed != nil {
		if sum.Consumed == nil {
			sum.Consumed = new(int64)
		}
		*sum.Consumed += *r.Consumed
	}
	return sum
}

// brokerColumns returns the brokers the tables show, in order, and those of them with no
// metrics in any repeat. The series name a broker only when it was sampled, so run.json's
// broker_metrics (when recorded) names the others; a broker sampled without a single field is
// missing too.
func brokerColumns(rd *results.RunDir) (ids, missing []string) {
	measured := map[string]bool{}
	var seen []string
	for _, sc := range rd.Run.Scenarios {
		for _, r := range rd.Repeats[sc.ID] {
			for _, b := range r.BrokerSummary {
				if b.Broker == results.HostSeries || measured[b.Broker] || len(b.Fields) == 0 {
					continue
				}
				measured[b.Broker] = true
				seen = append(seen, b.Broker)
			}
		}
	}
	if bm := rd.Run.Environment.BrokerMetrics; bm != nil {
		for _, id := range slices.Sorted(slices.Values(append(slices.Clone(bm.Sampled), bm.Missing...))) {
			ids = append(ids, strconv.Itoa(id))
		}
	}
	for _, b := range seen {
		if !slices.Contains(ids, b) {
			ids = append(ids, b)
		}
	}
	for _, id := range ids {
		if !measured[id] {
			missing = append(missing, id)
		}
	}
	return ids, missing
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
	case "capacity":
		// The lower end of the first SLO's bracket; a search where no rate passed has none.
		if r.Capacity == nil || len(r.Capacity.Brackets) == 0 || r.Capacity.Brackets[0].Lower <= 0 {
			return 0, false
		}
		return r.Capacity.Brackets[0].Lower, true
	case "pause", "time_to_stable", "redelivered", "pause_join", "pause_leave", "pause_kill":
		return rebalanceMetric(r.Rebalance, name)
	case "client_cpu_per_million":
		return s.ClientCPUPerMillion, s.RecordsAcked > 0
	case "producer_cpu_per_million":
		return s.ProducerCPUPerMillion, s.ClientCPUSplit == results.SplitProfile
	case "consumer_cpu_per_million":
		return s.ConsumerCPUPerMillion, s.ClientCPUSplit == results.SplitProfile
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

// brokerDiskWriteMax is the busiest broker's mean bytes written per second in a repeat.
func brokerDiskWriteMax(r results.Repeat) (float64, bool) {
	return brokerFieldMax(r, results.FieldDiskWriteBps)
}

// brokerNetMax is the busiest broker's traffic in its busier direction, clients' and
// replication's together, in bytes per second: what its network carried, on loopback too.
func brokerNetMax(r results.Repeat) (float64, bool) {
	var m float64
	var ok bool
	sum := func(fields map[string]results.Stats, names ...string) (float64, bool) {
		var v float64
		var has bool
		for _, n := range names {
			if st, h := fields[n]; h {
				v, has = v+st.Mean, true
			}
		}
		return v, has
	}
	for _, b := range r.BrokerSummary {
		if b.Broker == results.HostSeries {
			continue
		}
		in, hasIn := sum(b.Fields, results.FieldBytesInBps, results.FieldReplicationInBps)
		out, hasOut := sum(b.Fields, results.FieldBytesOutBps, results.FieldReplicationOutBps)
		if hasIn || hasOut {
			m, ok = max(m, in, out), true
		}
	}
	return m, ok
}

// brokerPctMax is the mean CPU percentage of the busiest broker.
func brokerPctMax(r results.Repeat) (float64, bool) {
	return brokerFieldMax(r, results.FieldCPUPct)
}

// brokerFieldMax is the highest broker mean of field in a repeat (the host's series left
// out), if any broker sampled it.
func brokerFieldMax(r results.Repeat, field string) (float64, bool) {
	var m float64
	var ok bool
	for _, b := range r.BrokerSummary {
		if b.Broker == results.HostSeries {
			continue
		}
		if st, has := b.Fields[field]; has {
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

func fill(row *Row, valid []results.Repeat, brokers []string) {
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
	if p, c := statOfMetric(valid, "producer_cpu_per_million"), statOfMetric(valid, "consumer_cpu_per_million"); p.N > 0 && c.N > 0 {
		row.ProducerCPUPerM, row.ConsumerCPUPerM = &p, &c
	}
	// optional is the stat of f over the repeats that measured it, nil when none did.
	optional := func(f func(results.Repeat) (float64, bool)) *Stat {
		var vs []float64
		for _, r := range valid {
			if v, ok := f(r); ok {
				vs = append(vs, v)
			}
		}
		if len(vs) == 0 {
			return nil
		}
		s := statOf(vs)
		return &s
	}
	if row.TargetRate > 0 {
		row.SendP99 = optional(func(r results.Repeat) (float64, bool) {
			l := r.Summary.SendLatency
			return latencyP99(l), l != nil && l.Count > 0
		})
		row.TargetShare = optional(func(r results.Repeat) (float64, bool) { return r.Summary.TargetShare() })
	}
	row.ProxyCores = optional(func(r results.Repeat) (float64, bool) {
		s := r.Summary
		return s.ProxyCPUSeconds / s.Elapsed, s.ProxyCPUSeconds > 0 && s.Elapsed > 0
	})
	row.E2EP99 = optional(func(r results.Repeat) (float64, bool) {
		l := r.Summary.EndToEnd
		return latencyP99(l), l != nil && l.Count > 0
	})
	row.ConsumerMiBPerSec = optional(func(r results.Repeat) (float64, bool) {
		if c := r.Summary.Consumer; c != nil {
			return c.MiBPerSec, true
		}
		return 0, false
	})
	row.BrokerProduceMean = optional(func(r results.Repeat) (float64, bool) { return slowestBroker(r, results.FieldProduceTimeMean) })
	row.BrokerProduceP50 = optional(func(r results.Repeat) (float64, bool) { return slowestBroker(r, results.FieldProduceTimeP50) })
	row.BrokerProduceP99 = optional(func(r results.Repeat) (float64, bool) { return slowestBroker(r, results.FieldProduceTimeP99) })
	row.LatencyBasis = latencyBasis(*row)
	for _, b := range brokers {
		var cores, pct []float64
		for _, r := range valid {
			if v, ok := brokerField(r, b, results.FieldCPUCores); ok {
				cores = append(cores, v)
			}
			if v, ok := brokerField(r, b, results.FieldCPUPct); ok {
				pct = append(pct, v)
			}
		}
		row.Brokers = append(row.Brokers, BrokerCPU{Broker: b, Cores: statOf(cores), Pct: statOf(pct)})
	}
}

// latencyBasis says what a row's due-time latency measures: a scenario that did not produce
// has none; an unthrottled one sends as fast as the client's buffer takes records; a paced one
// measures the cluster only while it kept its pace (the validity gate's share).
func latencyBasis(row Row) string {
	switch {
	case row.Valid == 0 || row.Kind == "consume" || row.P99.N == 0:
		return ""
	case row.TargetRate <= 0:
		return LatencyBufferBound
	case row.TargetShare != nil && row.TargetShare.Median < results.MinRateShare:
		return LatencyBacklog
	}
	return LatencyPaced
}

func latencyP99(l *results.Latency) float64 {
	if l == nil {
		return 0
	}
	return l.P99Ms
}

// slowestBroker is the highest mean of a broker field over the brokers that measured it:
// for a request-time percentile, an upper bound of the same percentile over all brokers.
func slowestBroker(r results.Repeat, field string) (float64, bool) {
	var m float64
	var ok bool
	for _, b := range r.BrokerSummary {
		if b.Broker == results.HostSeries {
			continue
		}
		if st, has := b.Fields[field]; has {
			m, ok = max(m, st.Mean), true
		}
	}
	return m, ok
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
		cluster = cluster + ", " + plural(e.Brokers, "broker")
	}
	add("Cluster", cluster)
	add("Kafka version", e.KafkaVersion)
	add("kbench version", e.KbenchVersion)
	add("Go version", e.GoVersion)
	add("Security", e.Security)
	switch {
	case e.BrokerCPUBasis != "":
		// The denominator of every broker CPU %, and how kbench found it.
		add("Broker CPU allotment", e.BrokerCPUBasis)
	case e.BrokerCPUs > 0:
		add("Broker CPU allotment", fmt.Sprintf("%s cores per broker", num(e.BrokerCPUs)))
	}
	add("Broker limits (cgroup per broker)", e.BrokerLimits)
	add("Client placement", e.ClientPlacement)
	h := e.Host
	add("Host CPU", strings.TrimSpace(fmt.Sprintf("%s (%d logical cores)", h.CPUModel, h.Cores)))
	if h.MemoryBytes > 0 {
		add("Host memory", results.FormatBytes(h.MemoryBytes))
	}
	add("Kernel", strings.TrimSpace(h.Kernel+" "+h.Arch))
	add("Disks", strings.Join(h.Disks, "; "))
	add("Free page reporting (memory given back to the hypervisor)", results.PageReportingText(h.PageReportingOrder))
	return kv
}
