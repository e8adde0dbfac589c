package cli

import (
	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/agentlaunch"
)

func newAgentManifestCommand() *cobra.Command {
	var o agentlaunch.Options
	var format string
	cmd := &cobra.Command{
		Use:   "manifest",
		Short: "Print a Kubernetes Job or a systemd unit that starts kbench agents",
		Long: `Print what launches agents on other hosts; kbench run --agents N then coordinates them
through the cluster itself, so agents need a route to the brokers and no inbound port.

--format kubernetes (the default) prints an Indexed Job: one pod per agent, named agent-0 to
agent-N-1 from its completion index, never restarted (a restarted agent cannot rejoin a run),
spread over nodes where it can be. A client properties file holds passwords: put it in a
Secret and name it with --command-config-secret; only the Secret's name is printed.

--format systemd prints the template unit kbench-agent@.service: the instance name is the
agent's name. --command-config names the properties file on each host, which systemd hands
to the agent as a credential.

Examples:
  kbench agent manifest --agents 3 --image registry.example.com/kbench:1.0 \
      --bootstrap-server kafka:9092 | kubectl apply -f -
  kubectl create secret generic kbench-client --from-file=client.properties=client.properties
  kbench agent manifest --agents 3 --image registry.example.com/kbench:1.0 \
      --bootstrap-server kafka:9093 --command-config-secret kbench-client --namespace bench
  kbench agent manifest --format systemd --bootstrap-server 10.0.0.1:9092 \
      --command-config /etc/kbench/client.properties > kbench-agent@.service`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o.Format = agentlaunch.Format(format)
			return agentlaunch.Write(cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&format, "format", string(agentlaunch.Kubernetes), "kubernetes (an Indexed Job) or systemd (a template unit)")
	f.IntVar(&o.Agents, "agents", 0, "number of agents")
	f.StringVar(&o.Bootstrap, "bootstrap-server", "", "the brokers as the agents reach them, host:port[,host:port]")
	f.StringVar(&o.Image, "image", "", "container image with kbench on its PATH (kubernetes)")
	f.StringVar(&o.Namespace, "namespace", "", "the Job's namespace (kubernetes; default: kubectl's)")
	f.StringVar(&o.Secret, "command-config-secret", "", "Secret holding the client properties under the key "+agentlaunch.SecretKey+" (kubernetes)")
	// Defaults are left to agentlaunch (and named in the help), so a flag of the other
	// format is refused only when the user set it.
	f.StringVar(&o.JobName, "job-name", "", "the Job's name (kubernetes; default "+agentlaunch.DefaultJobName+")")
	f.StringVar(&o.CPU, "cpu", "", "CPU request of each agent (kubernetes; default "+agentlaunch.DefaultCPU+", no CPU limit is set)")
	f.StringVar(&o.Memory, "memory", "", "memory request and limit of each agent (kubernetes; default "+agentlaunch.DefaultMemory+")")
	f.StringVar(&o.CommandConfig, "command-config", "", "client properties file on each agent host (systemd)")
	f.StringVar(&o.Binary, "binary", "", "kbench's absolute path on the agent hosts (systemd; default "+agentlaunch.DefaultBinary+")")
	return cmd
}
