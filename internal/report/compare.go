package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/kbench/kbench/internal/results"
)

// compareMetrics are the figures Compare sets side by side; higherBetter says which way is
// an improvement.
var compareMetrics = []struct {
	name, label  string
	higherBetter bool
	get          func(Row) Stat
}{
	{"records_per_sec", "records/s", true, func(r Row) Stat { return r.RecordsPerSec }},
	{"mib_per_sec", "MiB/s", true, func(r Row) Stat { return r.MiBPerSec }},
	{"p50", "p50 ms", false, func(r Row) Stat { return r.P50 }},
	{"p99", "p99 ms", false, func(r Row) Stat { return r.P99 }},
	{"p999", "p99.9 ms", false, func(r Row) Stat { return r.P999 }},
	{"broker_cpu", "broker CPU cores", false, func(r Row) Stat { return r.BrokerCores }},
	{"client_cpu_per_million", "client CPU s/M", false, func(r Row) Stat { return r.ClientCPUPerM }},
}

// Significance marks of a delta.
const (
	// Significant: the repeats of the two runs do not overlap.
	Significant = "*"
	// WithinNoise: the repeats' ranges overlap, so the delta may be noise.
	WithinNoise = "~"
	// Unknown: a run has a single valid repeat, so its spread is unknown.
	Unknown = "?"
)

// Differs marks a delta of a scenario whose workload or cluster differs between the runs:
// shown, but neither a regression nor an improvement unless CompareOptions.AllowDifferent.
const Differs = "≠"

// Delta is one figure of one scenario in two runs.
type Delta struct {
	Scenario string  `json:"scenario"`
	Metric   string  `json:"metric"`
	Label    string  `json:"label"`
	A        Stat    `json:"a"`
	B        Stat    `json:"b"`
	Change   float64 `json:"change"` // relative, (B-A)/A
	Mark     string  `json:"mark"`
	// Worse is the relative change in the unfavourable direction (positive when B is
	// worse: lower throughput, higher latency or CPU).
	Worse float64 `json:"worse"`
	// Differs is set when the scenario ran a different workload or cluster in B.
	Differs bool `json:"differs,omitempty"`
}

// Broken is a scenario with valid results in A and none in B: the worst regression there is.
type Broken struct {
	Scenario string `json:"scenario"`
	Reason   string `json:"reason"`
	// Differs is set when B ran the scenario with a different workload or cluster.
	Differs bool `json:"differs,omitempty"`
}

// ScenarioDifferences lists what differs in one scenario's workload between the runs.
type ScenarioDifferences struct {
	Scenario    string       `json:"scenario"`
	Differences []Difference `json:"differences"`
}

// CompareOptions change what Compare judges.
type CompareOptions struct {
	// AllowDifferent judges scenarios whose workload or cluster differs between the runs,
	// which Compare otherwise shows but never calls a regression or an improvement.
	AllowDifferent bool
}

// Comparison is the result of Compare.
type Comparison struct {
	A, B   string  `json:"-"`
	Deltas []Delta `json:"deltas"`
	// Broken lists scenarios valid in A and invalid or missing in B.
	Broken []Broken `json:"broken,omitempty"`
	// OnlyB lists scenarios with valid results in B only.
	OnlyB []string `json:"only_b,omitempty"`
	// Cluster lists what differs between the clusters (it concerns every scenario);
	// Workloads what differs in each scenario's workload.
	Cluster        []Difference          `json:"cluster_differences,omitempty"`
	Workloads      []ScenarioDifferences `json:"workload_differences,omitempty"`
	AllowDifferent bool                  `json:"allow_different,omitempty"`
}

// Compare sets the figures of run b beside those of run a, scenario by scenario (matched by
// ID), with a significance mark from the spread of each run's valid repeats. A scenario
// valid in a and invalid or missing in b is broken. Scenarios whose workload differs, and
// every scenario when the clusters differ, are marked and not judged unless
// opts.AllowDifferent.
func Compare(a, b *results.RunDir, opts CompareOptions) (*Comparison, error) {
	ma, err := Build(a, Options{})
	if err != nil {
		return nil, err
	}
	mb, err := Build(b, Options{})
	if err != nil {
		return nil, err
	}
	c := &Comparison{A: a.Dir, B: b.Dir, AllowDifferent: opts.AllowDifferent}
	// When a run varied the cluster's shape, its environment describes only the first
	// cluster: brokers, version and allotment are compared scenario by scenario instead.
	perScenario := recordsShapes(&a.Run) && recordsShapes(&b.Run) && (variesShape(&a.Run) || variesShape(&b.Run))
	ea, eb := a.Run.Environment, b.Run.Environment
	if perScenario {
		for _, e := range []*results.Environment{&ea, &eb} {
			e.Brokers, e.KafkaVersion, e.BrokerCPUs = 0, "", 0
		}
	}
	c.Cluster = clusterDifferences(ea, eb)
	rowsB := map[string]Row{}
	for _, r := range mb.Rows {
		rowsB[r.ID] = r
	}
	seen := map[string]bool{}
	for _, ra := range ma.Rows {
		if ra.Valid == 0 {
			continue
		}
		seen[ra.ID] = true
		rb, ok := rowsB[ra.ID]
		if !ok || rb.Total == 0 {
			c.Broken = append(c.Broken, Broken{Scenario: ra.ID, Reason: "not run in B"})
			continue
		}
		differs := len(c.Cluster) > 0
		ds := workloadDifferences(a.Repeats[ra.ID][0], b.Repeats[ra.ID][0])
		if perScenario {
			ds = append(ds, shapeDifferences(&a.Run, &b.Run, ra.ID)...)
		}
		if len(ds) > 0 {
			c.Workloads = append(c.Workloads, ScenarioDifferences{Scenario: ra.ID, Differences: ds})
			differs = true
		}
		if rb.Valid == 0 {
			c.Broken = append(c.Broken, Broken{Scenario: ra.ID, Reason: "no valid repeat in B: " + invalidText(rb.Invalid), Differs: differs})
			continue
		}
		c.Deltas = append(c.Deltas, scenarioDeltas(ra, rb, differs, opts.AllowDifferent)...)
	}
	for _, r := range mb.Rows {
		if r.Valid > 0 && !seen[r.ID] {
			c.OnlyB = append(c.OnlyB, r.ID)
		}
	}
	return c, nil
}

