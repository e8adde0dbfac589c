package study

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/kbench/kbench/internal/claim"
	"github.com/kbench/kbench/internal/rebalance"
	"github.com/kbench/kbench/internal/stats"
)

// Describe writes the plan as people read it before a run (kbench run --dry-run): the
// cluster, every expanded scenario with its topic and load, the hypotheses, the notes and
// the estimated duration.
func (p *Plan) Describe(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "study %s: %s\n", p.Name, p.Title)
	if p.Source != "" {
		fmt.Fprintf(&b, "source: %s\n", p.Source)
	}
	fmt.Fprintf(&b, "cluster: %s\n", p.Cluster.describe())
	if p.MinRepeats > 0 {
		fmt.Fprintf(&b, "each scenario: fresh topic, warm-up %s (discarded), measured window, cool-down %s; %d to %d repeats: a round more while a hypothesis is undecided, the level split over the %d looks that can decide, each tested at p <= %s (the estimate is the most)\n",
			p.Warmup, p.Cooldown, p.MinRepeats, p.Repeats, p.Looks(), strconv.FormatFloat(stats.LookAlpha(0.05, p.Looks()), 'g', 3, 64))
	} else {
		fmt.Fprintf(&b, "each scenario: fresh topic, warm-up %s (discarded), measured window, cool-down %s; %d repeat%s\n",
			p.Warmup, p.Cooldown, p.Repeats, plural(p.Repeats))
	}
	fmt.Fprintf(&b, "\n%d scenario%s:\n", len(p.Scenarios), plural(len(p.Scenarios)))
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  #\tid\ttopic\tload\testimate")
	for i, s := range p.Scenarios {
		fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\n", i+1, s.ID, s.Topic.describe(), s.describeLoad(), roundDuration(p.scenarioDuration(s)))
	}
	tw.Flush()
	var short []string
	for i, s := range p.Scenarios {
		if why := p.ShortWindow(s); why != "" {
			short = append(short, fmt.Sprintf("  %d %s: %s\n", i+1, s.ID, why))
		}
	}
	if len(short) > 0 {
		fmt.Fprintf(&b, "\nwindows too short for what they measure (lengthen the scenario's records or duration):\n%s", strings.Join(short, ""))
	}
	p.describeGroups(&b)
	if len(p.Hypotheses) > 0 {
		fmt.Fprintf(&b, "\nhypotheses:\n")
		for _, h := range p.Hypotheses {
			fmt.Fprintf(&b, "  - %s\n", h.Text)
			p.describeSides(&b, h)
		}
	}
	if len(p.Reference.Scenarios) > 0 {
		fmt.Fprintf(&b, "\nreference figures for %d scenario%s", len(p.Reference.Scenarios), plural(len(p.Reference.Scenarios)))
		if p.Reference.Source != "" {
			fmt.Fprintf(&b, " (%s)", p.Reference.Source)
		}
		b.WriteString("\n")
	}
	if len(p.Notes) > 0 {
		fmt.Fprintf(&b, "\nnotes:\n")
		for _, n := range p.Notes {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	runs := len(p.Scenarios) * p.Repeats
	fmt.Fprintf(&b, "\nestimated duration: %s (%d scenario run%s", roundDuration(p.EstimatedDuration()), runs, plural(runs))
	if p.Cluster.External == nil {
		if n := len(p.ShapeGroups()); n > 1 {
			fmt.Fprintf(&b, ", %d clusters started, warmed and stopped %s", n, roundDuration(p.ClusterOverhead()))
		} else {
			fmt.Fprintf(&b, ", cluster start and warm-up %s", EstimateClusterStart+p.Cluster.JITWarmup)
		}
	}
	b.WriteString(")\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// describeGroups lists the clusters a study that varies the cluster's shape starts, one
// after another, with the scenarios each runs (numbered as in the scenario table).
func (p *Plan) describeGroups(b *strings.Builder) {
	groups := p.ShapeGroups()
	if len(groups) < 2 {
		return
	}
	fmt.Fprintf(b, "\n%d cluster groups, each started and warmed up (at most %s unmeasured) before its scenarios and stopped after them; repeats interleave within a group:\n",
		len(groups), p.Cluster.JITWarmup)
	for i, g := range groups {
		nums := make([]string, len(g.Indexes))
		for j, k := range g.Indexes {
			nums[j] = strconv.Itoa(k + 1)
		}
		fmt.Fprintf(b, "  group %d: %s; scenarios %s; estimate %s\n", i+1, g.Shape, strings.Join(nums, " "), roundDuration(p.GroupDuration(g)))
	}
}

func (c Cluster) describe() string {
	if e := c.External; e != nil {
		s := "external, bootstrap " + e.Bootstrap
		if e.CommandConfig != "" {
			s += ", client config " + e.CommandConfig
		}
		if c.Brokers > 0 {
			s += fmt.Sprintf(", %d brokers expected", c.Brokers)
		}
		return s
	}
	s := fmt.Sprintf("embedded, %d broker%s, Kafka %s, heap %s", c.Brokers, plural(c.Brokers), c.KafkaVersion, c.Heap)
	if c.SASL != "" {
		s += ", SASL " + c.SASL
	}
	if c.TLS {
		s += ", TLS"
	}
	if c.Limits.Any() || c.Limits.Disk.Tmpfs {
		s += ", each broker " + c.Limits.String()
	}
	if c.Network != nil {
		s += ", clients in another zone (" + c.Network.String() + ")"
	}
	if c.BrokerNetwork != nil {
		s += ", each broker in its own zone (" + c.BrokerNetwork.String() + ")"
	}
	if len(c.BrokerConfigs) > 0 {
		s += ", " + kv(c.BrokerConfigs)
	}
	return s
}

func (t Topic) describe() string {
	s := fmt.Sprintf("%dp x%dr", t.Partitions, t.Replicas)
	if len(t.Configs) > 0 {
		s += " " + kv(t.Configs)
	}
	return s
}

func (s Scenario) describeLoad() string {
	var parts []string
	if n := s.Producers.Count; n > 0 {
		p := s.Producers
		d := fmt.Sprintf("%d producer%s, %s records", n, plural(n), FormatSize(int64(p.RecordSize)))
		if p.Keys != "none" {
			d += ", " + p.Keys + " keys"
		}
		if p.Rate > 0 {
			d += fmt.Sprintf(", %d/s", p.Rate)
		}
		if p.Throttle > 0 {
			d += fmt.Sprintf(", at most %d/s", p.Throttle)
		}
		d += ", " + amount(p.Records, p.Duration)
		if p.Transaction.Enabled() {
			d += ", " + p.Transaction.String()
		}
		if len(p.Properties) > 0 {
			d += ", " + kv(p.Properties)
		}
		parts = append(parts, d)
	}
	if n := s.Consumers.Count; n > 0 {
		c := s.Consumers
		d := fmt.Sprintf("%d consumer%s", n, plural(n))
		if c.Share {
			d = fmt.Sprintf("%d share consumer%s", n, plural(n))
		}
		if s.Producers.Count == 0 {
			d += " of a prefilled topic"
		}
		if c.Backlog > 0 {
			d += " starting once a " + FormatSize(c.Backlog) + " backlog is written, reading until caught up (catch-up read)"
		} else {
			d += ", " + amount(c.Records, c.Duration)
		}
		if c.Release > 0 || c.Reject > 0 {
			d += fmt.Sprintf(", releasing %g%% and rejecting %g%% of deliveries", c.Release*100, c.Reject*100)
		}
		if c.FetchSize > 0 {
			d += ", fetch " + FormatSize(int64(c.FetchSize))
		}
		if len(c.Properties) > 0 {
			d += ", " + kv(c.Properties)
		}
		if len(c.Events) > 0 {
			d += ", events " + rebalance.FormatSchedule(c.Events)
		}
		parts = append(parts, d)
	}
	if c := s.Capacity; c.Enabled() {
		parts = append(parts, fmt.Sprintf("then a capacity search at %s (precision %g%%, %s trials, exceed ratio %g%%, %s confirmation, budget %s)",
			c.SLOString(), c.Precision*100, c.Trial, c.ExceedRatio*100, c.Confirm, c.MaxDuration))
	}
	if v := s.Verify; v.Enabled() {
		faults := "no faults"
		if v.Faults != "" {
			faults = "faults " + strconv.Quote(v.Faults)
		}
		parts = append(parts, fmt.Sprintf("then a durability check at %d records/s for %s under %s", v.Rate, v.Duration, faults))
	}
	return strings.Join(parts, "; ")
}

func amount(records int64, d time.Duration) string {
	if records > 0 {
		return strconv.FormatInt(records, 10) + " records"
	}
	return "for " + d.String()
}

func kv(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, " ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func roundDuration(d time.Duration) time.Duration { return d.Round(time.Second) }

// describeSides says which scenarios each measured side of a hypothesis compares, so a
// reader sees what a selector resolved to before anything runs.
func (p *Plan) describeSides(b *strings.Builder, h claim.Claim) {
	left, right, err := h.Resolve(p.claimScenarios())
	if err != nil {
		return // Load refuses such a claim; a hand-built plan may still hold one
	}
	for i, side := range []claim.Side{h.Left, h.Right} {
		ids := [][]string{left, right}[i]
		if side.IsConstant() {
			continue
		}
		name := []string{"left", "right"}[i]
		if side.Aggregate != "" {
			fmt.Fprintf(b, "      %s: %s per round of %s\n", name, side.Aggregate, strings.Join(ids, " | "))
		} else {
			fmt.Fprintf(b, "      %s: %s\n", name, ids[0])
		}
	}
}
