package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"time"
)

// chartDir is where the Markdown report expects its charts, relative to the report.
const chartDir = "charts"

// WriteMarkdown renders the model as Markdown; charts are referenced as charts/<name>.svg
// (WriteFiles writes them).
func WriteMarkdown(w io.Writer, m *Model) error {
	b := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(b, format, a...) }

	p("# %s\n\n", mdEscape(m.Title))
	p("%s\n\n", headerLine(m))
	if m.Notes != "" {
		p("%s\n\n", strings.TrimSpace(m.Notes))
	}
	for _, w := range m.Warnings {
		p("> **Note.** %s\n\n", mdEscape(w))
	}

	p("## %s\n\n", m.heading("scenarios"))
	head := append([]string{"Scenario"}, m.ParamNames...)
	head = append(head, "Repeats", "Topic", "Workload")
	var rows [][]string
	for _, s := range m.Scenarios {
		cells := []string{"`" + s.ID + "`"}
		cells = append(cells, rowParams(m, s.ID)...)
		cells = append(cells, fmt.Sprintf("%d of %d", s.Measured, s.Planned), s.Topic, s.Workload)
		rows = append(rows, cells)
	}
	mdTable(b, head, rows)

	p("## %s\n\n", m.heading("environment"))
	mdTable(b, []string{"Item", "Value"}, kvRows(m.Environment))
	if len(m.BrokerConfig) > 0 {
		p("Broker settings (server.properties) set by kbench:\n\n")
		mdTable(b, []string{"Property", "Value"}, kvRows(m.BrokerConfig))
	}

	p("## %s\n\n", m.heading("procedure"))
	p("Each scenario ran on a fresh topic: a warm-up that is discarded, then a measured window, repeated as listed. ")
	p("%s ", m.Order)
	p("To reproduce the whole study run `kbench run study.yaml` in this directory. ")
	p("The commands below reproduce one scenario with kbench and with Kafka's own tools; `%s` is the cluster's address.\n\n", bootstrapVar)
	for _, s := range m.Scenarios {
		p("### %s\n\n", s.ID)
		if s.KbenchCommand == "" {
			p("No repeat finished.\n\n")
			continue
		}
		p("```sh\n# topic\n%s\n# kbench\n%s\n# Kafka's tool\n%s\n```\n\n", s.TopicCommand, s.KbenchCommand, s.PerfTestCommand)
	}

	p("## %s\n\n", m.heading("results"))
	p("%s\n\n", resultsIntro)
	p("### %s\n\n%s\n\n", m.heading("throughput"), throughputIntro)
	mdResultTable(b, throughputTable(m))
	p("### %s\n\n%s\n\n", m.heading("latency"), latencyIntro)
	mdResultTable(b, latencyTable(m))
	if hasRecords(m) {
		p("### %s\n\n%s\n\n", m.heading("records"), recordsIntro)
		mdResultTable(b, recordTable(m))
	}
	if len(m.Capacity) > 0 {
		p("### %s\n\n%s\n\n", m.heading("capacity"), capacityIntro)
		mdResultTable(b, capacityTable(m))
	}
	if len(m.Agents) > 0 {
		p("### %s\n\n%s\n\n", m.heading("agents"), agentsIntro)
		head, rows := agentTable(m)
		for _, r := range rows {
			r[0] = "`" + r[0] + "`"
		}
		mdTable(b, head, rows)
	}
	if len(m.Durability) > 0 {
		p("### %s\n\n%s\n\n", m.heading("durability"), durabilityIntro)
		mdResultTable(b, durabilityTable(m))
	}
	if len(m.Rebalances) > 0 {
		p("### %s\n\n%s\n\n", m.heading("rebalances"), rebalanceIntro)
		mdResultTable(b, rebalanceTable(m))
	}
	if len(m.CatchUp) > 0 {
		p("### %s\n\n%s\n\n", m.heading("catchup"), mdEscape(catchUpIntro))
		mdResultTable(b, catchUpTable(m))
	}
	if len(m.Share) > 0 {
		p("### %s\n\n%s\n\n", m.heading("share"), shareIntro)
		mdResultTable(b, shareTable(m))
	}
	if len(m.Transactions) > 0 {
		p("### %s\n\n%s\n\n", m.heading("transactions"), transactionsIntro)
		mdResultTable(b, transactionsTable(m))
	}
	var invalid []string
	for _, r := range m.Rows {
		for _, iv := range r.Invalid {
			invalid = append(invalid, fmt.Sprintf("- `%s` repeat %d: %s", r.ID, iv.Repeat, mdEscape(strings.Join(iv.Reasons, "; "))))
		}
	}
	if len(invalid) > 0 {
		p("Repeats excluded from the medians:\n\n%s\n\n", strings.Join(invalid, "\n"))
	}

	p("## %s\n\n", m.heading("charts"))
	for _, c := range m.Charts {
		p("![%s](%s/%s.svg)\n\n", mdEscape(c.Title), chartDir, c.Name)
		if c.Caption != "" {
			p("*%s*\n\n", mdEscape(c.Caption))
		}
	}

	p("## %s\n\n", m.heading("conclusions"))
	p("### %s\n\n", m.heading("effects"))
	if len(m.Effects) == 0 {
		p("The study varies no parameter between scenarios that are otherwise equal.\n\n")
	}
	for _, e := range m.Effects {
		p("- %s\n", mdEscape(e.Text))
	}
	if len(m.Effects) > 0 {
		p("\n")
	}
	for _, c := range m.Capacity {
		p("- Capacity: %s\n", mdEscape(c.Text))
	}
	for _, c := range m.CapacityAgreement {
		p("- Capacity: %s\n", mdEscape(c.Text))
	}
	for _, d := range m.Durability {
		p("- Durability: %s\n", mdEscape(d.Text))
	}
	for _, t := range m.Transactions {
		p("- Transactions: %s\n", mdEscape(t.Text))
	}
	if len(m.Capacity) > 0 || len(m.Durability) > 0 || len(m.Transactions) > 0 {
		p("\n")
	}
	p("### %s\n\n", m.heading("limits"))
	rows = nil
	for _, r := range m.Rows {
		rows = append(rows, []string{"`" + r.ID + "`", r.Limit.Resource, r.Limit.Evidence})
	}
	mdTable(b, []string{"Scenario", "Limit", "Evidence"}, rows)
	p("### %s\n\n", m.heading("hypotheses"))
	if len(m.Verdicts) == 0 {
		p("The study states no hypotheses.\n\n")
	}
	for _, v := range m.Verdicts {
		p("- **%s** `%s`", verdictMark(v.Outcome), v.Hypothesis)
		if v.Note != "" {
			p(" (%s)", mdEscape(v.Note))
		}
		p("  \n  %s\n", mdEscape(v.Sentence))
	}
	if len(m.Verdicts) > 0 {
		p("\n")
	}
	if len(m.Noise) > 0 {
		p("**Noise floor.** %s\n\n", mdEscape(noiseIntro))
		rows = nil
		for _, n := range m.Noise {
			rows = append(rows, noiseCells(n))
		}
		mdTable(b, noiseHead, rows)
	}
	if len(m.References) > 0 || len(m.ReferenceNotes) > 0 {
		p("### %s\n\n", m.heading("reference"))
		if m.ReferenceSource != "" {
			p("Source: %s.\n\n", mdEscape(m.ReferenceSource))
		}
		for _, n := range m.ReferenceNotes {
			p("- The source concludes: %s\n", mdEscape(n))
		}
		if len(m.ReferenceNotes) > 0 {
			p("\n")
		}
		rows = nil
		for _, r := range m.References {
			rows = append(rows, []string{"`" + r.Scenario + "`", r.Figure, num(r.Source), measuredNum(r.Ours, r.Measured), ratioText(r.Ratio)})
		}
		if len(rows) > 0 {
			mdTable(b, []string{"Scenario", "Figure", "Source", "This run", "This run / source"}, rows)
		}
		var agree []string
		for _, e := range m.Effects {
			if e.Agrees != nil {
				context := ""
				if e.Context != "" {
					context = " (" + e.Context + ")"
				}
				agree = append(agree, fmt.Sprintf("- %s %s → %s%s: source x%.2f, this run x%.2f: **%s**",
					e.Dimension, e.From, e.To, context, e.SourceRatio, e.RateRatio, agreeText(e)))
			}
		}
		if len(agree) > 0 {
			p("Where the source's direction of effect holds on this cluster:\n\n%s\n\n", strings.Join(agree, "\n"))
		}
	}
	return b.Flush()
}

