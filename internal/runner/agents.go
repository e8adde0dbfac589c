package runner

import (
	"context"
	"fmt"
	"strings"

	"github.com/kbench/kbench/internal/agent"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
)

// refuseAgents refuses what a run on agents cannot do: agents reach one cluster, the one
// they were started for, so a study that starts a cluster per shape cannot use them.
func refuseAgents(opts Options) error {
	if opts.Agents == 0 {
		return nil
	}
	if opts.Agents < 0 {
		return fmt.Errorf("--agents %d is negative", opts.Agents)
	}
	if opts.Plan.VariesShape() {
		return fmt.Errorf("study %s varies the cluster's shape (%d clusters, one after the other); agents reach one cluster: run it without --agents", opts.Plan.Name, len(opts.Plan.ShapeGroups()))
	}
	// Refused before anything starts, rather than every repeat of the scenario invalid.
	for _, sc := range opts.Plan.Scenarios {
		p := sc.Producers.Count
		switch {
		case p > 0 && p < opts.Agents:
			return fmt.Errorf("scenario %s: its %d producers cannot be split between --agents %d (each agent runs at least one)", sc.ID, p, opts.Agents)
		case p > 0 && (sc.Consumers.Backlog > 0 || sc.Consumers.Share):
			return fmt.Errorf("scenario %s: catch-up reads and share consumers run on this host only, beside their producers: run it without --agents", sc.ID)
		case sc.Capacity.Enabled() && sc.Consumers.Count > 0:
			return fmt.Errorf("scenario %s: its capacity search's consumers would run on this host; with --agents a search runs producers only (drop the scenario's consumers, or run without --agents)", sc.ID)
		case sc.Producers.Transaction.Enabled():
			return fmt.Errorf("scenario %s: transactional producers run on this host only (their transactional.ids are kbench's, one per producer); run it without --agents", sc.ID)
		case p > 0 && sc.Consumers.Count > 0 && sc.Topic.Partitions < opts.Agents:
			return fmt.Errorf("scenario %s: its topic's %d partitions cannot be split between --agents %d (each agent's consumers read its own producers' partitions)", sc.ID, sc.Topic.Partitions, opts.Agents)
		}
	}
	return nil
}

// openAgents waits for the run's agents on its control topic, when the load runs on agents.
func (r *runner) openAgents(ctx context.Context) error {
	if r.opts.Agents == 0 {
		return nil
	}
	fmt.Fprintf(r.opts.Log, "waiting up to %v for %d agents on control topic %s\n", r.opts.AgentTimeout, r.opts.Agents, agent.ControlTopic(r.prefix))
	co, err := agent.Open(ctx, agent.CoordinatorConfig{
		Bootstrap: r.target.bootstrap, Properties: r.target.props, Prefix: r.prefix,
		Agents: r.opts.Agents, JoinTimeout: r.opts.AgentTimeout, Version: r.opts.Version,
		Log: func(s string) { fmt.Fprintln(r.opts.Log, s) },
		AgentStats: func(name string, s agent.Stats) {
			r.opts.Observe.AgentTick(name, s.Acked, s.Failed, s.Bytes, s.Interval)
		},
	})
	r.coord = co // closed (its topic deleted) even when the wait failed
	if err != nil {
		return fmt.Errorf("agents: %w", err)
	}
	return nil
}

// closeAgents ends the run on the agents and deletes the control topic.
func (r *runner) closeAgents() {
	if r.coord == nil {
		return
	}
	if err := r.coord.Close(); err != nil {
		fmt.Fprintf(r.opts.Log, "cleanup: %v\n", err)
	}
}

// produce runs a scenario's producers through the run's driver: here, or split between the
// agents (none here); it never asks which beyond returning the agents' detail.
func (r *runner) produce(ctx context.Context, sc study.Scenario, cfg load.ProducerConfig, tick func(load.Tick)) (*load.ProduceResult, *agent.Outcome, error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	d, err := r.producers(sc, cfg)
	if err != nil {
		return nil, nil, err
	}
	defer d.Close()
	res, err := d.Trial(ctx, cfg.Schedule(), tick)
	return res, agent.LastOutcome(d), err
}

// producers is the driver of a scenario's producers: opened here, or a job on the agents,
// whose consumers (when the scenario has them) each read the partitions their own
// producers write (see agent.SplitPartitions): no end-to-end latency crosses two hosts'
// clocks.
func (r *runner) producers(sc study.Scenario, cfg load.ProducerConfig) (load.Driver, error) {
	if r.coord == nil {
		return load.OpenProducers(cfg)
	}
	job := agent.Job{Scenario: sc.ID, Producers: cfg}
	if sc.Consumers.Count > 0 {
		c := r.consumerConfig(cfg.Topic, "", sc)
		c.Records, c.Duration = 0, 0 // each agent reads until it caught up with its producers
		job.Consumers, job.Partitions = &c, sc.Topic.Partitions
	}
	return r.coord.Producers(job), nil
}

// recordAgents writes each agent's whole result beside the repeat's file and returns the
// repeat's per-agent rows.
func (r *runner) recordAgents(sc study.Scenario, n int, o *agent.Outcome) (*results.Agents, error) {
	a := &results.Agents{StartSkewMs: o.StartSkewMs, ControlBytes: o.ControlBytes}
	for _, ar := range o.Agents {
		if ar.Result == nil {
			continue
		}
		res := *ar.Result
		res.Settings = results.Redact(res.Settings)
		ar.Result = &res
		file, err := results.WriteAgent(r.dir, sc.ID, n, ar.Agent, ar)
		if err != nil {
			return nil, err
		}
		a.Rows = append(a.Rows, results.AgentRow{Agent: ar.Agent, Host: ar.Host, Producers: ar.Share.Producers,
			ShareRecords: ar.Share.Records, ShareRate: ar.Share.Rate, Sent: res.Sent, Acked: res.Total.Acked,
			Failed: res.Total.Failed, Unsent: res.Unsent, RecordsPerSec: res.Total.RecordsPerSec,
			P99Us: res.Total.DueLatency.P99Us, StartOffsetMs: ar.StartOffsetMs, File: strings.ReplaceAll(file, "\\", "/")})
	}
	return a, nil
}
