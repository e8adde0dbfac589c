package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// column is one figure column of a results table. An optional column is shown only when
// some row has a value for it; the others always show, "-" where nothing was measured.
type column struct {
	head     string
	cell     func(Row) string
	optional func(Row) bool
	// words marks a column of words, set flush left; figures are set flush right.
	words bool
}

// throughputColumns and latencyColumns are the two results tables' figure columns after the
// parameters, laid out like the source white papers.
var throughputColumns = []column{
	{head: "target rec/s", cell: func(r Row) string { return targetText(r) }},
	{head: "records/s", cell: func(r Row) string { return medianText(r.RecordsPerSec) }},
	{head: "MiB/s", cell: func(r Row) string { return medianText(r.MiBPerSec) }},
	{head: "consumer MiB/s", cell: func(r Row) string { return optText(r.ConsumerMiBPerSec) },
		optional: func(r Row) bool { return r.ConsumerMiBPerSec != nil }},
	{head: "broker CPU % of allotment", cell: brokerPctText},
	{head: "broker CPU cores", cell: func(r Row) string { return medianText(r.BrokerCores) }, optional: coresWithoutPct},
	{head: "client CPU s/M rec", cell: clientCPUText},
	{head: "spread", cell: func(r Row) string { return spreadText(r.RecordsPerSec) }},
	{head: "valid", cell: validText},
}

var latencyColumns = []column{
	{head: "latency is", cell: basisText, words: true},
	{head: "avg ms", cell: func(r Row) string { return medianText(r.LatAvg) }},
	{head: "p50 ms", cell: func(r Row) string { return medianText(r.P50) }},
	{head: "p95 ms", cell: func(r Row) string { return medianText(r.P95) }},
	{head: "p99 ms", cell: func(r Row) string { return medianText(r.P99) }},
	{head: "p99.9 ms", cell: func(r Row) string { return medianText(r.P999) }},
	{head: "max ms", cell: func(r Row) string { return medianText(r.Max) }},
	{head: "send p99 ms", cell: func(r Row) string { return optText(r.SendP99) },
		optional: func(r Row) bool { return r.SendP99 != nil }},
	{head: "e2e p99 ms", cell: func(r Row) string { return optText(r.E2EP99) },
		optional: func(r Row) bool { return r.E2EP99 != nil }},
	{head: "broker Produce mean ms", cell: func(r Row) string { return optText(r.BrokerProduceMean) }},
	{head: "broker Produce p50 ms", cell: func(r Row) string { return optText(r.BrokerProduceP50) }},
	{head: "broker Produce p99 ms", cell: func(r Row) string { return optText(r.BrokerProduceP99) }},
}

// recordColumns are the record accounting table's columns: sums over every repeat.
var recordColumns = []column{
	{head: "repeats", cell: func(r Row) string { return recordText(r, func(c RecordCount) int64 { return int64(c.Repeats) }) }},
	{head: "acked", cell: func(r Row) string { return recordText(r, func(c RecordCount) int64 { return c.Acked }) }},
	{head: "failed", cell: func(r Row) string { return recordText(r, func(c RecordCount) int64 { return c.Failed }) }},
	{head: "unsent", cell: func(r Row) string { return recordText(r, func(c RecordCount) int64 { return c.Unsent }) }},
	{head: "acked after the end", cell: func(r Row) string { return recordText(r, func(c RecordCount) int64 { return c.AckedAfterEnd }) }},
	{head: "consumed", cell: func(r Row) string {
		if r.Records == nil || r.Records.Consumed == nil {
			return "-"
		}
		return intText(*r.Records.Consumed)
	}},
	{head: "hidden (aborted transactions)", cell: func(r Row) string { return recordText(r, func(c RecordCount) int64 { return c.Hidden }) },
		optional: func(r Row) bool { return r.Records != nil && r.Records.Hidden > 0 }},
}

// recordText is one count of a row's record accounting, "-" when its repeats kept none.
func recordText(r Row, f func(RecordCount) int64) string {
	if r.Records == nil {
		return "-"
	}
	return intText(f(*r.Records))
}

// intText writes a count exactly, with thousands separators.
func intText(n int64) string { return group(strconv.FormatInt(n, 10)) }

// textTable is a results table as text, the same for Markdown and HTML; Numeric says which
// columns hold figures (the scenario and its parameters do not).
type textTable struct {
	Head    []string
	Rows    [][]string
	Numeric []bool
}

// resultTable lays out one results table: the scenario, its parameters, then the columns
// that apply to this run.
func resultTable(m *Model, cols []column) textTable {
	var shown []column
	for _, c := range cols {
		if c.optional == nil || slices.ContainsFunc(m.Rows, c.optional) {
			shown = append(shown, c)
		}
	}
	t := textTable{Head: append([]string{"Scenario"}, m.ParamNames...), Numeric: make([]bool, 1+len(m.ParamNames))}
	for _, c := range shown {
		t.Head = append(t.Head, c.head)
		t.Numeric = append(t.Numeric, !c.words)
	}
	for _, r := range m.Rows {
		cells := append([]string{r.ID}, r.Params...)
		for _, c := range shown {
			cells = append(cells, c.cell(r))
		}
		t.Rows = append(t.Rows, cells)
	}
	return t
}

func throughputTable(m *Model) textTable { return resultTable(m, throughputColumns) }
func latencyTable(m *Model) textTable    { return resultTable(m, latencyColumns) }
func recordTable(m *Model) textTable     { return resultTable(m, recordColumns) }

