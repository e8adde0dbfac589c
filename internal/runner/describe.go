package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kbench/kbench/internal/study"
)

// describeLoad is the plan shown before loading a cluster kbench did not start: the topics
// and groups it creates and deletes, rates, bytes and duration, so the operator knows what
// is about to happen.
func describeLoad(plan *study.Plan, bootstrap string, maxRate float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kbench is about to load the cluster at %s with study %q:\n", bootstrap, plan.Name)
	fmt.Fprintf(&b, "  %d scenario(s) x %d repeat(s), each on its own new topic kbench-<run>-..., deleted afterwards\n",
		len(plan.Scenarios), plan.Repeats)
	var named []string
	for _, sc := range plan.Scenarios {
		p := sc.Producers
		rate := "unlimited"
		r := cappedRate(sc, maxRate)
		if r > 0 {
			rate = fmt.Sprintf("%.0f records/s", r)
		}
		amount := fmt.Sprintf("%d records", p.Records)
		if p.Records == 0 {
			amount = p.Duration.String()
		}
		if sc.Kind() == "consume" {
			amount = fmt.Sprintf("a fill of %d records, then read", fillRecords(sc))
		}
		fmt.Fprintf(&b, "  - %s: %d partitions x %d replicas, %d producer(s), %d consumer(s), %d B records, %s, %s\n",
			sc.ID, sc.Topic.Partitions, sc.Topic.Replicas, p.Count, sc.Consumers.Count, p.RecordSize, rate, amount)
		if c := sc.Capacity; c.Enabled() {
			fmt.Fprintf(&b, "    then a capacity search at %s: up to %d trials of %s at rates it picks, the first unthrottled%s\n",
				c.SLOString(), c.MaxTrials, c.Trial, capacityCapText(maxRate))
		}
		if g := sc.Consumers.Group; g != "" && !slices.Contains(named, g) {
			named = append(named, g)
		}
	}
	written, open := plannedBytes(plan, maxRate)
	if written > 0 {
		more := ""
		if open {
			more = " (unlimited-rate scenarios add more)"
		}
		fmt.Fprintf(&b, "  %.1f MiB written in all, consume-only fills included%s\n", written/(1<<20), more)
	}
	if len(named) > 0 {
		fmt.Fprintf(&b, "  consumer group(s) named by the study: %s (refused if they exist already)\n", strings.Join(named, ", "))
	}
	fmt.Fprintf(&b, "  other consumer groups kbench-<run>-..., deleted afterwards; nothing else is created, changed or deleted\n")
	fmt.Fprintf(&b, "  estimated duration: %s\n", plan.EstimatedDuration().Round(1e9))
	return b.String()
}

// plannedBytes is the record payload a run writes to the cluster over all repeats: the
// producers' records (or rate x duration) and the fills of consume-only scenarios. open is
// true when an unlimited-rate, duration-bound scenario writes an amount no one can know.
func plannedBytes(plan *study.Plan, maxRate float64) (written float64, open bool) {
	for _, sc := range plan.Scenarios {
		p := sc.Producers
		size, repeats := float64(p.RecordSize), float64(plan.Repeats)
		switch {
		case sc.Kind() == "consume":
			written += float64(fillRecords(sc)) * size * repeats
		case p.Records > 0:
			written += float64(p.Records) * size * repeats
		case cappedRate(sc, maxRate) > 0:
			written += cappedRate(sc, maxRate) * (plan.Warmup + p.Duration).Seconds() * size * repeats
		default:
			open = true
		}
		if sc.Capacity.Enabled() {
			open = true // the search picks its rates
		}
	}
	return written, open
}
