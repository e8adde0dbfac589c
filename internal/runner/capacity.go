package runner

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/agent"
	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/capacityload"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
)

// searchCapacity runs a scenario's capacity search on the repeat's topic, after its measured
// window: the window keeps its place in every table and hypothesis (an unthrottled window is
// labelled buffer-bound there), and the search adds the rate the cluster sustains within
// the SLOs. Its trials are warmed up by the study's warm-up; consumers, when the scenario
// has them, read in a group of their own (deleted after) so that a trial fails when they
// fall behind. A search that cannot finish keeps what it measured, with the error; only
// cancellation returns nil.
func (r *runner) searchCapacity(ctx context.Context, topic string, sc study.Scenario) *results.Capacity {
	c := sc.Capacity
	warmup := r.plan.Warmup
	slos, err := capacity.ParseSLOs(c.SLOString())
	if err != nil {
		return &results.Capacity{Error: err.Error()} // unreachable: the study checked every SLO
	}
	cfg := capacity.Config{SLOs: slos, Precision: c.Precision, Trial: c.Trial, MaxTrials: c.MaxTrials,
		DurationSum: c.DurationSum, ExceedRatio: c.ExceedRatio, Confirm: c.Confirm, MaxDuration: c.MaxDuration,
		Warmup: warmup, Progress: func(t capacity.Trial) { r.progress.capacityTrial(t) }}
	failed := func(err error) *results.Capacity {
		out := (&capacity.Result{Config: cfg.Filled()}).Record()
		out.Error = fmt.Sprintf("capacity search: %v", err)
		return out
	}
	pcfg := r.producerConfig(topic, sc, sc.Consumers.Count > 0)
	pcfg.Records, pcfg.WarmupRecords, pcfg.Duration, pcfg.Warmup, pcfg.Rate = 0, 0, 0, 0, 0
	consumers, capGroup := 0, ""
	if sc.Consumers.Count > 0 {
		consumers, capGroup = sc.Consumers.Count, r.capacityGroup(topic)
		defer r.releaseGroup(ctx, capGroup)
	}
	d, probes, err := r.capacityDrivers(sc, pcfg)
	if err != nil {
		return failed(err)
	}
	ld, err := capacityload.Start(ctx, d, probes, pcfg, consumers, capGroup, warmup)
	if err != nil {
		return failed(err)
	}
	settler, baseRecords, err := ld.Settler(ctx)
	if err != nil {
		_ = ld.Close()
		if ctx.Err() != nil {
			return nil
		}
		return failed(err)
	}
	cfg.Settle = settler.Settle
	res, err := capacity.Search(ctx, cfg, capTrials(ld.Trial, r.opts.MaxRate))
	if cerr := ld.Close(); err == nil && ctx.Err() == nil {
		err = cerr
	}
	if ctx.Err() != nil {
		return nil
	}
	if res == nil {
		return failed(err)
	}
	res.BaselineRecords = baseRecords
	out := res.Record()
	if err != nil {
		out.Error = fmt.Sprintf("capacity search: %v", err)
	}
	return out
}

// capacityTrial prints one trial of a capacity search: its offered and achieved rate, its
// due-time p99 and, per SLO, pass or why not.
func (p *progress) capacityTrial(t capacity.Trial) {
	p.obs.CapacityTrial(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal {
		fmt.Fprint(p.w, "\r\033[K")
	}
	offered := "unthrottled"
	if t.Offered > 0 {
		offered = fmt.Sprintf("%.0f records/s", t.Offered)
	}
	verdict := ""
	for i, pass := range t.Pass {
		if pass {
			verdict += " pass"
		} else {
			verdict += fmt.Sprintf(" fail (%s)", strings.Join(t.Reasons[i], "; "))
		}
	}
	fmt.Fprintf(p.w, "  [%d/%d] %s r%d capacity trial %d (%s): offered %s, achieved %.0f records/s, p99 %.1f ms:%s\n",
		p.index+1, len(p.plan.Scenarios), p.id, p.repeat, t.N, t.Phase, offered, t.Achieved, float64(t.P99)/float64(time.Millisecond), verdict)
}

// capTrials holds a search to --max-rate: the unthrottled trial that bounds it runs at
// maxRate instead, and a trial above maxRate is not run, which ends the search with the
// bracket it has and says why. 0 leaves the search free.
func capTrials(run capacity.TrialFunc, maxRate float64) capacity.TrialFunc {
	if maxRate <= 0 {
		return run
	}
	return func(ctx context.Context, rate float64, d time.Duration) (capacity.Outcome, error) {
		if rate == 0 {
			// The bounding trial runs at the cap; what it achieved above it is measurement
			// noise, and the first paced trial, at that rate, must not exceed the cap.
			o, err := run(ctx, maxRate, d)
			o.Achieved = min(o.Achieved, maxRate)
			return o, err
		}
		if rate > maxRate {
			return capacity.Outcome{}, fmt.Errorf("the next trial, at %.0f records/s, is above --max-rate %.0f", rate, maxRate)
		}
		return run(ctx, rate, d)
	}
}

// capacityCapText says how --max-rate bounds a capacity search, for the plan shown before a run.
func capacityCapText(maxRate float64) string {
	if maxRate <= 0 {
		return ""
	}
	return fmt.Sprintf(" (held to --max-rate %.0f records/s: that trial runs at it, and the search stops before a rate above it)", maxRate)
}

// capacityGroup names the search's consumer group after the repeat's topic (never a group
// the study named, which the window's consumers used) and records it as created, so that
// cleanup deletes it even when the search is cut short.
func (r *runner) capacityGroup(topic string) string {
	group := topic + "-capacity"
	r.owned.ClaimGroup(group)
	return group
}

// releaseGroup deletes the search's consumer group, as release does a repeat's.
func (r *runner) releaseGroup(ctx context.Context, group string) {
	if ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, deleteTimeout)
	defer cancel()
	if _, err := r.owned.DeleteGroup(ctx, r.target.admin, group); err != nil && ctx.Err() == nil {
		fmt.Fprintf(r.opts.Log, "%v\n", err)
	}
}

// capacityDrivers are where a search's trials run (this host, or the run's agents) and its
// settle probes (always this host: light, and about the cluster, not the load).
func (r *runner) capacityDrivers(sc study.Scenario, pcfg load.ProducerConfig) (d, probes load.Driver, err error) {
	if r.coord == nil {
		p, err := load.OpenProducers(pcfg)
		return p, nil, err
	}
	probeCfg := pcfg
	probeCfg.Producers = 1
	p, err := load.OpenProducers(probeCfg)
	if err != nil {
		return nil, nil, err
	}
	return r.coord.Producers(agent.Job{Scenario: sc.ID + " capacity", Producers: pcfg}), p, nil
}
