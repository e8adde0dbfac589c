package cluster

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/kbench/kbench/internal/zones"
)

// The remote listener puts the client in another zone. Each broker gets a REMOTE listener
// whose advertised address is a delay proxy (internal/zones) in front of it, so a client
// bootstrapping there learns only proxy addresses from metadata and every one of its
// connections crosses the link.
//
// Where the proxies run: brokers are separate JVMs, and the proxies must live as long as
// they do. With Options.ProxyCommand (kbench's CLI passes its own `kbench zones proxy`)
// they are one process of their own, detached with the brokers for `kbench cluster up`
// and stopped by PID with them, whose CPU is measured by PID like a broker's. Without it
// (tests, library use) they run in this process and stop with the cluster.

// remoteName is the listener's name in Endpoints, printed by `cluster up` and `status`.
const remoteName = "remote"

// proxyDir holds the proxy process's log; the process runs there, which identifies it.
func proxyDir(dir string) string { return filepath.Join(dir, "zones") }

// network is the remote listener's record in cluster.json.
type network struct {
	// ClientRTT and ClientBandwidth are the link between the client and the brokers; ""
	// without a remote listener.
	ClientRTT       string `json:"client_rtt,omitempty"`
	ClientBandwidth int64  `json:"client_bandwidth,omitempty"`
	// BrokerRTT and BrokerBandwidth are the link between brokers (Options.Broker), whose
	// proxies are BrokerRoutes (internal-N=proxy@broker's inter-broker listener).
	BrokerRTT       string   `json:"broker_rtt,omitempty"`
	BrokerBandwidth int64    `json:"broker_bandwidth,omitempty"`
	BrokerRoutes    []string `json:"broker_routes,omitempty"`
	// ProxyPID is the proxy process, 0 when the proxies run inside the starting process.
	ProxyPID int `json:"proxy_pid,omitempty"`
	// Routes are the proxies: remote-N=proxy-address@broker-address.
	Routes []string `json:"routes,omitempty"`
}

// Network describes the remote listener's link and proxies.
type Network struct {
	Link zones.Link
	// ProxyPID is the proxy process, 0 when the proxies run inside this process.
	ProxyPID int
	// Routes are the proxies, one per broker.
	Routes []zones.Route
}

// BrokerLink returns the link between brokers; ok is false when they share one zone.
func (c *Cluster) BrokerLink() (l zones.Link, ok bool) {
	s := c.state.Network
	if s == nil || s.BrokerRTT == "" {
		return zones.Link{}, false
	}
	rtt, _ := time.ParseDuration(s.BrokerRTT)
	return zones.Link{RTT: rtt, Bandwidth: s.BrokerBandwidth}, true
}

// Network returns the remote listener's link and proxies; ok is false without one.
func (c *Cluster) Network() (n Network, ok bool) {
	s := c.state.Network
	if s == nil || s.ClientRTT == "" {
		return Network{}, false
	}
	rtt, _ := time.ParseDuration(s.ClientRTT)
	n = Network{Link: zones.Link{RTT: rtt, Bandwidth: s.ClientBandwidth}, ProxyPID: s.ProxyPID}
	for _, r := range s.Routes {
		if route, err := zones.ParseRoute(r); err == nil {
			n.Routes = append(n.Routes, route)
		}
	}
	return n, true
}

// ProxyCounters returns the in-process proxies' accepts and bytes per route ("remote-1"
// for broker 1); nil when the proxies run as their own process or there are none.
func (c *Cluster) ProxyCounters() map[string]zones.Counters {
	if c.proxy == nil && c.brokerProxy == nil {
		return nil
	}
	out := map[string]zones.Counters{}
	for _, p := range []*zones.Proxy{c.proxy, c.brokerProxy} {
		if p != nil {
			maps.Copy(out, p.Counters())
		}
	}
	return out
}

// ProxyPID returns the proxy process recorded for this cluster, 0 for none.
func (c *Cluster) ProxyPID() int {
	if n := c.state.Network; n != nil {
		return n.ProxyPID
	}
	return 0
}

// ProxyAlive reports whether the proxy process recorded for this cluster is running.
func (c *Cluster) ProxyAlive() bool {
	n := c.state.Network
	return n != nil && n.ProxyPID > 0 && ownsProxy(n.ProxyPID, proxyDir(c.state.Dir))
}

// remoteListener returns the REMOTE listener's security protocol map entry, its listener
// (the broker's own port) and its advertised listener (the proxy's port).
func remoteListener(n node) (protocol, listener, advertised string) {
	return "REMOTE:PLAINTEXT", fmt.Sprintf("REMOTE://127.0.0.1:%d", n.Remote),
		fmt.Sprintf("REMOTE://127.0.0.1:%d", n.RemoteProxy)
}

