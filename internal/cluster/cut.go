package cluster

import (
	"errors"
	"fmt"
)

// ErrNoProxies is returned by Cut when no proxy stands in front of the cluster's brokers:
// the cluster was started without a client or broker link (--client-rtt, --broker-rtt).
var ErrNoProxies = errors.New("the cluster has no proxies in front of its brokers (start it with --broker-rtt or --client-rtt, e.g. 0ms), so a network cut cannot be made")

// Cut cuts broker id off the network the proxies carry, or mends it (cut false): the
// proxies in front of its inter-broker listener (other brokers' replication fetches to it)
// and its remote listener (clients in another zone) close their connections and refuse new
// ones (zones.Proxy.Cut). Its own outgoing connections, its plain client listener and the
// KRaft controller listener are direct and stay up: this is a cut of what reaches the
// broker through its zone link. Only proxies running in this process can be cut.
func (c *Cluster) Cut(id int, cut bool) error {
	if _, err := c.broker(id); err != nil {
		return err
	}
	if err := c.CanCut(); err != nil {
		return fmt.Errorf("cut broker %d: %w", id, err)
	}
	if c.proxy != nil {
		if err := c.proxy.Cut(fmt.Sprintf("remote-%d", id), cut); err != nil {
			return fmt.Errorf("cut broker %d: %w", id, err)
		}
	}
	if c.brokerProxy != nil {
		if err := c.brokerProxy.Cut(fmt.Sprintf("internal-%d", id), cut); err != nil {
			return fmt.Errorf("cut broker %d: %w", id, err)
		}
	}
	return nil
}

// CanCut returns why Cut cannot cut a broker of this cluster, nil when it can.
func (c *Cluster) CanCut() error {
	if c.proxy != nil || c.brokerProxy != nil {
		return nil
	}
	if c.ProxyPID() != 0 {
		return fmt.Errorf("the proxies run as process %d (kbench cluster up); a cut needs them in this process", c.ProxyPID())
	}
	return ErrNoProxies
}
