package report

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/kbench/kbench/internal/results"
)

// bootstrapVar stands for the cluster's address in the printed commands.
const bootstrapVar = "$BOOTSTRAP"

// scenarioViews describes each scenario and the commands that reproduce it, taken from its
// first repeat (every repeat of a scenario runs the same workload on a fresh topic).
func scenarioViews(rd *results.RunDir, rows []Row) []ScenarioView {
	var out []ScenarioView
	for i, sc := range rd.Run.Scenarios {
		v := ScenarioView{ID: sc.ID, Title: sc.Title, Params: sc.Params, Planned: sc.Repeats}
		reps := rd.Repeats[sc.ID]
		v.Measured = len(reps)
		if len(reps) > 0 {
			r := reps[0]
			v.Workload = workloadText(r.Workload)
			v.Topic = fmt.Sprintf("%s, %s", plural(r.Topic.Partitions, "partition"), plural(r.Topic.Replicas, "replica"))
			v.TopicCommand = topicCommand(r.Topic)
			numRecords := r.Workload.NumRecords
			if numRecords == 0 && i < len(rows) {
				// A timed scenario: Kafka's tool needs a count, so use what the run measured.
				numRecords = int64(math.Round(rows[i].RecordsPerSec.Median * r.Workload.Duration))
			}
			v.KbenchCommand, v.PerfTestCommand = clientCommands(r, numRecords)
		}
		out = append(out, v)
	}
	return out
}

// orderText says in what order the repeats ran, so a reader can judge whether drift during
// the run (JIT warm-up, page cache, log growth) could bias one scenario against another.
func orderText(o *results.Order) string {
	if o == nil {
		return "The repeats of each scenario ran back to back, scenarios in the study's order, so drift during the run may bias later scenarios against earlier ones."
	}
	return fmt.Sprintf("The repeats ran %s: repeat 1 of every scenario, then repeat 2 of every scenario, and so on, the scenarios in a new random order each round (seed %d; kbench run study.yaml --seed %d replays the order), so drift during the run shows as spread between repeats, not as a bias between scenarios.",
		o.Kind, o.Seed, o.Seed)
}

func workloadText(w results.Workload) string {
	var parts []string
	if w.Producers > 0 {
		parts = append(parts, plural(w.Producers, "producer"))
	}
	if w.Consumers > 0 {
		parts = append(parts, plural(w.Consumers, "consumer"))
	}
	if w.RecordSize > 0 {
		parts = append(parts, fmt.Sprintf("%d-byte records", w.RecordSize))
	}
	if w.NumRecords > 0 {
		parts = append(parts, group(fmt.Sprint(w.NumRecords))+" records")
	}
	switch {
	case w.Duration > 0 && w.Warmup > 0:
		parts = append(parts, fmt.Sprintf("%g s measured after a %g s warm-up", w.Duration, w.Warmup))
	case w.Duration > 0:
		parts = append(parts, fmt.Sprintf("%g s measured", w.Duration))
	}
	switch {
	case w.Producers == 0:
		// A consume-only scenario reads what is there: no pace to state.
	case w.Throughput > 0:
		parts = append(parts, fmt.Sprintf("target %s records/s", num(w.Throughput)))
	default:
		parts = append(parts, "unthrottled")
	}
	if w.Transaction != nil {
		parts = append(parts, transactionWords(w.Transaction))
	}
	return strings.Join(parts, ", ")
}

func topicCommand(t results.Topic) string {
	args := []string{"kafka-topics.sh", "--bootstrap-server", bootstrapVar, "--create",
		"--topic", t.Name, "--partitions", fmt.Sprint(t.Partitions), "--replication-factor", fmt.Sprint(t.Replicas)}
	for _, kv := range sortedKV(t.Configs) {
		args = append(args, "--config", shellQuote(kv.Key+"="+kv.Value))
	}
	return strings.Join(args, " ")
}