// internalRoutes are the proxies in front of every node's inter-broker listener.
func internalRoutes(nodes []node) []zones.Route {
	var routes []zones.Route
	for _, n := range nodes {
		routes = append(routes, zones.Route{Name: fmt.Sprintf("internal-%d", n.ID),
			Listen: fmt.Sprintf("127.0.0.1:%d", n.InternalProxy), Target: fmt.Sprintf("127.0.0.1:%d", n.Internal)})
	}
	return routes
}

// remoteRoutes are the proxies in front of every node's REMOTE listener.
func remoteRoutes(nodes []node) []zones.Route {
	var routes []zones.Route
	for _, n := range nodes {
		routes = append(routes, zones.Route{Name: fmt.Sprintf("remote-%d", n.ID),
			Listen: fmt.Sprintf("127.0.0.1:%d", n.RemoteProxy), Target: fmt.Sprintf("127.0.0.1:%d", n.Remote)})
	}
	return routes
}

// startProxies starts the proxies of the remote listener (Options.Client) and of the
// inter-broker listener (Options.Broker), records them and adds the remote endpoint. It
// runs before the brokers start so the proxy ports, chosen free a moment ago, are taken
// again at once.
func (c *Cluster) startProxies(opts Options, nodes []node) error {
	n := &network{}
	var client, broker []zones.Route
	var addrs []string
	if opts.Client != nil {
		client = remoteRoutes(nodes)
		n.ClientRTT, n.ClientBandwidth = opts.Client.RTT.String(), opts.Client.Bandwidth
		for _, r := range client {
			n.Routes = append(n.Routes, r.String())
			addrs = append(addrs, r.Listen)
		}
	}
	if opts.Broker != nil {
		broker = internalRoutes(nodes)
		n.BrokerRTT, n.BrokerBandwidth = opts.Broker.RTT.String(), opts.Broker.Bandwidth
		for _, r := range broker {
			n.BrokerRoutes = append(n.BrokerRoutes, r.String())
		}
	}
	if len(opts.ProxyCommand) == 0 {
		if err := c.startInProcess(opts, client, broker); err != nil {
			return err
		}
	} else {
		pid, err := startProxyProcess(opts, client, broker)
		if err != nil {
			return err
		}
		n.ProxyPID = pid
	}
	c.state.Network = n
	if opts.Client != nil {
		c.state.Endpoints = append(c.state.Endpoints, Endpoint{Name: remoteName, Protocol: "PLAINTEXT", Bootstrap: strings.Join(addrs, ",")})
	}
	return c.save()
}

// startInProcess starts the proxies in this process.
func (c *Cluster) startInProcess(opts Options, client, broker []zones.Route) error {
	if opts.Client != nil {
		p, err := zones.Start(*opts.Client, client)
		if err != nil {
			return fmt.Errorf("start the remote listener's proxies: %w", err)
		}
		c.proxy = p
	}
	if opts.Broker != nil {
		p, err := zones.Start(*opts.Broker, broker)
		if err != nil {
			return fmt.Errorf("start the inter-broker proxies: %w", err)
		}
		c.brokerProxy = p
	}
	return nil
}

// proxyReady is the line the proxy process logs once it listens on every route.
const proxyReady = "proxy listening"

// startProxyProcess starts opts.ProxyCommand with the link and routes as flags, in
// proxyDir, and waits until it logs that it listens.
func startProxyProcess(opts Options, client, broker []zones.Route) (int, error) {
	dir := proxyDir(opts.Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("create proxy directory: %w", err)
	}
	logPath := filepath.Join(dir, "proxy.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return 0, fmt.Errorf("open proxy log: %w", err)
	}
	defer logFile.Close()
	args := slices.Clone(opts.ProxyCommand[1:])
	if l := opts.Client; l != nil {
		args = append(args, "--rtt", l.RTT.String())
		if l.Bandwidth > 0 {
			args = append(args, "--bandwidth", zones.FormatBandwidth(l.Bandwidth))
		}
		for _, r := range client {
			args = append(args, "--route", r.String())
		}
	}
	if l := opts.Broker; l != nil {
		args = append(args, "--broker-rtt", l.RTT.String())
		if l.Bandwidth > 0 {
			args = append(args, "--broker-bandwidth", zones.FormatBandwidth(l.Bandwidth))
		}
		for _, r := range broker {
			args = append(args, "--broker-route", r.String())
		}
	}
	cmd := exec.Command(opts.ProxyCommand[0], args...)
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := startBroker(cmd, opts.Detach); err != nil {
		return 0, fmt.Errorf("start the remote listener's proxy process: %w", err)
	}
	pid := cmd.Process.Pid
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); {
		data, _ := os.ReadFile(logPath)
		if strings.Contains(string(data), proxyReady) {
			return pid, nil
		}
		select {
		case <-exited:
			return 0, fmt.Errorf("the remote listener's proxy process exited at start: %s", lastLines(string(data), 5))
		case <-time.After(50 * time.Millisecond):
		}
	}
	_ = stopProcesses([]int{pid}, time.Second)
	return 0, fmt.Errorf("the remote listener's proxy process did not listen within 15s; its log is %s", logPath)
}

