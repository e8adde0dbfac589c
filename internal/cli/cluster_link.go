package cli

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/zones"
)

// linkFlags are `cluster up`'s --client-rtt and --client-bandwidth.
type linkFlags struct {
	rtt       time.Duration
	bandwidth string
	brokerRTT time.Duration
}

func (l *linkFlags) register(f *pflag.FlagSet) {
	f.DurationVar(&l.rtt, "client-rtt", 0, `add the listener "remote" through proxies adding this round-trip time (RTT/2 each way), e.g. 10ms`)
	f.StringVar(&l.bandwidth, "client-bandwidth", "", `cap the "remote" listener's bandwidth per direction, e.g. 100MiB (default unlimited)`)
	f.DurationVar(&l.brokerRTT, "broker-rtt", 0, "put each broker in a zone of its own: inter-broker traffic through proxies adding this round-trip time")
}

// brokerLink returns the link between brokers, nil when --broker-rtt was not given.
func (l *linkFlags) brokerLink(cmd *cobra.Command) (*zones.Link, error) {
	if !cmd.Flags().Changed("broker-rtt") {
		return nil, nil
	}
	link := zones.Link{RTT: l.brokerRTT}
	if err := link.Validate(); err != nil {
		return nil, fmt.Errorf("--broker-rtt: %w", err)
	}
	return &link, nil
}

// link returns the client link, nil when neither flag was given (no remote listener).
// --client-rtt 0ms alone still adds the listener: the proxies' own cost without delay.
func (l *linkFlags) link(cmd *cobra.Command) (*zones.Link, error) {
	f := cmd.Flags()
	if !f.Changed("client-rtt") && !f.Changed("client-bandwidth") {
		return nil, nil
	}
	link := zones.Link{RTT: l.rtt}
	if l.bandwidth != "" {
		b, err := zones.ParseBandwidth(l.bandwidth)
		if err != nil {
			return nil, fmt.Errorf("--client-bandwidth: %w", err)
		}
		link.Bandwidth = b
	}
	if err := link.Validate(); err != nil {
		return nil, fmt.Errorf("--client-rtt/--client-bandwidth: %w", err)
	}
	return &link, nil
}

// proxyCommand is this program's `zones proxy` command, which cluster runs as the remote
// listener's proxy process.
func proxyCommand() ([]string, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("find the kbench executable to run the zone proxies: %w", err)
	}
	return []string{exe, "zones", "proxy"}, nil
}

// proxyProcess describes where the proxies run, for cluster up and status.
func proxyProcess(c *cluster.Cluster) string {
	switch pid := c.ProxyPID(); {
	case pid == 0:
		return ""
	case c.ProxyAlive():
		return fmt.Sprintf(", proxy pid %d up", pid)
	default:
		return fmt.Sprintf(", proxy pid %d down", pid)
	}
}