// clientCommands returns the kbench command and the equivalent Kafka tool command.
func clientCommands(r results.Repeat, numRecords int64) (kbench, tool string) {
	w := r.Workload
	throughput := w.Throughput
	if throughput <= 0 {
		throughput = -1
	}
	if w.Kind == "consume" && r.Share != nil {
		return shareCommands(r, numRecords)
	}
	if w.Kind == "consume" {
		args := []string{"--bootstrap-server", bootstrapVar, "--topic", r.Topic.Name,
			"--messages", fmt.Sprint(numRecords)}
		if w.Group != "" {
			args = append(args, "--group", w.Group)
		}
		if w.FetchSize > 0 {
			args = append(args, "--fetch-size", fmt.Sprint(w.FetchSize))
		}
		if w.Consumers > 1 {
			args = append(args, "--threads", fmt.Sprint(w.Consumers))
		}
		a := strings.Join(args, " ")
		return "kbench consume " + a, "kafka-consumer-perf-test.sh " + a
	}
	props := []string{"bootstrap.servers=" + bootstrapVar}
	for _, kv := range sortedKV(w.ProducerProps) {
		props = append(props, shellQuote(kv.Key+"="+kv.Value))
	}
	withCount := func(n int64) []string {
		return []string{"--topic", r.Topic.Name, "--num-records", fmt.Sprint(n), "--record-size", fmt.Sprint(w.RecordSize)}
	}
	common := withCount(numRecords)
	propArgs := "--producer-props " + strings.Join(props, " ")

	kb := append([]string{"kbench produce"}, common...)
	kb = append(kb, "--throughput", num0(throughput))
	if w.Producers > 1 {
		kb = append(kb, "--producers", fmt.Sprint(w.Producers))
	}
	// Transactions by age have the tools' flags (by record count and aborts on purpose do
	// not); one process per producer would need an id each, so they are left to kbench.
	var txnArgs []string
	if t := w.Transaction; t != nil && t.LengthMs > 0 {
		txnArgs = []string{"--transactional-id", r.Topic.Name + "-txn", "--transaction-duration-ms", num0(t.LengthMs)}
		kb = append(kb, txnArgs...)
	}
	kb = append(kb, propArgs)

	perProcess := throughput
	if w.Producers > 1 && throughput > 0 {
		perProcess = throughput / float64(w.Producers)
	}
	toolLine := func(n int64) string {
		pt := append([]string{"kafka-producer-perf-test.sh"}, withCount(n)...)
		pt = append(pt, "--throughput", num0(perProcess))
		if w.Producers <= 1 {
			pt = append(pt, txnArgs...)
		}
		return strings.Join(append(pt, propArgs), " ")
	}
	if w.Producers <= 1 {
		return strings.Join(kb, " "), toolLine(numRecords)
	}
	// One process per producer, at once, each with its share of the records (the first
	// ones one more when they do not divide) and of the rate.
	procs := int64(w.Producers)
	share, rest := numRecords/procs, numRecords%procs
	var b strings.Builder
	fmt.Fprintf(&b, "# %d processes at once, %s records in all\n", procs, num(float64(numRecords)))
	for _, g := range []struct{ count, records int64 }{{rest, share + 1}, {procs - rest, share}} {
		switch {
		case g.count == 1:
			fmt.Fprintf(&b, "%s &\n", toolLine(g.records))
		case g.count > 1:
			fmt.Fprintf(&b, "for i in $(seq %d); do %s & done\n", g.count, toolLine(g.records))
		}
	}
	b.WriteString("wait")
	return strings.Join(kb, " "), b.String()
}

func num0(v float64) string { return fmt.Sprintf("%.0f", v) }

