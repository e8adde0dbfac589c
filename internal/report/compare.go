package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/kbench/kbench/internal/claim"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/stats"
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

// Significance marks of a delta, from the one-sided rank tests the verdicts use.
const (
	// Significant: one run's repeats beat the other's by the exact one-sided Mann-Whitney
	// test at p <= claim.Alpha, either way.
	Significant = "*"
	// WithinNoise: neither way reaches it, so the delta may be noise.
	WithinNoise = "~"
	// Unknown: too few repeats for the test to reach p <= claim.Alpha at all (fewer than
	// 3 against 3).
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
	// PWorse is the one-sided rank test's p-value for "B is worse than A" (1 when it cannot
	// run); Detectable the smallest worsening these repeats could have shown at
	// claim.Alpha, relative like Worse (0.18), 0 when they could show none.
	PWorse     float64 `json:"p_worse"`
	Detectable float64 `json:"detectable"`
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
			Change: change(sa.Median, sb.Median), Differs: differs}
		d.Mark, d.PWorse, d.Detectable = judgeDelta(metricValues(ra, m.name), metricValues(rb, m.name), m.higherBetter)
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

// metricValues are a scenario's valid repeats' values of a figure.
func metricValues(r Row, name string) []float64 {
	var out []float64
	for _, rep := range r.repeatsForPlot {
		if v, ok := metric(rep, name); ok {
			out = append(out, v)
		}
	}
	return out
}

// judgeDelta tests B against A with the verdicts' statistics: the exact one-sided
// Mann-Whitney test each way (the mark), its p-value for "B worse", and the noise floor of
// a worsening (stats.DetectableRatio, as a relative change: a throughput ratio r is a drop
// of 1 - 1/r, a latency ratio a rise of r - 1).
func judgeDelta(a, b []float64, higherBetter bool) (mark string, pWorse, detectable float64) {
	if stats.MinWins(len(a), len(b), claim.Alpha) == 0 {
		return Unknown, 1, 0
	}
	tail := func(x, y []float64) float64 { return stats.MannWhitneyTail(len(x), len(y), stats.Wins(x, y, false)) }
	better, worse := a, b // B worse: B below A (throughput) or above it (latency, CPU)
	if !higherBetter {
		better, worse = b, a
	}
	// "better beats worse" is "B is worse"; the opposite is "B is better".
	pWorse, pBetter := tail(better, worse), tail(worse, better)
	mark = WithinNoise
	if pWorse <= claim.Alpha*(1+1e-9) || pBetter <= claim.Alpha*(1+1e-9) {
		mark = Significant
	}
	if r, ok := stats.DetectableRatio(worse, better, claim.Alpha); ok {
		if higherBetter {
			detectable = 1 - 1/r
		} else {
			detectable = r - 1
		}
	}
	return mark, pWorse, detectable
}

// Regressions returns the deltas worse than limit (0.05 for 5%) whose repeats show it: the
// one-sided rank test of "B is worse" at p <= claim.Alpha, as a verdict would. A delta
// across a different workload or cluster never counts unless AllowDifferent.
func (c *Comparison) Regressions(limit float64) []Delta {
	var out []Delta
	for _, d := range c.Deltas {
		if d.Worse > limit && d.PWorse <= claim.Alpha*(1+1e-9) && c.judged(d) {
			out = append(out, d)
		}
	}
	return out
}

// Blind returns the judged deltas that could not have shown a worsening of limit: their
// noise floor is above it, or their repeats too few for any. A gate that passes them has
// not looked.
func (c *Comparison) Blind(limit float64) []Delta {
	var out []Delta
	for _, d := range c.Deltas {
		// A figure at zero in a run was not measured there (no CPU sampled): nothing to see.
		measured := d.A.Median > 0 && d.B.Median > 0
		if c.judged(d) && measured && (d.Detectable == 0 || d.Detectable > limit) {
			out = append(out, d)
		}
	}
	return out
}

func (c *Comparison) judged(d Delta) bool { return !d.Differs || c.AllowDifferent }

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
	fmt.Fprintln(tw, "scenario\tmetric\tA\tB\tchange\t\tcould see\t")
	for _, d := range c.Deltas {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", d.Scenario, d.Label, statText(d.A), statText(d.B), pct(d.Change), d.Mark, floorText(d.Detectable))
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
	_, err := fmt.Fprintf(w, "\n%s one run's repeats beat the other's (rank test, p <= %g)   %s they do not (may be noise)   %s too few repeats to tell   %s workload or cluster differs (not judged)\ncould see: the smallest worsening these repeats could have shown at that level\n",
		Significant, claim.Alpha, WithinNoise, Unknown, Differs)
	return err
}

// floorText is a noise floor: "≥ 18%", "none" when the repeats can show no change.
func floorText(d float64) string {
	if d == 0 {
		return "none"
	}
	return "≥ " + strings.TrimPrefix(pct(d), "+")
}
