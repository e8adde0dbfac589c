package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/flavor"
	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/load"
)

func newClusterCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cluster",
		Short: "Start, inspect and stop the embedded Apache Kafka cluster",
		Long: `The embedded cluster is real Apache Kafka (KRaft) running on 127.0.0.1, one JVM per broker,
from jars fetched once through Maven into ~/.cache/kbench (or KAFKA_HOME's libs/).

Examples:
  kbench cluster up --brokers 3
  kbench cluster up --sasl scram-sha-512 --tls
  kbench cluster status
  kbench cluster down`,
	}
	cmd.AddCommand(newClusterUpCommand(), newClusterStatusCommand(), newClusterDownCommand(), newClusterFetchCommand())
	return cmd
}

// clusterDir resolves --dir, defaulting to the cache's cluster directory.
func clusterDir(dir string) (string, error) {
	if dir != "" {
		return dir, nil
	}
	return cluster.DefaultDir()
}

func newClusterUpCommand() *cobra.Command {
	var (
		opts      cluster.Options
		config    []string
		disk      string
		link      linkFlags
		noWarmup  bool
		jitWarmup time.Duration
	)
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Start an embedded Kafka cluster and print how to reach it",
		Long: `Start N Kafka brokers on 127.0.0.1 (the first three are also the KRaft controllers) and
wait until all are registered and a topic replicated on all of them can be created, then
warm their JIT with unmeasured load on two topics of kbench's in turn, replicated and then
unreplicated, each deleted after: 15 s each, and on while its rate still climbs or the
brokers' JIT compiler threads use more than 0.1 cores, up to --jit-warmup in all (3 min; a
cold Kafka runs 2-5x slower at first; --no-warmup skips it).
Brokers under a small --broker-cpus quota compile for minutes: when the bound ends first it
says so and why, and a longer --jit-warmup warms them further.
With --sasl or --tls it adds those listeners and writes a client properties file
(Java client names) that kbench and Kafka's own tools accept.
--broker-cpus, --cpuset and --disk put each broker in a cgroup of its own (named with the
cluster's ID, removed by cluster down) with that CPU quota, CPU pinning and disk class;
where the cgroups cannot be written, the cluster does not start.

Examples:
  kbench cluster up
  kbench cluster up --brokers 1 --heap 1g
  kbench cluster up --broker-cpus 0.5 --disk write_mib_per_sec=50,write_iops=2000
  kbench cluster up --broker-cpus 0.3 --jit-warmup 5m
  kbench cluster up --disk tmpfs
  kbench cluster up --sasl scram-sha-512 --tls --config num.network.threads=6
  kbench cluster up --client-rtt 10ms --client-bandwidth 100MiB
  kbench cluster up --broker-rtt 2ms
  kbench cluster up --host 10.0.0.5     # clients on other hosts (agents) connect there

With --client-rtt (and/or --client-bandwidth) it adds the listener "remote": each broker's
address there is a proxy that delays every byte by RTT/2 each way (and caps the bandwidth
per direction), a client in another zone. With --broker-rtt each broker's inter-broker
listener is advertised at a proxy too, so replication crosses zones. The proxies are one
process, stopped with the brokers by kbench cluster down.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			dir, err := clusterDir(opts.Dir)
			if err != nil {
				return err
			}
			opts.Dir = dir
			opts.Keep, opts.Detach = true, true // the cluster outlives this command
			opts.Log = cmd.ErrOrStderr()
			if jitWarmup < 0 {
				return fmt.Errorf("--jit-warmup %s: must be 0s (none) or more", jitWarmup)
			}
			if opts.BrokerConfig, err = parseKeyValues("--config", config); err != nil {
				return err
			}
			if err := flavorFlags(cmd, &opts.Limits, disk); err != nil {
				return err
			}
			if opts.Client, err = link.link(cmd); err != nil {
				return err
			}
			if opts.Broker, err = link.brokerLink(cmd); err != nil {
				return err
			}
			if opts.Client != nil || opts.Broker != nil {
				if opts.ProxyCommand, err = proxyCommand(); err != nil {
					return err
				}
			}
			c, err := cluster.Start(cmd.Context(), opts)
			if errors.Is(err, cluster.ErrRunning) {
				if running, openErr := cluster.Open(dir); openErr == nil {
					fmt.Fprintf(cmd.OutOrStdout(), "a cluster is already running in %s\n", dir)
					printEndpoints(cmd.OutOrStdout(), running)
					return nil
				}
			}
			if err != nil {
				return fmt.Errorf("start cluster: %w", err)
			}
			if !noWarmup && jitWarmup > 0 {
				if err := warmCluster(cmd.Context(), c, jitWarmup, cmd.ErrOrStderr()); err != nil {
					// The cluster is up and stays up; only the warm-up failed.
					fmt.Fprintf(cmd.ErrOrStderr(), "kbench: warning: warm-up: %v\n", err)
				}
			}
			printEndpoints(cmd.OutOrStdout(), c)
			fmt.Fprintf(cmd.OutOrStdout(), "stop it with: kbench cluster down%s\n", dirFlag(opts.Dir))
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Brokers, "brokers", 3, "number of brokers")
	f.StringVar(&opts.Dir, "dir", "", "cluster directory (default ~/.cache/kbench/cluster)")
	f.StringVar(&opts.Heap, "heap", cluster.DefaultHeap, "Java heap of each broker")
	f.StringVar(&opts.SASL, "sasl", "", "add a SASL listener: scram-sha-512, scram-sha-256 or plain")
	f.BoolVar(&opts.TLS, "tls", false, "add a TLS listener (and make the SASL listener SASL_SSL)")
	f.StringVar(&opts.KafkaVersion, "kafka-version", cluster.DefaultKafkaVersion, "Apache Kafka version (jars from Maven Central; KAFKA_HOME overrides)")
	f.StringArrayVar(&config, "config", nil, "broker config key=value (server.properties), repeatable")
	f.Float64Var(&opts.Limits.CPUs, "broker-cpus", 0, "CPU quota of each broker in cores, e.g. 0.5 (a cgroup per broker)")
	f.StringVar(&opts.Limits.Cpuset, "cpuset", "", "pin each broker to these CPUs, e.g. 1 or 0-1 (a cgroup per broker)")
	f.StringVar(&disk, "disk", "", "disk class: tmpfs, or write_mib_per_sec=N,write_iops=N,read_mib_per_sec=N,read_iops=N")
	f.BoolVar(&noWarmup, "no-warmup", false, "skip the unmeasured load (15 s to --jit-warmup) that warms the new brokers' JIT (a cold Kafka runs 2-5x slower at first)")
	f.DurationVar(&jitWarmup, "jit-warmup", load.MaxClusterWarmup, "longest the warm-up goes on while the rate still climbs or the brokers' JIT compilers are busy (under 15s: a fixed length; 0s: none)")
	f.StringVar(&opts.Host, "host", "", "bind and advertise the client listeners at this IP address of the machine instead of 127.0.0.1, for clients (agents) on other hosts")
	link.register(f)
	return cmd
}

// flavorFlags checks --broker-cpus and --cpuset and parses --disk into l.
func flavorFlags(cmd *cobra.Command, l *flavor.Limits, disk string) error {
	if cmd.Flags().Changed("broker-cpus") && l.CPUs < flavor.MinCPUs {
		return fmt.Errorf("--broker-cpus %g: want at least %g cores", l.CPUs, flavor.MinCPUs)
	}
	if disk != "" {
		d, err := flavor.ParseDisk(disk)
		if err != nil {
			return fmt.Errorf("--disk: %w", err)
		}
		l.Disk = d
	}
	if err := l.Validate("cluster"); err != nil {
		return fmt.Errorf("--%s", strings.ReplaceAll(strings.TrimPrefix(err.Error(), "cluster."), "_", "-"))
	}
	return nil
}

func dirFlag(dir string) string {
	if def, err := cluster.DefaultDir(); err == nil && def == dir {
		return ""
	}
	return " --dir " + dir
}

func printEndpoints(w io.Writer, c *cluster.Cluster) {
	fmt.Fprintf(w, "Kafka %s, %d broker(s), directory %s\n", c.KafkaVersion(), len(c.Brokers()), c.Dir())
	if l, ok := c.BrokerLink(); ok {
		fmt.Fprintf(w, "brokers in separate zones: inter-broker traffic through proxies, %s (%s each way)%s\n", l, l.OneWay(), proxyProcess(c))
	}
	for _, e := range c.Endpoints() {
		fmt.Fprintf(w, "%-6s %-14s bootstrap servers: %s\n", e.Name, e.Protocol, e.Bootstrap)
		if e.PropertiesFile != "" {
			fmt.Fprintf(w, "       client properties: %s\n", e.PropertiesFile)
		}
		if n, ok := c.Network(); ok && e.Name == "remote" {
			fmt.Fprintf(w, "       through zone proxies: %s (%s each way)%s\n", n.Link, n.Link.OneWay(), proxyProcess(c))
		}
	}
	if l := c.Limits(); l.Any() || l.Disk.Tmpfs {
		fmt.Fprintf(w, "each broker limited to: %s\n", l)
	}
}

// openCluster opens the cluster recorded in --dir (or the default directory).
func openCluster(dir string) (*cluster.Cluster, error) {
	dir, err := clusterDir(dir)
	if err != nil {
		return nil, err
	}
	return cluster.Open(dir)
}

func newClusterStatusCommand() *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show the embedded cluster's brokers, PIDs, ports and listeners",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := openCluster(dir)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			printEndpoints(w, c)
			alive := c.Alive()
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "BROKER\tPID\tPORT\tROLES\tSTATE\tMETRICS\tLOG")
			up := 0
			for _, b := range c.Brokers() {
				stateText := "down"
				if alive[b.ID] {
					stateText = "up"
					up++
				}
				roles := "broker"
				if b.Controller {
					roles = "broker,controller"
				}
				fmt.Fprintf(tw, "%d\t%d\t%d\t%s\t%s\t%s\t%s\n", b.ID, b.PID, b.Port, roles, stateText, orDash(b.MetricsURL), b.LogFile)
			}
			tw.Flush()
			fmt.Fprintf(w, "%d of %d broker(s) up\n", up, len(c.Brokers()))
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "cluster directory (default ~/.cache/kbench/cluster)")
	return cmd
}

func newClusterDownCommand() *cobra.Command {
	var (
		dir  string
		keep bool
	)
	cmd := &cobra.Command{
		Use:   "down",
		Short: "Stop the embedded cluster's brokers (by PID) and remove its directory",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := openCluster(dir)
			if err != nil {
				return err
			}
			dir = c.Dir()
			n := 0
			for _, up := range c.Alive() {
				if up {
					n++
				}
			}
			proxy := ""
			if c.ProxyAlive() {
				proxy = fmt.Sprintf(" and the zone proxy (pid %d)", c.ProxyPID())
			}
			stop := c.Stop
			if keep {
				stop = c.StopKeep
			}
			if err := stop(); err != nil {
				return fmt.Errorf("stop cluster: %w", err)
			}
			if first := c.StartedIn(); first != "" {
				// A copied directory's cluster.json names the first directory's PIDs; only
				// brokers running in this directory were stopped.
				fmt.Fprintf(cmd.OutOrStdout(), "%s holds a cluster started in %s (copied or moved since): only brokers running in %s are stopped\n", dir, first, dir)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "stopped %d broker(s)%s", n, proxy)
			if keep {
				fmt.Fprintf(cmd.OutOrStdout(), "; kept %s\n", dir)
			} else {
				fmt.Fprintf(cmd.OutOrStdout(), "; removed %s\n", dir)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "cluster directory (default ~/.cache/kbench/cluster)")
	cmd.Flags().BoolVar(&keep, "keep", false, "keep the cluster directory (data and logs)")
	return cmd
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// parseKeyValues parses repeated key=value flags; the value may itself contain '='.
func parseKeyValues(flag string, values []string) (map[string]string, error) {
	out := map[string]string{}
	for i, kv := range values {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			// The value is not shown: it may be a password given without its name.
			return nil, fmt.Errorf("%s value %d is not key=value (not shown: it may be a secret)", flag, i+1)
		}
		out[strings.TrimSpace(k)] = v
	}
	return out, nil
}

func newClusterFetchCommand() *cobra.Command {
	var version string
	cmd := &cobra.Command{
		Use:   "fetch",
		Short: "Fetch the Kafka jars now (cluster up does it on first use)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kafka, err := cluster.Install(cmd.Context(), version, cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "Kafka %s jars in %s\n", kafka.Version, kafka.Libs)
			if kafka.JMXAgent == "" {
				fmt.Fprintln(cmd.OutOrStdout(), "no Prometheus JMX exporter agent: brokers will have /proc metrics only")
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&version, "kafka-version", cluster.DefaultKafkaVersion, "Apache Kafka version")
	return cmd
}

// warmCluster warms a cluster just started (load.WarmCluster, up to atMost)
// through its first listener, on a topic of kbench's: whatever the user measures first then
// meets a warm JIT, as a study's own clusters do.
func warmCluster(ctx context.Context, c *cluster.Cluster, atMost time.Duration, log io.Writer) error {
	ep := c.Endpoints()[0]
	admin, err := kafka.OpenAdmin(ep.Bootstrap, ep.Properties, "warm-up")
	if err != nil {
		return err
	}
	defer admin.Close()
	owned := kafka.NewOwned(kafka.Prefix)
	var pids []int
	for _, b := range c.Brokers() {
		pids = append(pids, b.PID)
	}
	return load.WarmCluster(ctx, load.WarmTarget{
		Bootstrap: ep.Bootstrap,
		Props:     ep.Properties,
		Brokers:   len(c.Brokers()),
		PIDs:      pids,
		Topic:     fmt.Sprintf("%sjit-warmup-%d", kafka.Prefix, time.Now().UnixNano()),
		Create: func(ctx context.Context, topic string, partitions, replicas int) error {
			return owned.CreateTopic(ctx, admin, topic, int32(partitions), int16(replicas), nil)
		},
		Delete: func(ctx context.Context, topic string) error {
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
			defer cancel()
			_, err := owned.DeleteTopic(dctx, admin, topic)
			return err
		},
	}, atMost, "--no-warmup skips it", log)
}