// shellQuote quotes s for a POSIX shell when it holds characters the shell would interpret.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`;&|<>*?()[]{}!#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// warnings lists what a reader must know before trusting the numbers.
func warnings(rd *results.RunDir, m *Model, spreadLimit float64) []string {
	rows := m.Rows
	var w []string
	if rd.Run.Status.State != results.Complete {
		reason := rd.Run.Status.Reason
		if reason == "" {
			reason = "no reason recorded"
		}
		w = append(w, fmt.Sprintf("The run is incomplete (%s); the report covers the finished scenarios only.", reason))
	}
	var missing, unstable, invalid []string
	for _, r := range rows {
		switch {
		case r.Total == 0:
			missing = append(missing, r.ID)
		case r.Valid == 0:
			invalid = append(invalid, r.ID)
		case r.Unstable:
			unstable = append(unstable, r.ID)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		w = append(w, "No results for: "+strings.Join(missing, ", ")+".")
	}
	if len(invalid) > 0 {
		w = append(w, "No valid repeat for: "+strings.Join(invalid, ", ")+"; see the reasons under the results table.")
	}
	if len(unstable) > 0 {
		w = append(w, fmt.Sprintf("The repeats of %s spread by more than ±%.0f%% (records/s) or ±%.0f%% (p99); treat their medians with care and run more repeats.",
			strings.Join(unstable, ", "), spreadLimit*100, 2*spreadLimit*100))
	}
	if n := brokerNote(rd, m); n != "" {
		w = append(w, n)
	}
	if n := windowNote(rows); n != "" {
		w = append(w, n)
	}
	w = append(w, driftNotes(rows)...)
	return append(w, latencyNotes(rows)...)
}

// brokerNote says, once, which brokers had no metrics: their columns show "-" and the limit
// analysis cannot judge them.
func brokerNote(rd *results.RunDir, m *Model) string {
	measured := len(m.BrokerIDs) - len(m.MissingBrokers)
	total := max(len(m.BrokerIDs), rd.Run.Environment.Brokers)
	if len(rd.Repeats) == 0 || measured == total {
		return ""
	}
	// A missing broker either had no source (no --metrics-url, no local process) or had one
	// that gave nothing the whole run.
	var unsourced, unread []string
	bm := rd.Run.Environment.BrokerMetrics
	for _, id := range m.MissingBrokers {
		if bm != nil && slices.ContainsFunc(bm.Sampled, func(n int) bool { return strconv.Itoa(n) == id }) {
			unread = append(unread, id)
		} else {
			unsourced = append(unsourced, id)
		}
	}
	if measured == 0 && len(unread) == 0 {
		return "No broker metrics: pass --metrics-url (one per broker) to add them. " +
			"Broker columns show \"-\", and the limit analysis cannot tell whether the brokers limited a scenario."
	}
	var parts []string
	switch {
	case len(unsourced) > 0:
		parts = append(parts, fmt.Sprintf("No broker metrics for %s (metrics for %d of %d brokers): pass --metrics-url for every broker.",
			brokerList(unsourced), measured, total))
	case len(unread) == 0:
		// An older run directory that does not name its brokers: only the count is known.
		parts = append(parts, fmt.Sprintf("Broker metrics for %d of %d brokers only: pass --metrics-url for every broker.", measured, total))
	}
	if len(unread) > 0 {
		parts = append(parts, fmt.Sprintf("The metrics source of %s gave nothing in any repeat: check its --metrics-url.", brokerList(unread)))
	}
	if measured == 0 {
		return strings.Join(append(parts, "Broker columns show \"-\", and the limit analysis cannot tell whether the brokers limited a scenario."), " ")
	}
	return strings.Join(append(parts, "Broker columns show \"-\" for a broker without metrics, and broker figures cover the measured brokers only."), " ")
}

// brokerList names brokers in words: "broker 3", "brokers 2 and 3", "brokers 1, 2 and 3".
func brokerList(ids []string) string {
	if len(ids) == 1 {
		return "broker " + ids[0]
	}
	return "brokers " + strings.Join(ids[:len(ids)-1], ", ") + " and " + ids[len(ids)-1]
}

// latencyNotes say what the latency of scenarios that did not keep a pace measures.
func latencyNotes(rows []Row) []string {
	var behind, unthrottled []string
	for _, r := range rows {
		switch r.LatencyBasis {
		case LatencyBacklog:
			behind = append(behind, fmt.Sprintf("%s (sent at %s of %s records/s)", r.ID, shareText(r.TargetShare.Median), num(r.TargetRate)))
		case LatencyBufferBound:
			unthrottled = append(unthrottled, r.ID)
		}
	}
	var notes []string
	if len(behind) > 0 {
		notes = append(notes, fmt.Sprintf("The throttle was not reached in %s: due-time latency there counts records waiting for a slot the producer "+
			"could not keep, so it grows with the length of the run and measures the backlog, not the cluster. Read the send-time p99 beside it.",
			strings.Join(behind, ", ")))
	}
	if len(unthrottled) > 0 {
		notes = append(notes, fmt.Sprintf("Unthrottled scenarios (%s) hand records to the client as fast as its buffer takes them: their latency is "+
			"mostly time queued in the client's buffer (buffer-bound), set by buffer.memory and the drain rate, not the cluster's response "+
			"time at a chosen load. Throttle a scenario below its maximum rate to measure that.", strings.Join(unthrottled, ", ")))
	}
	return notes
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
