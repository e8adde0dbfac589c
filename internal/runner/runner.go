// Package runner carries out a study: for each scenario and repeat a fresh topic, a warm-up
// that is discarded, a measured window with client and broker metrics, and the topic
// deleted; each repeat is written to the run directory as soon as it ends, so an interrupted
// run keeps what finished and can be resumed.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/observe"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/settings"
	"github.com/kbench/kbench/internal/study"
)

// Options describe one run of a study.
type Options struct {
	// MaxDuration, for a study with a range of repeats, stops adding rounds when the next
	// would end after it (0: none).
	MaxDuration time.Duration
	// Plan is the loaded study; StudyText its file, copied into the run directory.
	Plan      *study.Plan
	StudyText []byte
	// RunsDir is the parent of new run directories, overriding the default "runs".
	RunsDir string
	// ResumeDir continues an incomplete run instead of starting a new one: finished
	// repeats are kept and only the missing ones run.
	ResumeDir string
	// External, when set, attaches to a running cluster instead of the study's cluster.
	External *External
	// Cluster, when set, is an embedded cluster the caller started (kbench cluster up, a
	// test): the run uses it, all its listeners included, instead of starting the study's,
	// and leaves it running.
	Cluster *cluster.Cluster
	// ProxyCommand runs the remote listener's delay proxies (a study's cluster.network) as
	// their own process, kbench's `zones proxy`; empty runs them in this process.
	ProxyCommand []string
	// Seed orders the repeats (see Order); a resumed run keeps the seed it recorded.
	Seed uint64
	// MaxRate caps every scenario's target rate (records/s over all producers), the fill of
	// a consume-only scenario included; 0 is no cap.
	MaxRate float64
	// AllowExistingGroups are consumer groups a study may name although they exist on the
	// cluster: kbench's consumers join them, and they are never deleted.
	AllowExistingGroups []string
	// Confirm is asked before loading a cluster kbench did not start (loopback included),
	// with the plan as text; nil means yes. It returns false to abort.
	Confirm func(plan string) bool
	// Progress receives live progress; Terminal makes it one rewritten status line.
	Progress io.Writer
	Terminal bool
	// Observe, when set, receives the same progress for the live page and /metrics.
	Observe *observe.Series
	// Log receives one-line messages (cluster start, warm-up, cleanup).
	Log io.Writer
	// Version is kbench's version, recorded in the run.
	Version string
	// Agents, when more than 0, runs every scenario's producers on that many remote agents
	// (kbench agent) and none here; AgentTimeout bounds the wait for them to join.
	Agents       int
	AgentTimeout time.Duration
}

// Outcome is what a run left behind.
type Outcome struct {
	// Dir is the run directory.
	Dir string
	// Complete is false when the run was interrupted or failed part way.
	Complete bool
	// Repeats counts the repeats run now; Invalid those marked invalid.
	Repeats, Invalid int
	// Reasons counts the invalid repeats by reason, the repeat's topic name replaced by
	// "<topic>" (a repeat with two reasons counts in both).
	Reasons map[string]int
}

