package runner

import (
	"fmt"
	"strings"

	"github.com/kbench/kbench/internal/study"
)

// describeLoad is the plan shown before loading a cluster that is not on loopback: the
// topics, rates, bytes and duration, so the operator knows what is about to happen.
func describeLoad(plan *study.Plan, bootstrap string, maxRate float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "kbench is about to load the cluster at %s with study %q:\n", bootstrap, plan.Name)
	fmt.Fprintf(&b, "  %d scenario(s) x %d repeat(s), each on its own new topic (prefix kbench-), deleted afterwards\n",
		len(plan.Scenarios), plan.Repeats)
	var bytes float64
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
			if r > 0 {
				bytes += r * p.Duration.Seconds() * float64(p.RecordSize) * float64(plan.Repeats)
			}
		} else {
			bytes += float64(p.Records) * float64(p.RecordSize) * float64(plan.Repeats)
		}
		fmt.Fprintf(&b, "  - %s: %d partitions x %d replicas, %d producer(s), %d consumer(s), %d B records, %s, %s\n",
			sc.ID, sc.Topic.Partitions, sc.Topic.Replicas, p.Count, sc.Consumers.Count, p.RecordSize, rate, amount)
	}
	if bytes > 0 {
		fmt.Fprintf(&b, "  at least %.1f MiB produced in all (unlimited-rate scenarios add more)\n", bytes/(1<<20))
	}
	fmt.Fprintf(&b, "  estimated duration: %s\n", plan.EstimatedDuration().Round(1e9))
	return b.String()
}
