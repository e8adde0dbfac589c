package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/agent"
	"github.com/kbench/kbench/internal/observe"
)

// agentFlags are --agents and --agent-timeout of produce and run.
type agentFlags struct {
	agents  int
	timeout time.Duration
	// obs receives each agent's own ticks (nil: none).
	obs *observe.Series
	// flags is the verb's flag set, to tell whether --producers was given.
	flags *pflag.FlagSet
}

func (a *agentFlags) register(f *pflag.FlagSet) {
	a.flags = f
	f.IntVar(&a.agents, "agents", 0, "run the load on this many remote agents (kbench agent), none here; without --producers, one producer on each")
	f.DurationVar(&a.timeout, "agent-timeout", 2*time.Minute, "how long to wait for --agents agents to join")
}

// producersSet says whether the verb's --producers was given.
func (a agentFlags) producersSet() bool {
	return a.flags != nil && a.flags.Changed("producers")
}

// printAgentLines prints one line per agent and the start skew, after the summary.
func printAgentLines(w io.Writer, o *agent.Outcome) {
	for _, a := range o.Agents {
		r := a.Result
		if r == nil {
			continue
		}
		fmt.Fprintf(w, "agent %s (%s): %s, %d records sent, %d acked, %d failed, %d unsent, %.1f records/sec, p99 %.2f ms, started %+.1f ms\n",
			a.Agent, a.Host, producerCount(a.Share.Producers), r.Sent, r.Total.Acked, r.Total.Failed, r.Unsent, r.Total.RecordsPerSec,
			float64(r.Total.DueLatency.P99Us)/1000, a.StartOffsetMs)
	}
	fmt.Fprintf(w, "agents: %d, start skew %.1f ms, control topic %d bytes\n", len(o.Agents), o.StartSkewMs, o.ControlBytes)
}

// producerCount is "1 producer" or "N producers".
func producerCount(n int) string {
	if n == 1 {
		return "1 producer"
	}
	return fmt.Sprintf("%d producers", n)
}
