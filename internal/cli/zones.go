package cli

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/zones"
)

func newZonesCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "zones",
		Short: "Network delay and bandwidth between zones (the remote listener's proxies)",
		Long: `The remote listener of an embedded cluster (kbench cluster up --client-rtt 10ms) puts the
client in another zone: each broker's remote listener is advertised at a userspace proxy that
delays every byte by RTT/2 in each direction and can cap the bandwidth.`,
	}
	cmd.AddCommand(newZonesProxyCommand())
	return cmd
}

// newZonesProxyCommand is the proxy process `kbench cluster up` starts beside the brokers.
// It is a command so that the proxies outlive `cluster up` as the brokers do, and so their
// CPU can be read by PID.
func newZonesProxyCommand() *cobra.Command {
	var (
		rtt       time.Duration
		bandwidth string
		routes    []string
	)
	cmd := &cobra.Command{
		Use:   "proxy --rtt 10ms --route NAME=LISTEN@TARGET ...",
		Short: "Run delay proxies until stopped (started by kbench cluster up; SIGTERM stops it)",
		Long: `Run delay proxies until SIGTERM. On SIGHUP the proxy reads a new link from the file
link.json in its working directory ({"rtt": "20ms", "bandwidth": 0}) and applies it to every
connection, open ones included.`,
		Example: `  kbench zones proxy --rtt 10ms --bandwidth 100MiB \
    --route remote-1=127.0.0.1:19092@127.0.0.1:9092`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			link := zones.Link{RTT: rtt}
			if bandwidth != "" {
				b, err := zones.ParseBandwidth(bandwidth)
				if err != nil {
					return fmt.Errorf("--bandwidth: %w", err)
				}
				link.Bandwidth = b
			}
			if len(routes) == 0 {
				return fmt.Errorf("--route: give at least one NAME=LISTEN@TARGET")
			}
			var rs []zones.Route
			for _, s := range routes {
				r, err := zones.ParseRoute(s)
				if err != nil {
					return fmt.Errorf("--route: %w", err)
				}
				rs = append(rs, r)
			}
			p, err := zones.Start(link, rs)
			if err != nil {
				return err
			}
			defer p.Close()
			stop := make(chan os.Signal, 1)
			signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
			defer signal.Stop(stop)
			reload := make(chan os.Signal, 1)
			signal.Notify(reload, syscall.SIGHUP)
			defer signal.Stop(reload)
			out := cmd.OutOrStdout()
			// cluster.startProxyProcess waits for this line.
			fmt.Fprintf(out, "proxy listening: %s on %d route(s)\n", link, len(rs))
		wait:
			for {
				select {
				case <-stop:
					break wait
				case <-cmd.Context().Done():
					break wait
				case <-reload:
					// cluster.SetClientLink wrote the new link and waits for this line.
					l, err := zones.ReadLinkFile(zones.LinkFile)
					if err == nil {
						err = p.SetLink(l)
					}
					if err != nil {
						fmt.Fprintf(out, "link not changed: %v\n", err)
						continue
					}
					fmt.Fprintf(out, "link set: %s\n", l)
				}
			}
			for _, r := range rs {
				c := p.Counters()[r.Name]
				fmt.Fprintf(out, "%s: %d connection(s) accepted, %d bytes up, %d bytes down\n", r.Name, c.Accepts, c.Up, c.Down)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.DurationVar(&rtt, "rtt", 0, "round-trip time to add (RTT/2 each way)")
	f.StringVar(&bandwidth, "bandwidth", "", "bandwidth per direction shared by all routes, e.g. 100MiB (default unlimited)")
	f.StringArrayVar(&routes, "route", nil, "NAME=LISTEN@TARGET, repeatable")
	return cmd
}
