package runner

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// TestRunCapacitySearch runs a produce+consume scenario with a capacity search, held to
// --max-rate 2000: the unthrottled trial runs at 2000 records/s and no trial above it runs
// (a search that would go higher stops, saying why). The search's consumer group is deleted.
func TestRunCapacitySearch(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := `
name: t-capacity
repeats: 1
warmup: 1s
cooldown: 0s
cluster: {brokers: 2}
defaults:
  topic: {partitions: 2, replicas: 1}
  producers: {record_size: 200, duration: 2s, rate: 500}
  consumers: {count: 1}
  capacity: {slo: {p99: 500ms}, trial: 4s, max_trials: 4}
`
	opts := options(t, parseStudy(t, text), text)
	opts.MaxRate = 2000
	out, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	rep := repeats(t, readRun(t, out.Dir), "default", 1)[0]
	checkValid(t, rep)
	c := rep.Capacity
	if c == nil {
		t.Fatal("the repeat has no capacity search")
	}
	// How far the search gets depends on this machine's load; what holds whatever it finds:
	// the first trial is the unthrottled one, no trial is above the cap, at most max_trials
	// ran, and each bracket end is a rate that was tried or an unthrottled trial's achieved
	// rate (the search's opening runs two of those: with 4 trials the upper end can be one).
	if n := len(c.Trials); n < 2 || n > 4 || c.Trials[0].Offered != 0 {
		t.Fatalf("trials %+v, want the unthrottled one first and 2 to 4 in all", c.Trials)
	}
	tried := map[float64]bool{0: true}
	for _, tr := range c.Trials {
		if tr.Offered > 2000 {
			t.Errorf("trial %d offered %v records/s, above --max-rate 2000", tr.N, tr.Offered)
		}
		tried[tr.Offered] = true
		if tr.Offered == 0 {
			tried[math.Round(tr.Achieved)] = true
		}
	}
	if len(c.Brackets) != 1 || !tried[c.Brackets[0].Lower] || !tried[c.Brackets[0].Upper] {
		t.Errorf("brackets %+v, want one whose ends are rates tried", c.Brackets)
	}
	if c.Error != "" && !strings.Contains(c.Error, "above --max-rate 2000") {
		t.Errorf("error %q, want none or the search stopped by --max-rate", c.Error)
	}
	groups, err := admin(t).ListGroups(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups.Groups() {
		if strings.HasSuffix(g, "-capacity") {
			t.Errorf("consumer group %s left behind", g)
		}
	}
}