// mdResultTable writes a results table with the scenario IDs as code.
func mdResultTable(w io.Writer, t textTable) {
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = append([]string{"`" + r[0] + "`"}, r[1:]...)
	}
	mdTable(w, t.Head, rows)
}

func headerLine(m *Model) string {
	parts := []string{"Study `" + m.Study + "`", "status: " + string(m.Status.State)}
	if !m.Started.IsZero() {
		span := m.Started.UTC().Format(time.DateTime)
		if !m.Finished.IsZero() {
			span += " – " + m.Finished.UTC().Format(time.DateTime)
		}
		parts = append(parts, "run "+span+" UTC")
	}
	if m.Kbench != "" {
		parts = append(parts, "kbench "+m.Kbench)
	}
	if !m.Generated.IsZero() {
		parts = append(parts, "report written "+m.Generated.UTC().Format(time.DateTime)+" UTC")
	}
	return "*" + strings.Join(parts, " · ") + "*"
}

func rowParams(m *Model, id string) []string {
	for _, r := range m.Rows {
		if r.ID == id {
			return r.Params
		}
	}
	return make([]string, len(m.ParamNames))
}

func kvRows(kv []KV) [][]string {
	out := make([][]string, 0, len(kv))
	for _, e := range kv {
		out = append(out, []string{e.Key, e.Value})
	}
	return out
}

func mdTable(w io.Writer, head []string, rows [][]string) {
	esc := func(cells []string) []string {
		out := make([]string, len(cells))
		for i, c := range cells {
			if c == "" {
				c = " "
			}
			out[i] = strings.ReplaceAll(c, "|", `\|`)
		}
		return out
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(esc(head), " | "))
	seps := make([]string, len(head))
	for i := range seps {
		seps[i] = "---"
	}
	fmt.Fprintf(w, "|%s|\n", strings.Join(seps, "|"))
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(esc(r), " | "))
	}
	fmt.Fprintln(w)
}

// mdEscape keeps text from being read as Markdown markup.
func mdEscape(s string) string {
	r := strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;")
	return r.Replace(s)
}
