package report

import (
	"fmt"
	"io"
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
}

// Comparison is the result of Compare.
type Comparison struct {
	A, B   string  `json:"-"`
	Deltas []Delta `json:"deltas"`
	// OnlyA and OnlyB list scenarios with valid results in one run only.
	OnlyA []string `json:"only_a,omitempty"`
	OnlyB []string `json:"only_b,omitempty"`
}

// Compare sets the figures of run b beside those of run a, scenario by scenario (matched by
// ID), with a significance mark from the spread of each run's valid repeats.
func Compare(a, b *results.RunDir) (*Comparison, error) {
	ma, err := Build(a, Options{})
	if err != nil {
		return nil, err
	}
	mb, err := Build(b, Options{})
	if err != nil {
		return nil, err
	}
	c := &Comparison{A: a.Dir, B: b.Dir}
	rowsB := map[string]Row{}
	for _, r := range mb.Rows {
		if r.Valid > 0 {
			rowsB[r.ID] = r
		}
	}
	seen := map[string]bool{}
	for _, ra := range ma.Rows {
		if ra.Valid == 0 {
			continue
		}
		seen[ra.ID] = true
		rb, ok := rowsB[ra.ID]
		if !ok {
			c.OnlyA = append(c.OnlyA, ra.ID)
			continue
		}
		for _, m := range compareMetrics {
			sa, sb := m.get(ra), m.get(rb)
			if sa.N == 0 || sb.N == 0 {
				continue
			}
			d := Delta{Scenario: ra.ID, Metric: m.name, Label: m.label, A: sa, B: sb,
				Change: change(sa.Median, sb.Median), Mark: significance(sa, sb)}
			d.Worse = d.Change
			if m.higherBetter {
				d.Worse = -d.Change
			}
			c.Deltas = append(c.Deltas, d)
		}
	}
	for _, r := range mb.Rows {
		if r.Valid > 0 && !seen[r.ID] {
			c.OnlyB = append(c.OnlyB, r.ID)
		}
	}
	return c, nil
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
func (c *Comparison) Regressions(limit float64) []Delta {
	var out []Delta
	for _, d := range c.Deltas {
		if d.Worse > limit && d.Mark != WithinNoise {
			out = append(out, d)
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
	if len(c.OnlyA) > 0 {
		fmt.Fprintf(w, "\nonly in A: %s\n", strings.Join(c.OnlyA, ", "))
	}
	if len(c.OnlyB) > 0 {
		fmt.Fprintf(w, "\nonly in B: %s\n", strings.Join(c.OnlyB, ", "))
	}
	_, err := fmt.Fprintf(w, "\n%s the repeats do not overlap (significant)   %s they overlap (may be noise)   %s one repeat only (spread unknown)\n",
		Significant, WithinNoise, Unknown)
	return err
}
