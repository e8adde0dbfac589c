package agent

import (
	"context"
	"fmt"
	"maps"
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/settings"
)

// AgentResult is one agent's part of a scenario, kept beside the merge so an agent that
// lagged its share is visible.
type AgentResult struct {
	Agent string `json:"agent"`
	Host  string `json:"host"`
	Cores int    `json:"cores"`
	Share Share  `json:"share"`
	// Started is the agent's own clock when its trial started; StartOffsetMs how far that
	// was from the start the coordinator set (positive: late).
	Started       time.Time           `json:"started"`
	StartOffsetMs float64             `json:"start_offset_ms"`
	Result        *load.ProduceResult `json:"result"`
	// Consumed is its consumers' accounting, when the scenario consumes.
	Consumed *load.ConsumeResult `json:"consumed,omitempty"`
}

// Outcome is one scenario run on agents.
type Outcome struct {
	// Merged is the agents' results merged exactly (load.MergeResults).
	Merged *load.ProduceResult `json:"merged"`
	// MergedConsume is the agents' consumers merged, when the scenario consumes.
	MergedConsume *load.ConsumeResult `json:"merged_consume,omitempty"`
	Agents        []AgentResult       `json:"agents"`
	// Start is the barrier the coordinator set; StartSkewMs the spread of the agents'
	// actual starts (latest minus earliest), as their clocks tell it.
	Start       time.Time `json:"start"`
	StartSkewMs float64   `json:"start_skew_ms"`
	// ControlBytes is the control topic's traffic during the scenario (every party's
	// messages), load on the cluster that is not the scenario's.
	ControlBytes int64 `json:"control_bytes"`
}

// Job is one scenario's load for the agents.
type Job struct {
	// Scenario names it in the agents' log lines.
	Scenario string
	// Producers is the whole producer load (its Producers, Seed, properties) and Schedule
	// its schedule; each agent runs its Split share.
	Producers load.ProducerConfig
	Schedule  load.Schedule
	// Consumers, when set, runs consumers on the agents: each reads the partitions its own
	// producers write (SplitPartitions of the topic's Partitions), so no end-to-end
	// latency crosses hosts. Its Consumers is the total, split like the producers.
	Consumers  *load.ConsumerConfig
	Partitions int
}

// Produce runs one scenario on the agents. tick, if not nil, gets the merged ticks. An
// agent that fails or goes silent aborts the scenario on every agent, and the error names
// it.
func (c *Coordinator) Produce(ctx context.Context, job Job, tick func(load.Tick)) (*Outcome, error) {
	if c.lost != nil {
		return nil, fmt.Errorf("not run: %w", c.lost)
	}
	names := make([]string, len(c.agents))
	for i, a := range c.agents {
		names[i] = a.Name
	}
	s := job.Schedule
	shares, err := Split(names, max(job.Producers.Producers, 1), s.Rate, s.Records, s.WarmupRecords, job.Producers.Seed)
	if err != nil {
		return nil, err
	}
	var cons *load.ConsumerConfig
	if job.Consumers != nil {
		if err := SplitPartitions(shares, job.Partitions, max(job.Consumers.Consumers, 1)); err != nil {
			return nil, err
		}
		cj := *job.Consumers
		cj.Bootstrap = ""
		cj.Properties = maps.Clone(cj.Properties)
		maps.DeleteFunc(cj.Properties, func(k, _ string) bool { return settings.IsConnection(k) })
		cons = &cj
	}
	epoch := int(c.epoch.Add(1))
	sc := &scenarioRun{c: c, epoch: epoch, names: names, bytes0: c.ControlBytes(),
		out: &Outcome{}, started: map[string]time.Time{}, results: map[string]*load.ProduceResult{},
		consumed: map[string]*load.ConsumeResult{}}
	plan := &Plan{Scenario: job.Scenario, Job: planJob(job.Producers), Schedule: s, Shares: shares, Consumers: cons}
	if err := c.send(ctx, Message{Kind: KindPlan, Plan: plan}); err != nil {
		return nil, err
	}
	det := newDetector(names, time.Now(), SilenceLimit)
	if err := sc.await(ctx, det, KindReady, time.Now().Add(readyTimeout), readyTimeout, nil); err != nil {
		return nil, c.abort(err)
	}
	sc.out.Start = time.Now().Add(StartDelay).UTC()
	if err := c.send(ctx, Message{Kind: KindStart, Start: sc.out.Start}); err != nil {
		return nil, c.abort(err)
	}
	merger := newTickMerger(names)
	onStats := func(m received) {
		if c.cfg.AgentStats != nil {
			c.cfg.AgentStats(m.From, *m.Stats)
		}
		for _, t := range merger.add(m.From, m.Stats) {
			if tick != nil {
				tick(t)
			}
		}
	}
	// A lost done message must end the wait, not hang the run: heartbeats only prove the
	// agents alive.
	limit := doneLimit(s, job.Producers.DrainTimeout)
	var deadline time.Time
	if limit > 0 {
		deadline = sc.out.Start.Add(limit)
	}
	if err := sc.await(ctx, det, KindDone, deadline, limit, onStats); err != nil {
		return nil, c.abort(err)
	}
	return sc.outcome(shares), nil
}

// planJob is job without what stays on the coordinator's host: its bootstrap servers and
// connection settings (each agent has its own, secrets included).
func planJob(job load.ProducerConfig) load.ProducerConfig {
	job.Bootstrap = ""
	props := maps.Clone(job.Properties)
	maps.DeleteFunc(props, func(k, _ string) bool { return settings.IsConnection(k) })
	job.Properties = props
	return job
}

