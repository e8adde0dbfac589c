package cli

import (
	"errors"
	"fmt"
	"io"
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
	var client, broker proxyGroupFlags
	cmd := &cobra.Command{
		Use:   "proxy --rtt 10ms --route NAME=LISTEN@TARGET ...",
		Short: "Run delay proxies until stopped (started by kbench cluster up; SIGTERM stops it)",
		Long: `Run delay proxies until SIGTERM: --route ones with the client link (--rtt, --bandwidth),
--broker-route ones with the link between brokers (--broker-rtt, --broker-bandwidth). On
SIGHUP the proxy reads a new client link from the file link.json in its working directory
({"rtt": "20ms", "bandwidth": 0}), and a new link between brokers from broker-link.json,
applies each to every connection of its routes, open ones included, and removes the file.`,
		Example: `  kbench zones proxy --rtt 10ms --bandwidth 100MiB \
    --route remote-1=127.0.0.1:19092@127.0.0.1:9092`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cp, err := client.start("")
			if err != nil {
				return err
			}
			bp, err := broker.start("broker-")
			if err != nil {
				if cp != nil {
					cp.Close()
				}
				return err
			}
			if cp == nil && bp == nil {
				return fmt.Errorf("--route: give at least one NAME=LISTEN@TARGET (or --broker-route)")
			}
			proxies := []*zones.Proxy{cp, bp}
			defer func() {
				for _, p := range proxies {
					if p != nil {
						p.Close()
					}
				}
			}()
			out := cmd.OutOrStdout()
			serveProxies(cmd, out, cp, bp)
			for i, p := range proxies {
				if p == nil {
					continue
				}
				routes := []proxyGroupFlags{client, broker}[i].routes
				for _, s := range routes {
					r, _ := zones.ParseRoute(s)
					c := p.Counters()[r.Name]
					fmt.Fprintf(out, "%s: %d connection(s) accepted, %d bytes up, %d bytes down\n", r.Name, c.Accepts, c.Up, c.Down)
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.DurationVar(&client.rtt, "rtt", 0, "round-trip time to add (RTT/2 each way)")
	f.StringVar(&client.bandwidth, "bandwidth", "", "bandwidth per direction shared by all routes, e.g. 100MiB (default unlimited)")
	f.StringArrayVar(&client.routes, "route", nil, "NAME=LISTEN@TARGET, repeatable")
	f.DurationVar(&broker.rtt, "broker-rtt", 0, "round-trip time the --broker-route proxies add")
	f.StringVar(&broker.bandwidth, "broker-bandwidth", "", "bandwidth per direction of the --broker-route proxies")
	f.StringArrayVar(&broker.routes, "broker-route", nil, "NAME=LISTEN@TARGET between brokers, repeatable")
	return cmd
}

// proxyGroupFlags are one link's flags: its RTT, bandwidth and routes.
type proxyGroupFlags struct {
	rtt       time.Duration
	bandwidth string
	routes    []string
}

// start starts the group's proxies; nil without routes. prefix names its flags.
func (g proxyGroupFlags) start(prefix string) (*zones.Proxy, error) {
	if len(g.routes) == 0 {
		return nil, nil
	}
	link := zones.Link{RTT: g.rtt}
	if g.bandwidth != "" {
		b, err := zones.ParseBandwidth(g.bandwidth)
		if err != nil {
			return nil, fmt.Errorf("--%sbandwidth: %w", prefix, err)
		}
		link.Bandwidth = b
	}
	var rs []zones.Route
	for _, s := range g.routes {
		r, err := zones.ParseRoute(s)
		if err != nil {
			return nil, fmt.Errorf("--%sroute: %w", prefix, err)
		}
		rs = append(rs, r)
	}
	return zones.Start(link, rs)
}

// serveProxies logs that the proxies listen and waits for SIGTERM, applying on each SIGHUP
// the new client link in link.json and the new link between brokers in broker-link.json,
// whichever was written (each file is removed once applied).
func serveProxies(cmd *cobra.Command, out io.Writer, client, broker *zones.Proxy) {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, os.Interrupt)
	defer signal.Stop(stop)
	reload := make(chan os.Signal, 1)
	signal.Notify(reload, syscall.SIGHUP)
	defer signal.Stop(reload)
	// cluster.startProxyProcess waits for this line.
	fmt.Fprintln(out, "proxy listening")
	for {
		select {
		case <-stop:
			return
		case <-cmd.Context().Done():
			return
		case <-reload:
			// cluster.SetClientLink and SetBrokerLink wrote a link and wait for its line.
			reloadLink(out, zones.LinkFile, "link set: ", "no client routes", client)
			reloadLink(out, zones.BrokerLinkFile, "broker link set: ", "no broker routes", broker)
			reloadCut(out, zones.CutFile, client, broker)
		}
	}
}

// reloadLink applies the link in file to p, if the file exists, logs the outcome and
// removes the file.
func reloadLink(out io.Writer, file, done, missing string, p *zones.Proxy) {
	if _, err := os.Stat(file); err != nil {
		return
	}
	defer os.Remove(file)
	l, err := zones.ReadLinkFile(file)
	if err == nil && p == nil {
		err = errors.New(missing)
	}
	if err == nil {
		err = p.SetLink(l)
	}
	if err != nil {
		fmt.Fprintf(out, "link not changed: %v\n", err)
		return
	}
	fmt.Fprintf(out, "%s%s\n", done, l)
}
