package cluster

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/kbench/kbench/internal/zones"
)

// ErrNoProxies is returned by Cut when no proxy stands in front of the cluster's brokers:
// the cluster was started without a client or broker link (--client-rtt, --broker-rtt).
var ErrNoProxies = errors.New("the cluster has no proxies in front of its brokers, so a network cut cannot be made: start one with `kbench cluster up --broker-rtt 0ms` and use it with --cluster-dir")

// Cut cuts broker id off the network the proxies carry, or mends it (cut false): the
// proxies in front of its inter-broker listener (other brokers' replication fetches to it)
// and its remote listener (clients in another zone) close their connections and refuse new
// ones (zones.Proxy.Cut). Its own outgoing connections, its plain client listener and the
// KRaft controller listener are direct and stay up: this is a cut of what reaches the
// broker through its zone link. Proxies in their own process (`kbench cluster up`) are
// told through their cut file and SIGHUP, and Cut waits (up to 5 s) for them to apply it.
func (c *Cluster) Cut(id int, cut bool) error {
	if _, err := c.broker(id); err != nil {
		return err
	}
	if err := c.CanCut(); err != nil {
		return fmt.Errorf("cut broker %d: %w", id, err)
	}
	routes := c.brokerRoutes(id)
	if c.proxy == nil && c.brokerProxy == nil {
		return c.signalCut(routes, cut)
	}
	for _, p := range []*zones.Proxy{c.proxy, c.brokerProxy} {
		if p == nil {
			continue
		}
		for _, r := range p.Routes() {
			if slices.Contains(routes, r.Name) {
				if err := p.Cut(r.Name, cut); err != nil {
					return fmt.Errorf("cut broker %d: %w", id, err)
				}
			}
		}
	}
	return nil
}

// CanCut returns why Cut cannot cut a broker of this cluster, nil when it can.
func (c *Cluster) CanCut() error {
	if c.proxy != nil || c.brokerProxy != nil {
		return nil
	}
	if pid := c.ProxyPID(); pid != 0 {
		if !c.ProxyAlive() {
			return fmt.Errorf("the zone proxy process (pid %d) is not running", pid)
		}
		return nil
	}
	return ErrNoProxies
}

// brokerRoutes names the proxy routes in front of broker id: remote-N with a client link,
// internal-N with a broker link.
func (c *Cluster) brokerRoutes(id int) []string {
	var routes []string
	if n := c.state.Network; n != nil {
		if n.ClientRTT != "" {
			routes = append(routes, fmt.Sprintf("remote-%d", id))
		}
		if n.BrokerRTT != "" {
			routes = append(routes, fmt.Sprintf("internal-%d", id))
		}
	}
	return routes
}

// signalCut adds routes to (or removes them from) the set the proxy process keeps cut,
// hands it the whole set in its cut file, and waits for its "cut set: ..." line.
func (c *Cluster) signalCut(routes []string, cut bool) error {
	c.cutMu.Lock()
	defer c.cutMu.Unlock()
	want := maps.Clone(c.cutRoutes)
	if want == nil {
		want = map[string]bool{}
	}
	for _, r := range routes {
		if cut {
			want[r] = true
		} else {
			delete(want, r)
		}
	}
	names := slices.Sorted(maps.Keys(want))
	dir := proxyDir(c.state.Dir)
	logPath := filepath.Join(dir, "proxy.log")
	before, _ := os.ReadFile(logPath)
	if err := zones.WriteCutFile(filepath.Join(dir, zones.CutFile), names); err != nil {
		return err
	}
	if err := syscall.Kill(c.state.Network.ProxyPID, syscall.SIGHUP); err != nil {
		return fmt.Errorf("signal the proxy process: %w", err)
	}
	line := "cut set: none"
	if len(names) > 0 {
		line = "cut set: " + strings.Join(names, ", ")
	}
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		data, _ := os.ReadFile(logPath)
		if len(data) <= len(before) {
			continue
		}
		for _, l := range strings.Split(string(data[len(before):]), "\n") {
			if l == line {
				c.cutRoutes = want
				return nil
			}
			if strings.HasPrefix(l, "cut not changed") {
				return fmt.Errorf("the proxy process refused the cut: %s", l)
			}
		}
	}
	return fmt.Errorf("the proxy process did not apply the cut (%s) within 5s; its log is %s", strings.TrimPrefix(line, "cut set: "), logPath)
}