func (c *Coordinator) send(ctx context.Context, m Message) error {
	m.Run = c.cfg.Prefix
	if m.Epoch == 0 {
		m.Epoch = int(c.epoch.Load())
	}
	return c.ctl.send(ctx, c.topic, m)
}

// abort stops the scenario on every agent and returns cause. A silent or failed agent is
// lost to the run: later scenarios fail at once rather than wait for it again.
func (c *Coordinator) abort(cause error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = c.send(ctx, Message{Kind: KindAbort, Reason: cause.Error()})
	if _, ok := cause.(*agentError); ok {
		c.lost = cause
	}
	return fmt.Errorf("scenario aborted on every agent: %w", cause)
}

// agentError is an agent's failure: it went silent or reported an error.
type agentError struct{ msg string }

func (e *agentError) Error() string { return e.msg }

// scenarioRun is the coordinator's state during one scenario.
type scenarioRun struct {
	c        *Coordinator
	epoch    int
	names    []string
	bytes0   int64
	out      *Outcome
	started  map[string]time.Time
	results  map[string]*load.ProduceResult
	consumed map[string]*load.ConsumeResult
}

// checkEvery is how often the coordinator looks for a silent agent: within SilenceLimit
// plus this, the abort is sent.
const checkEvery = 200 * time.Millisecond

// await handles the agents' messages until every agent sent want (ready or done), an agent
// failed or went silent, deadline passed (zero: none) or ctx ended.
func (sc *scenarioRun) await(ctx context.Context, det *detector, want Kind, deadline time.Time, limit time.Duration, onStats func(received)) error {
	got := map[string]bool{}
	check := time.NewTicker(checkEvery)
	defer check.Stop()
	for len(got) < len(sc.names) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case now := <-check.C:
			if err := det.check(now); err != nil {
				return &agentError{msg: err.Error()}
			}
			if !deadline.IsZero() && now.After(deadline) {
				return &agentError{msg: fmt.Sprintf("agents %s not %s within %v", orNone(missing(sc.names, got)), want, limit)}
			}
		case m := <-sc.c.msgs:
			det.seen(m.From, time.Now())
			if m.Kind == KindJoin {
				sc.c.refuseLate(ctx, m.From)
				continue
			}
			if m.Epoch != sc.epoch {
				continue
			}
			switch m.Kind {
			case KindError:
				return &agentError{msg: fmt.Sprintf("agent %s failed: %s", m.From, m.Reason)}
			case KindStarted:
				sc.started[m.From] = m.Start
			case KindStats:
				if onStats != nil && m.Stats != nil {
					onStats(m)
				}
			case want:
				if want == KindDone {
					sc.results[m.From], sc.consumed[m.From] = m.Result, m.Consumed
				}
				got[m.From] = true
			}
		}
	}
	return nil
}

// refuseLate refuses an agent that asks to join once the run's agents are complete.
func (c *Coordinator) refuseLate(ctx context.Context, name string) {
	for _, a := range c.agents {
		if a.Name == name {
			return // a join sent twice; the agent was admitted
		}
	}
	reason := "the run is in progress with its agents (a late or restarted agent cannot join a run in progress)"
	c.cfg.Log(fmt.Sprintf("refused agent %s: %s", name, reason))
	_ = c.send(ctx, Message{Kind: KindRefuse, To: name, Reason: reason})
}

func missing(names []string, got map[string]bool) []string {
	var out []string
	for _, n := range names {
		if !got[n] {
			out = append(out, n)
		}
	}
	return out
}

// outcome merges the agents' results and measures the start skew.
func (sc *scenarioRun) outcome(shares []Share) *Outcome {
	o := sc.out
	var rs []*load.ProduceResult
	var cs []*load.ConsumeResult
	var first, last time.Time
	for i, a := range sc.c.agents {
		r := sc.results[a.Name]
		rs = append(rs, r)
		cs = append(cs, sc.consumed[a.Name])
		st := sc.started[a.Name]
		ar := AgentResult{Agent: a.Name, Host: a.Host, Cores: a.Cores, Share: shares[i], Started: st, Result: r, Consumed: sc.consumed[a.Name]}
		if !st.IsZero() {
			ar.StartOffsetMs = float64(st.Sub(o.Start).Microseconds()) / 1000
			if first.IsZero() || st.Before(first) {
				first = st
			}
			if st.After(last) {
				last = st
			}
		}
		o.Agents = append(o.Agents, ar)
	}
	o.StartSkewMs = float64(last.Sub(first).Microseconds()) / 1000
	o.Merged = load.MergeResults(rs...)
	o.MergedConsume = load.MergeConsumeResults(cs...)
	o.ControlBytes = sc.c.ControlBytes() - sc.bytes0
	return o
}

// doneMargin is how long past a schedule's own end, its drain included, the coordinator
// waits for every agent's done.
const doneMargin = 30 * time.Second

// doneLimit bounds the wait for the agents' done from the scenario's start: the schedule's
// length (its duration, or its records at its rate), the longest drain a timed trial
// allows, and doneMargin; 0 when the schedule has no length of its own (unthrottled
// records), where only the agents' heartbeats bound it.
func doneLimit(s load.Schedule, drainTimeout time.Duration) time.Duration {
	length := s.Duration
	if length == 0 && s.Rate > 0 && s.Records > 0 {
		length = time.Duration(float64(s.Records) / s.Rate * float64(time.Second))
	}
	if length == 0 {
		return 0
	}
	if drainTimeout <= 0 {
		drainTimeout = load.DefaultDrainTimeout
	}
	return length + load.MaxDrain(drainTimeout) + doneMargin
}