// scenarioDeltas sets one scenario's figures in two runs side by side; differs flags them
// all, and marks them as not judged unless allow.
func scenarioDeltas(ra, rb Row, differs, allow bool) []Delta {
	var out []Delta
	for _, m := range compareMetrics {
		sa, sb := m.get(ra), m.get(rb)
		if sa.N == 0 || sb.N == 0 {
			continue
		}
		d := Delta{Scenario: ra.ID, Metric: m.name, Label: m.label, A: sa, B: sb,
			Change: change(sa.Median, sb.Median), Mark: significance(sa, sb), Differs: differs}
		if differs && !allow {
			d.Mark = Differs
		}
		d.Worse = d.Change
		if m.higherBetter {
			d.Worse = -d.Change
		}
		out = append(out, d)
	}
	return out
}

// invalidText gives the reasons of a scenario's invalid repeats on one line.
func invalidText(reps []InvalidRepeat) string {
	var parts []string
	for _, r := range reps {
		parts = append(parts, fmt.Sprintf("repeat %d: %s", r.Repeat, strings.Join(r.Reasons, ", ")))
	}
	if len(parts) == 0 {
		return "no reason recorded"
	}
	return strings.Join(parts, "; ")
}

// significance marks a delta: significant when the two runs' repeat ranges do not overlap.
func significance(a, b Stat) string {
	switch {
	case a.N < 2 || b.N < 2:
		return Unknown
	case a.Max < b.Min || b.Max < a.Min:
		return Significant
	}
	return WithinNoise
}

// Regressions returns the deltas worse than limit (0.05 for 5%), leaving out those whose
// repeats overlap (marked WithinNoise): with a spread known, only a change beyond it counts.
// A delta across a different workload or cluster never counts unless AllowDifferent.
func (c *Comparison) Regressions(limit float64) []Delta {
	var out []Delta
	for _, d := range c.Deltas {
		if d.Worse > limit && d.Mark != WithinNoise && (!d.Differs || c.AllowDifferent) {
			out = append(out, d)
		}
	}
	return out
}

// BrokenRegressions returns the broken scenarios that count as regressions: all of them,
// except one whose workload or cluster differs in B, unless AllowDifferent.
func (c *Comparison) BrokenRegressions() []Broken {
	var out []Broken
	for _, b := range c.Broken {
		if !b.Differs || c.AllowDifferent {
			out = append(out, b)
		}
	}
	return out
}

// NotJudged lists the scenarios compare shows but does not judge because their workload or
// cluster differs between the runs; empty when AllowDifferent.
func (c *Comparison) NotJudged() []string {
	if c.AllowDifferent {
		return nil
	}
	var out []string
	for _, d := range c.Deltas {
		if d.Differs && !slices.Contains(out, d.Scenario) {
			out = append(out, d.Scenario)
		}
	}
	for _, b := range c.Broken {
		if b.Differs && !slices.Contains(out, b.Scenario) {
			out = append(out, b.Scenario)
		}
	}
	return out
}

// WriteText prints the comparison as an aligned table with a legend.
func (c *Comparison) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "A: %s\nB: %s\n\n", c.A, c.B)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\tmetric\tA\tB\tchange\t\t")
	for _, d := range c.Deltas {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", d.Scenario, d.Label, statText(d.A), statText(d.B), pct(d.Change), d.Mark)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("unable to write comparison: %w", err)
	}
	judged := "not judged: --allow-different judges them"
	if c.AllowDifferent {
		judged = "judged anyway (--allow-different)"
	}
	if len(c.Cluster) > 0 {
		fmt.Fprintf(w, "\nthe clusters differ (%s): every scenario is %s\n", joinDifferences(c.Cluster), judged)
	}
	if len(c.Workloads) > 0 {
		fmt.Fprintf(w, "\nthe workload differs (%s):\n", judged)
		for _, sd := range c.Workloads {
			fmt.Fprintf(w, "  %s: %s\n", sd.Scenario, joinDifferences(sd.Differences))
		}
	}
	if len(c.Broken) > 0 {
		fmt.Fprintf(w, "\nvalid in A, no valid result in B:\n")
		for _, b := range c.Broken {
			fmt.Fprintf(w, "  %s: %s\n", b.Scenario, b.Reason)
		}
	}
	if len(c.OnlyB) > 0 {
		fmt.Fprintf(w, "\nonly in B: %s\n", strings.Join(c.OnlyB, ", "))
	}
	_, err := fmt.Fprintf(w, "\n%s the repeats do not overlap (significant)   %s they overlap (may be noise)   %s one repeat only (spread unknown)   %s workload or cluster differs (not judged)\n",
		Significant, WithinNoise, Unknown, Differs)
	return err
}
