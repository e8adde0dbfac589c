package agent

import (
	"context"
	"fmt"

	"github.com/kbench/kbench/internal/load"
)

// Producers runs producer trials on a coordinator's agents: each trial is one job, its
// producers and rate split between the agents, their results merged. It is the remote side
// of load.Driver.
type Producers struct {
	co   *Coordinator
	job  Job
	n    int
	last *Outcome
}

var _ load.Driver = (*Producers)(nil)

// Producers returns the driver of job's producers on the agents; each Trial replaces the
// job's schedule and numbers the job in the agents' log lines ("<scenario> #3").
func (c *Coordinator) Producers(job Job) *Producers { return &Producers{co: c, job: job} }

// Trial runs s on the agents and returns the merged result.
func (p *Producers) Trial(ctx context.Context, s load.Schedule, tick func(load.Tick)) (*load.ProduceResult, error) {
	p.n++
	job := p.job
	job.Schedule = s
	job.Scenario = fmt.Sprintf("%s #%d", p.job.Scenario, p.n)
	o, err := p.co.Produce(ctx, job, tick)
	if err != nil {
		return nil, fmt.Errorf("on agents: %w", err)
	}
	p.last = o
	return o.Merged, nil
}

// Last is the last trial's outcome per agent (nil before the first).
func (p *Producers) Last() *Outcome { return p.last }

// LastOutcome is the per-agent detail of d's last trial when d runs on agents, nil when it
// runs here: what a caller prints beside the merged result, without asking d where it ran
// for anything else.
func LastOutcome(d load.Driver) *Outcome {
	if p, ok := d.(*Producers); ok {
		return p.Last()
	}
	return nil
}

// Close does nothing: the agents close their clients after each trial, and the coordinator
// is closed by whoever opened it.
func (p *Producers) Close() {}
