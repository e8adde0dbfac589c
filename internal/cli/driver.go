package cli

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/kbench/kbench/internal/agent"
	"github.com/kbench/kbench/internal/load"
)

// openDriver returns where cfg's producers run: on this host, or split over a.agents remote
// agents (kbench agent) when a.agents > 0, none of them here. The returned close releases
// the driver and, with agents, ends their run (which deletes its control topic). verb names
// the run's control topic and the agents' log lines.
func openDriver(ctx context.Context, cfg load.ProducerConfig, a agentFlags, verb string, log io.Writer) (load.Driver, func(), error) {
	if a.agents <= 0 {
		p, err := load.OpenProducers(cfg)
		if err != nil {
			return nil, nil, err
		}
		return p, p.Close, nil
	}
	prefix := fmt.Sprintf("kbench-%s-%08x", verb, rand.Uint32())
	fmt.Fprintf(log, "waiting up to %v for %d agents on control topic %s\n", a.timeout, a.agents, agent.ControlTopic(prefix))
	co, err := agent.Open(ctx, agent.CoordinatorConfig{
		Bootstrap: cfg.Bootstrap, Properties: cfg.Properties, Prefix: prefix, Agents: a.agents,
		JoinTimeout: a.timeout, Version: Version, Log: func(s string) { fmt.Fprintln(log, s) },
		AgentStats: func(name string, s agent.Stats) { a.obs.AgentTick(name, s.Acked, s.Failed, s.Bytes, s.Interval) },
	})
	closeRun := func() {
		if co == nil {
			return
		}
		if err := co.Close(); err != nil {
			fmt.Fprintf(log, "kbench: %v\n", err)
		}
	}
	if err != nil {
		closeRun()
		return nil, nil, err
	}
	if !a.producersSet() {
		// Each agent runs at least one producer: without --producers, one each.
		cfg.Producers = a.agents
	}
	d := co.Producers(agent.Job{Scenario: cfg.Topic, Producers: cfg})
	return d, func() { d.Close(); closeRun() }, nil
}