// Run carries out the study. On cancellation (Ctrl-C) it stops the load, deletes the topics
// it created, marks the run incomplete and returns the outcome with ctx's error.
func Run(ctx context.Context, opts Options) (*Outcome, error) {
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Progress == nil {
		opts.Progress = io.Discard
	}
	if opts.RunsDir == "" {
		opts.RunsDir = "runs"
	}
	plan := opts.Plan
	// Check a resume before starting a cluster for it, and reach the cluster before
	// creating a run directory, so a typo in either leaves nothing behind.
	prev, err := resumedRun(opts.ResumeDir)
	if err != nil {
		return nil, err
	}
	if prev != nil {
		if opts, err = resumeTarget(opts, prev); err != nil {
			return nil, err
		}
	}
	if err := refuseShapes(opts); err != nil {
		return nil, err
	}
	if plan.MinRepeats > 0 && plan.VariesShape() {
		return nil, fmt.Errorf("study %s: a range of repeats adds rounds on one cluster; this study varies the cluster's shape: give repeats a fixed count", plan.Name)
	}
	if err := refuseAgents(opts); err != nil {
		return nil, err
	}
	if err := checkFaultPlans(plan); err != nil {
		return nil, err
	}
	// A resume starts the cluster of the first shape with repeats left, none for the
	// shapes that are done.
	done, err := doneRepeats(plan, opts.ResumeDir)
	if err != nil {
		return nil, err
	}
	if err := installVersions(ctx, opts, done); err != nil {
		return nil, err
	}
	first := firstPendingShape(plan, done)
	target, err := connect(ctx, opts, first)
	if err != nil {
		return nil, fmt.Errorf("prepare cluster: %w", err)
	}
	// A study that varies the cluster's shape replaces the target between groups: close
	// whichever runs last.
	current := &target
	defer func() { (*current).close(opts.Log) }()
	if err := checkSameCluster(prev, target); err != nil {
		return nil, err
	}
	if err := target.checkListeners(plan, first); err != nil {
		return nil, err
	}
	shared, err := target.checkGroups(ctx, plan, opts.AllowExistingGroups)
	if err != nil {
		return nil, err
	}
	// kgo runs the classic protocol without a word where KIP-848 is missing: stop first.
	if i := slices.IndexFunc(plan.Scenarios, func(sc study.Scenario) bool {
		return sc.Consumers.Count > 0 && settings.GroupProtocol(sc.Consumers.Properties) == settings.ConsumerProtocol
	}); i >= 0 {
		if err := kafka.CheckConsumerProtocol(ctx, target.admin); err != nil {
			return nil, fmt.Errorf("scenario %s: %w", plan.Scenarios[i].ID, err)
		}
	}
	if err := checkShareGroups(ctx, plan, target.admin); err != nil {
		return nil, err
	}
	run, dir, err := openRun(opts, prev)
	if err != nil {
		return nil, err
	}
	out := &Outcome{Dir: dir}
	if client, broker := sweptLinks(plan); client != "" || broker != "" {
		target.describeSwept(client, broker)
	}
	run.Environment = target.environment(opts.Version)
	run.Target = recordTarget(target, opts.MaxRate)
	target.allot(&run.Environment)
	if err := results.WriteRun(dir, run); err != nil {
		return out, err
	}

	prefix := topicPrefix(dir)
	r := &runner{opts: opts, plan: plan, target: target, dir: dir, prefix: prefix,
		owned: kafka.NewOwned(prefix)}
	for g := range shared {
		r.owned.ShareGroup(g)
	}
	defer r.cleanup()
	defer r.closeAgents()
	if err := r.openAgents(ctx); err != nil {
		return out, finish(dir, run, err)
	}
	if target.fresh {
		if err := r.warmCluster(ctx); err != nil {
			return out, finish(dir, run, err)
		}
		note := fmt.Sprintf("The embedded cluster was started for this run and warmed up with unmeasured load before the first scenario (%s): a cold Kafka runs 2-5x slower until its JIT has compiled the hot paths.", load.WarmRule(plan.Cluster.JITWarmup))
		if n := len(plan.ShapeGroups()); n > 1 {
			note = fmt.Sprintf("The study varies the cluster's shape: %d embedded clusters, one per shape, each started for its scenarios, warmed up with unmeasured load before its first repeat (%s; a cold Kafka runs 2-5x slower until its JIT has compiled the hot paths), and stopped after its last; the environment lists each scenario's cluster.", n, load.WarmRule(plan.Cluster.JITWarmup))
		}
		if plan.Cluster.JITWarmup == 0 {
			note = "The embedded cluster was started for this run and not warmed up (cluster.jit_warmup: 0s): a cold Kafka runs 2-5x slower until its JIT has compiled the hot paths, so the first repeats measured it cold."
		}
		if !strings.Contains(run.Study.Notes, note) { // a resume adds it once
			run.Study.Notes = strings.TrimSpace(run.Study.Notes + "\n" + note)
		}
	}
	if err := r.warmTransactions(ctx); err != nil {
		return out, finish(dir, run, err)
	}
	fmt.Fprintf(opts.Log, "run order: %s, scenarios shuffled per round, seed %d\n", run.Order.Kind, run.Order.Seed)
	current = &r.target
	err = r.runAll(ctx, out, run, done)
	if err == nil {
		out.Complete = true
	}
	return out, finish(dir, run, err)
}

// openRun creates the run directory and its run.json, or reopens prev's to resume it.
func openRun(opts Options, prev *results.Run) (*results.Run, string, error) {
	plan := opts.Plan
	if prev != nil {
		prev.Status = results.Status{State: results.Incomplete, Reason: "running"}
		prev.Finished = time.Time{}
		if prev.Order == nil {
			// A run from before the order was recorded ran scenario by scenario; its
			// missing repeats now run interleaved with this seed.
			prev.Order = &results.Order{Kind: OrderKind, Seed: opts.Seed}
		}
		return prev, opts.ResumeDir, nil
	}
	dir, err := results.Create(opts.RunsDir, time.Now(), plan.Name)
	if err != nil {
		return nil, "", fmt.Errorf("create run directory: %w", err)
	}
	if err := results.WriteStudy(dir, opts.StudyText); err != nil {
		return nil, "", err
	}
	run := newRun(plan, opts.Version)
	run.Order = &results.Order{Kind: OrderKind, Seed: opts.Seed}
	if err := results.WriteRun(dir, run); err != nil {
		return nil, "", err
	}
	return run, dir, nil
}

// finish records how the run ended in run.json and returns err (or the write's error).
func finish(dir string, run *results.Run, err error) error {
	run.Finished = time.Now().UTC()
	switch {
	case err == nil:
		run.Status = results.Status{State: results.Complete}
	case errors.Is(err, context.Canceled):
		run.Status = results.Status{State: results.Incomplete, Reason: "interrupted"}
	default:
		run.Status = results.Status{State: results.Incomplete, Reason: err.Error()}
	}
	if werr := results.WriteRun(dir, run); werr != nil && err == nil {
		return werr
	}
	return err
}

// topicPrefix names every topic this run creates; only topics with it are ever deleted. The
// run directory's name is only unique on this machine, and only per day and runs directory,
// so a random tag keeps two runs of a study on one cluster (from two machines, or a resume
// while the interrupted run's topics are still being deleted) from colliding.
func topicPrefix(dir string) string {
	return fmt.Sprintf("kbench-%s-%04x", sanitizeTopic(filepath.Base(dir)), rand.IntN(1<<16))
}
