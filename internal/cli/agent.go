package cli

import (
	"fmt"
	"os"
	"runtime"
	"sync"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/agent"
	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/live"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/observe"
)

// newAgentCommand is kbench agent: a worker that waits for runs on the cluster's control
// topics (its RunE); its launchers are the manifest subcommand.
func newAgentCommand() *cobra.Command {
	var (
		bootstrap, commandConfig, name string
		lf                             live.Flags
	)
	host, _ := os.Hostname()
	cmd := &cobra.Command{
		Use:   "agent",
		Short: "Run load for a coordinator on another host, or print how to launch agents",
		Long: `Wait for work from a coordinator (kbench run STUDY --agents N, kbench produce ... --agents N)
and run this host's share of each scenario's producers. Agents and the coordinator talk only
through a control topic on the cluster under test (kbench-<run>-control): an agent needs a
route to the brokers and no inbound port. An agent takes part in one run at a time, and a run
already in progress is never joined (a late or restarted agent waits for the next run).
It prints one line when it joins a run and one per scenario; Ctrl-C stops it.
kbench agent manifest prints a Kubernetes Job or a systemd unit that starts agents.

Examples:
  kbench agent --bootstrap-server kafka-1:9092 --name load-1
  kbench agent --bootstrap-server kafka-1:9093 --command-config client.properties`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) (err error) {
			out := cmd.OutOrStdout()
			props := map[string]string{}
			if commandConfig != "" {
				p, err := cluster.ReadProperties(commandConfig)
				if err != nil {
					return err
				}
				props = p
			}
			if bootstrap == "" && props["bootstrap.servers"] == "" {
				return fmt.Errorf("--bootstrap-server is required (or bootstrap.servers in --command-config)")
			}
			if name == "" {
				return fmt.Errorf("--name is empty and the host name is unknown: give each agent a --name")
			}
			web, err := lf.Start(out)
			if err != nil {
				return err
			}
			defer func() { web.End(cmd.Context(), live.Outcome(cmd.Context(), err), "") }()
			obs, begin := web.Series(), scenarioBeginner(web.Series(), name)
			fmt.Fprintf(out, "agent %s waiting for work on %s\n", name, orDefault(bootstrap, props["bootstrap.servers"]))
			err = agent.Serve(cmd.Context(), agent.AgentConfig{
				Bootstrap: bootstrap, Properties: props, Name: name, Host: host, Cores: runtime.NumCPU(),
				Version: Version, Log: func(s string) { fmt.Fprintf(out, "agent %s: %s\n", name, s) },
				Tick:   func(sc string, t load.Tick) { begin(sc); obs.ProduceTick(t, nil) },
				Result: func(sc string, r *load.ProduceResult) { begin(sc); obs.Produced(r) },
			})
			if cmd.Context().Err() != nil {
				return nil // Ctrl-C is how an agent ends
			}
			return err
		},
	}
	cmd.AddCommand(newAgentManifestCommand())
	f := cmd.Flags()
	f.StringVar(&bootstrap, "bootstrap-server", "", "brokers to connect to (overrides bootstrap.servers)")
	f.StringVar(&commandConfig, "command-config", "", "client properties file: connection and security settings (sasl.*, ssl.*)")
	f.StringVar(&name, "name", host, "this agent's name in plans, results and errors (default: the host name)")
	lf.Register(f)
	return cmd
}

// scenarioBeginner returns a func that announces a scenario to s when the agent's trials
// move to another one: an agent's series are labelled by scenario and agent name.
func scenarioBeginner(s *observe.Series, agentName string) func(scenario string) {
	var (
		mu      sync.Mutex
		current string
		begun   bool
	)
	return func(scenario string) {
		mu.Lock()
		defer mu.Unlock()
		if !begun || scenario != current {
			current, begun = scenario, true
			s.Begin(observe.Scenario{ID: scenario, Agent: agentName})
		}
	}
}

func orDefault(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
