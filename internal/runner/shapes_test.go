package runner

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/study"
)

// shapesStudy sweeps brokers (two shapes) and acks: scenarios 0, 1 have 1 broker, 2, 3 have 3.
const shapesStudy = "name: t-shapes\nrepeats: 3\nwarmup: 0s\ncooldown: 0s\n" +
	"defaults:\n  topic: {partitions: 1, replicas: 1}\n  producers: {record_size: 10, records: 20}\n" +
	"matrix:\n  brokers: [1, 3]\n  acks: [\"1\", all]\n"

// PlanOrder runs one shape group after the other, each group's repeats in Order's seeded
// interleaving of that group's scenarios alone.
func TestPlanOrderGroups(t *testing.T) {
	plan := parseStudy(t, shapesStudy)
	steps := PlanOrder(plan, 42)
	// 4 scenarios x 3 repeats = 12 steps: the first 6 are group 0 (scenarios 0, 1).
	if len(steps) != 12 {
		t.Fatalf("%d steps, want 12", len(steps))
	}
	// Group 0 is Order over its two IDs, indexes unchanged; group 1 is Order over its two
	// IDs with indexes 0, 1 mapped to the plan's 2, 3.
	g0 := Order([]string{plan.Scenarios[0].ID, plan.Scenarios[1].ID}, 3, 42)
	g1 := Order([]string{plan.Scenarios[2].ID, plan.Scenarios[3].ID}, 3, 42)
	for k, s := range steps {
		want := g0[min(k, 5)]
		if k >= 6 {
			want = g1[k-6]
			want.Index += 2
			want.Group = 1
		}
		if s != want {
			t.Errorf("step %d: %+v, want %+v", k, s, want)
		}
	}
	// One shape: PlanOrder is Order over all scenarios.
	one := parseStudy(t, "name: t-one\nrepeats: 2\ndefaults:\n  topic: {replicas: 1}\nmatrix:\n  acks: [\"1\", all]\n")
	if !slices.Equal(PlanOrder(one, 7), Order([]string{"acks=1", "acks=all"}, 2, 7)) {
		t.Error("one shape: PlanOrder differs from Order")
	}
	var b strings.Builder
	if err := WriteOrder(&b, steps, 42); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), "cluster group"); n != 2 || strings.Count(b.String(), "round") != 7 {
		t.Errorf("order text has %d group headers, want 2 (and 6 rounds):\n%s", n, b.String())
	}
}

// A resume starts the cluster of the first group with a repeat left: none for a group
// whose repeats are all done.
func TestFirstPendingShape(t *testing.T) {
	plan := parseStudy(t, shapesStudy)
	all := []int{1, 2, 3}
	for _, tc := range []struct {
		name    string
		done    [][]int
		brokers int
	}{
		{"new run", make([][]int, 4), 1},
		{"first group done", [][]int{all, all, nil, {1}}, 3},
		{"one repeat left in the first group", [][]int{all, {1, 3}, all, all}, 1},
		{"everything done", [][]int{all, all, all, all}, 1},
	} {
		if got := firstPendingShape(plan, tc.done); got.Brokers != tc.brokers {
			t.Errorf("%s: starts %d brokers, want %d", tc.name, got.Brokers, tc.brokers)
		}
	}
}

// A study that varies the cluster's shape is refused on a cluster kbench did not start,
// in one line, before anything connects.
func TestRefuseShapesExternal(t *testing.T) {
	plan := parseStudy(t, shapesStudy)
	_, err := Run(context.Background(), Options{Plan: plan, External: &External{Bootstrap: "127.0.0.1:1"}, RunsDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "varies the cluster's shape (2 shapes)") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("error %v, want one line refusing the varying shape", err)
	}
	one := parseStudy(t, "name: t-one\ndefaults:\n  topic: {replicas: 1}\nmatrix:\n  acks: [\"1\", all]\n")
	if err := refuseShapes(Options{Plan: one, External: &External{}}); err != nil {
		t.Errorf("one shape refused: %v", err)
	}
}

// TestStudyDefaultsAreTheClusters: study may not import cluster (docs/architecture.md), so it
// repeats the embedded cluster's defaults that a plan describes before any cluster starts;
// the two must not drift apart.
func TestStudyDefaultsAreTheClusters(t *testing.T) {
	for _, tt := range []struct{ name, study, cluster string }{
		{"heap", study.DefaultHeap, cluster.DefaultHeap},
		{"kafka version", study.DefaultKafkaVersion, cluster.DefaultKafkaVersion},
	} {
		if tt.study != tt.cluster {
			t.Errorf("default %s: study %q, cluster %q", tt.name, tt.study, tt.cluster)
		}
	}
}