// hasRecords reports whether any scenario accounted its records, which older run
// directories did not.
func hasRecords(m *Model) bool {
	return slices.ContainsFunc(m.Rows, func(r Row) bool { return r.Records != nil })
}

// targetText is the paced rate, "-" when unthrottled.
func targetText(r Row) string {
	if r.TargetRate <= 0 {
		return "-"
	}
	return num(r.TargetRate)
}

// basisText says what the row's latency measures, with the share sent when behind.
func basisText(r Row) string {
	switch r.LatencyBasis {
	case LatencyBacklog:
		return "backlog: sent " + shareText(r.TargetShare.Median) + " of target"
	case "":
		return "-"
	}
	return r.LatencyBasis
}

// shareText is a share of a target rate to one decimal, "96.6%", so a share just under a
// threshold never reads as the threshold.
func shareText(v float64) string { return fmt.Sprintf("%.1f%%", 100*v) }

func optText(s *Stat) string {
	if s == nil {
		return "-"
	}
	return medianText(*s)
}

// clientCPUText is the client CPU per million records; split "producer / consumer" when
// both ran, each per million of its own records.
func clientCPUText(r Row) string {
	if r.ProducerCPUPerM != nil && r.ConsumerCPUPerM != nil {
		return medianText(*r.ProducerCPUPerM) + " / " + medianText(*r.ConsumerCPUPerM)
	}
	return medianText(r.ClientCPUPerM)
}

// coresWithoutPct is true for a row whose brokers' CPU time was measured but not as a share
// of an allotment (remote brokers): the cores, all brokers together, then stand in.
func coresWithoutPct(r Row) bool {
	return r.BrokerCores.N > 0 && !slices.ContainsFunc(r.Brokers, func(b BrokerCPU) bool { return b.Pct.N > 0 })
}

// brokerPctText lists each broker's mean CPU % in the order of the broker columns,
// "54 / - / 52", "-" for a broker without metrics, like a console per broker.
func brokerPctText(r Row) string {
	var parts []string
	measured := false
	for _, b := range r.Brokers {
		if b.Pct.N == 0 {
			parts = append(parts, "-")
			continue
		}
		measured = true
		parts = append(parts, fmt.Sprintf("%.0f", b.Pct.Median))
	}
	if !measured {
		return "-"
	}
	return strings.Join(parts, " / ")
}

func validText(r Row) string {
	s := fmt.Sprintf("%d/%d", r.Valid, r.Total)
	if r.Unstable {
		s += " (unstable)"
	}
	return s
}

// verdictMark is a short mark for a verdict outcome.
func verdictMark(outcome string) string {
	switch outcome {
	case "indicative":
		return "🔸 indicative"
	case "confirmed":
		return "✅ confirmed"
	case "refuted":
		return "❌ refuted"
	case "inconclusive":
		return "❔ inconclusive"
	}
	return "⚠️ " + outcome
}

func agreeText(e Effect) string {
	if e.Agrees == nil {
		return ""
	}
	if *e.Agrees {
		return "holds here"
	}
	return "does not hold here"
}

func ratioText(r float64) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprintf("x%.2f", r)
}

// measuredNum is num(v), or "-" when nothing was measured.
func measuredNum(v float64, measured bool) string {
	if !measured {
		return "-"
	}
	return num(v)
}

// The results section's explanations, the same in Markdown and HTML.
const (
	resultsIntro = "Medians over the valid repeats. MiB/s is 1024×1024 bytes per second, as Kafka's tools print MB/sec. " +
		"A \"-\" means not measured."
	throughputIntro = "Target rec/s is the throttle or target rate (\"-\" when unthrottled). " +
		"Broker CPU is each broker's mean over the measured window as a share of its allotment (broker 1 / 2 / ...; the allotment and how it was found are in the environment above); " +
		"where the allotment is unknown (brokers seen through their metrics endpoints only), broker CPU cores gives all brokers' CPU time per second together. " +
		"Client CPU is the kbench clients' CPU seconds per million records; where a scenario both produces and consumes it reads producer / consumer, each per million of its own records. " +
		"Spread is half the range of the repeats' records/s over the median."
	latencyIntro = "Latency runs from the moment a record was due to its acknowledgement, in milliseconds: under a throttle a record is due at its slot, " +
		"unthrottled when it is handed to the client. \"Latency is\" says what that measures: paced (the producer kept its pace, so this is the cluster's response), " +
		"backlog (the throttle was not reached, so this counts the wait for slots the producer could not keep) or buffer-bound " +
		"(unthrottled, so this is mostly time queued in the client's buffer). Send p99 runs from the actual send, e2e p99 from the produce timestamp to the consumer. " +
		"Broker Produce mean, p50 and p99 are the brokers' own Produce request time (Kafka's RequestMetrics TotalTimeMs), the slowest broker's, " +
		"averaged over the window: the cluster's share of the client's latency. The mean is exact for each second; p50 and p99 are Kafka's " +
		"decaying percentiles, weighted to the last few minutes, so they lag a change of scenario."
	recordsIntro = "Every record handed to the producers, summed over all repeats (valid or not, warm-up included): acknowledged, failed, " +
		"or unsent (aborted when the run stopped waiting for it after a timed run's end). Acked after the end were acknowledged while " +
		"the run waited for its last records; their latency is in the percentiles. Consumed counts the distinct records the consumers read; " +
		"hidden, the acknowledged records of aborted transactions, which read_committed consumers do not read."
)
