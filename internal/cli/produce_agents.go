package cli

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/agent"
	"github.com/kbench/kbench/internal/load"
)

// agentFlags are --agents and --agent-timeout of produce and run.
type agentFlags struct {
	agents  int
	timeout time.Duration
}

func (a *agentFlags) register(f *pflag.FlagSet) {
	f.IntVar(&a.agents, "agents", 0, "run the load on this many remote agents (kbench agent), none here")
	f.DurationVar(&a.timeout, "agent-timeout", 2*time.Minute, "how long to wait for --agents agents to join")
}

// produceOnAgents runs cfg on a.agents remote agents (none runs here) and returns the merged
// and per-agent results; it prints one line per agent as it joins.
func produceOnAgents(ctx context.Context, cfg load.ProducerConfig, a agentFlags, log io.Writer, tick func(load.Tick)) (*agent.Outcome, error) {
	prefix := fmt.Sprintf("kbench-produce-%08x", rand.Uint32())
	fmt.Fprintf(log, "waiting up to %v for %d agents on control topic %s\n", a.timeout, a.agents, agent.ControlTopic(prefix))
	co, err := agent.Open(ctx, agent.CoordinatorConfig{
		Bootstrap: cfg.Bootstrap, Properties: cfg.Properties, Prefix: prefix, Agents: a.agents,
		JoinTimeout: a.timeout, Version: Version, Log: func(s string) { fmt.Fprintln(log, s) },
	})
	if co != nil {
		defer func() {
			if err := co.Close(); err != nil {
				fmt.Fprintf(log, "kbench: %v\n", err)
			}
		}()
	}
	if err != nil {
		return nil, err
	}
	sch := load.Schedule{Rate: cfg.Rate, Records: cfg.Records, Duration: cfg.Duration, WarmupRecords: cfg.WarmupRecords, Warmup: cfg.Warmup}
	return co.Produce(ctx, agent.Job{Scenario: cfg.Topic, Producers: cfg, Schedule: sch}, tick)
}

// printAgentLines prints one line per agent and the start skew, after the summary.
func printAgentLines(w io.Writer, o *agent.Outcome) {
	for _, a := range o.Agents {
		r := a.Result
		if r == nil {
			continue
		}
		fmt.Fprintf(w, "agent %s (%s): %d producers, %d records sent, %d acked, %d failed, %d unsent, %.1f records/sec, p99 %.2f ms, started %+.1f ms\n",
			a.Agent, a.Host, a.Share.Producers, r.Sent, r.Total.Acked, r.Total.Failed, r.Unsent, r.Total.RecordsPerSec,
			float64(r.Total.DueLatency.P99Us)/1000, a.StartOffsetMs)
	}
	fmt.Fprintf(w, "agents: %d, start skew %.1f ms, control topic %d bytes\n", len(o.Agents), o.StartSkewMs, o.ControlBytes)
}
