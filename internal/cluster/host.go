package cluster

import (
	"cmp"
	"fmt"
	"net"
	"strconv"
)

// loopback is where every listener binds unless Options.Host moves the client listeners.
const loopback = "127.0.0.1"

// checkHost accepts an IP address of this machine that clients can be sent to: Kafka
// advertises it in metadata, so a wildcard (0.0.0.0, ::) is refused, and an address no
// interface holds would only fail later inside the broker's log.
func checkHost(host string) error {
	if host == "" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return fmt.Errorf("host %q: want an IP address of this machine, e.g. 10.0.0.5", host)
	}
	if ip.IsUnspecified() {
		return fmt.Errorf("host %s: brokers are advertised at this address, so it must be one clients can connect to, not a wildcard", host)
	}
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return fmt.Errorf("host %s: not an address brokers can listen on here: %w", host, err)
	}
	return l.Close()
}

// clientHost is the address of the client listeners (plain, sasl, tls).
func (o Options) clientHost() string { return cmp.Or(o.Host, loopback) }

// clientHost is the address of the running cluster's client listeners.
func (c *Cluster) clientHost() string { return cmp.Or(c.state.Host, loopback) }

// hostPort joins an address and a port, with brackets for IPv6 as Kafka's listeners want.
func hostPort(host string, port int) string { return net.JoinHostPort(host, strconv.Itoa(port)) }
