package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
)

// A study whose scenarios differ in cluster shape (brokers, kafka_version, heap,
// broker_cpus, cpuset, disk) runs group by group: one embedded cluster per shape, started
// and warmed before the group's first repeat and stopped after its last, so a restart is
// never inside a measured window. Within a group the repeats interleave as in Order.

// PlanOrder is the run order of a whole plan: its shape groups one after another (study
// order of first appearance), each group's repeats in Order's seeded interleaved order.
// With one shape it is Order over all scenarios.
func PlanOrder(plan *study.Plan, seed uint64) []Step {
	var steps []Step
	for gi, g := range plan.ShapeGroups() {
		ids := make([]string, len(g.Indexes))
		for j, i := range g.Indexes {
			ids[j] = plan.Scenarios[i].ID
		}
		for _, s := range Order(ids, plan.Repeats, seed) {
			s.Index, s.Group = g.Indexes[s.Index], gi
			steps = append(steps, s)
		}
	}
	return steps
}

// refuseShapes refuses a study that varies the cluster's shape on a cluster kbench did not
// start for the run: it cannot restart that cluster with other brokers or another version.
func refuseShapes(opts Options) error {
	if !opts.Plan.VariesShape() || (opts.External == nil && opts.Cluster == nil) {
		return nil
	}
	return fmt.Errorf("study %s varies the cluster's shape (%d shapes) and runs only on embedded clusters kbench starts itself, one per shape: run it without --bootstrap-server",
		opts.Plan.Name, len(opts.Plan.ShapeGroups()))
}

// doneRepeats lists each scenario's finished repeats in dir (none for a new run).
func doneRepeats(plan *study.Plan, dir string) ([][]int, error) {
	done := make([][]int, len(plan.Scenarios))
	if dir == "" {
		return done, nil
	}
	for i, sc := range plan.Scenarios {
		var err error
		if done[i], err = results.ListRepeats(dir, sc.ID); err != nil {
			return nil, err
		}
	}
	return done, nil
}

// firstPendingShape is the shape of the first group with a repeat left to run: the cluster
// a run (or resume) starts first. A resume whose repeats are all done gets the first's.
func firstPendingShape(plan *study.Plan, done [][]int) study.Shape {
	groups := plan.ShapeGroups()
	for _, s := range PlanOrder(plan, 0) {
		if !slices.Contains(done[s.Index], s.Repeat) {
			return groups[s.Group].Shape
		}
	}
	if len(groups) == 0 {
		return study.Shape{}
	}
	return groups[0].Shape
}

// restart stops the running group's cluster and starts and warms the next shape's, between
// two repeats (after the previous one's cool-down).
func (r *runner) restart(ctx context.Context, shape study.Shape) error {
	r.cleanup()
	r.owned.Forget()
	r.target.close(r.opts.Log)
	r.target.client, r.target.embedded = nil, nil // closed: not again at the run's end
	t, err := startEmbedded(ctx, r.opts, shape)
	if err != nil {
		return err
	}
	r.target = t
	if err := t.openAdmin(); err != nil {
		return err
	}
	if err := t.identify(ctx); err != nil {
		return err
	}
	if err := t.checkListeners(r.plan, shape); err != nil {
		return err
	}
	return r.warmCluster(ctx)
}

// recordShape writes to run.json the cluster the group's scenarios ran on, as started:
// broker count, Kafka version, heap, limits and CPU allotment. It also sets the brokers'
// allotments, which their cpu_pct is relative to, before the group's first repeat.
func (r *runner) recordShape(run *results.Run, g study.ShapeGroup) error {
	if r.target.embedded == nil {
		return nil
	}
	for i := range r.target.brokers {
		r.target.brokers[i].CPUAllotment = 0 // found afresh, not "given" by a previous call
	}
	_, basis := r.target.allotment()
	rec := &results.Shape{Brokers: len(r.target.brokers), KafkaVersion: r.target.kafkaVersion, Heap: g.Shape.Heap,
		Limits: r.target.limits, BrokerCPUBasis: basis, BrokerConfigs: strings.ReplaceAll(g.Shape.BrokerConfigs, "\n", ", "),
		DiskWriteLimit: g.Shape.Limits.Disk.WriteBPS}
	for _, i := range g.Indexes {
		for j := range run.Scenarios {
			if run.Scenarios[j].ID == r.plan.Scenarios[i].ID {
				run.Scenarios[j].Cluster = rec
			}
		}
	}
	return results.WriteRun(r.dir, run)
}

// installVersions fetches the jars of every Kafka version the run's pending groups need
// before the first cluster starts, so a version Maven cannot provide ends the run before
// any repeat, not after the groups of the other versions have run.
func installVersions(ctx context.Context, opts Options, done [][]int) error {
	if opts.External != nil || opts.Cluster != nil || opts.Plan.Cluster.External != nil || !opts.Plan.VariesShape() {
		return nil // one cluster: its start fetches its jars first anyway
	}
	groups := opts.Plan.ShapeGroups()
	seen := map[string]bool{}
	for _, s := range PlanOrder(opts.Plan, 0) {
		v := groups[s.Group].Shape.KafkaVersion
		if seen[v] || slices.Contains(done[s.Index], s.Repeat) {
			continue
		}
		seen[v] = true
		if _, err := cluster.Install(ctx, v, opts.Log); err != nil {
			return fmt.Errorf("kafka_version %s: %w", v, err)
		}
	}
	return nil
}