// ownsProxy reports whether pid is a `zones proxy` process running in dir.
func ownsProxy(pid int, dir string) bool {
	if pid <= 0 || !running(pid) {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	args := strings.Split(string(cmdline), "\x00")
	if !slices.Contains(args, "zones") || !slices.Contains(args, "proxy") {
		return false
	}
	cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", pid))
	if err != nil {
		return false
	}
	want, err := filepath.EvalSymlinks(dir)
	return err == nil && filepath.Clean(cwd) == want
}

// stopProxies stops the in-process proxies, or returns the proxy process's PID for the
// caller to stop with the brokers (0 when there is none running).
func (c *Cluster) stopProxies() int {
	for _, p := range []**zones.Proxy{&c.proxy, &c.brokerProxy} {
		if *p != nil {
			(*p).Close()
			*p = nil
		}
	}
	if c.ProxyAlive() {
		return c.state.Network.ProxyPID
	}
	return 0
}

// SetClientLink changes the remote listener's link on the running proxies, open
// connections included, without restarting anything: a study sweeping client_rtt or
// client_bandwidth calls it between repeats. A proxy process is told through its link file
// and SIGHUP, and this waits (up to 5 s) until it logs the change.
func (c *Cluster) SetClientLink(l zones.Link) error {
	n := c.state.Network
	if n == nil || n.ClientRTT == "" {
		return fmt.Errorf("the cluster has no remote listener (start it with --client-rtt)")
	}
	if c.proxy != nil {
		if err := c.proxy.SetLink(l); err != nil {
			return err
		}
	} else if err := c.signalLink(zones.LinkFile, "link set: ", l); err != nil {
		return err
	}
	n.ClientRTT, n.ClientBandwidth = l.RTT.String(), l.Bandwidth
	return c.save()
}

// SetBrokerLink changes the link between brokers on the running inter-broker proxies, open
// replication connections included, as SetClientLink does the client's: a study sweeping
// broker_rtt calls it between repeats. The cluster must have been started with a broker
// link (Options.Broker, --broker-rtt), 0ms included, for the proxies to exist.
func (c *Cluster) SetBrokerLink(l zones.Link) error {
	n := c.state.Network
	if n == nil || n.BrokerRTT == "" {
		return fmt.Errorf("the cluster has no inter-broker proxies (start it with --broker-rtt, 0ms for none yet)")
	}
	if c.brokerProxy != nil {
		if err := c.brokerProxy.SetLink(l); err != nil {
			return err
		}
	} else if err := c.signalLink(zones.BrokerLinkFile, "broker link set: ", l); err != nil {
		return err
	}
	n.BrokerRTT, n.BrokerBandwidth = l.RTT.String(), l.Bandwidth
	return c.save()
}

// signalLink hands l to the proxy process in file and waits for its log line prefix+l.
func (c *Cluster) signalLink(file, prefix string, l zones.Link) error {
	if err := l.Validate(); err != nil {
		return err
	}
	if !c.ProxyAlive() {
		return fmt.Errorf("the zone proxy process (pid %d) is not running", c.state.Network.ProxyPID)
	}
	dir := proxyDir(c.state.Dir)
	logPath := filepath.Join(dir, "proxy.log")
	before, _ := os.ReadFile(logPath)
	if err := zones.WriteLinkFile(filepath.Join(dir, file), l); err != nil {
		return err
	}
	if err := syscall.Kill(c.state.Network.ProxyPID, syscall.SIGHUP); err != nil {
		return fmt.Errorf("signal the proxy process: %w", err)
	}
	want := prefix + l.String()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(logPath)
		if len(data) <= len(before) {
			continue
		}
		// Whole lines: "link set: rtt 2ms" is also the tail of "broker link set: rtt 2ms".
		for _, line := range strings.Split(string(data[len(before):]), "\n") {
			if line == want {
				return nil
			}
			if strings.HasPrefix(line, "link not changed") {
				return fmt.Errorf("the proxy process refused the link: %s", line)
			}
		}
	}
	return fmt.Errorf("the proxy process did not apply %s within 5s; its log is %s", l, logPath)
}
