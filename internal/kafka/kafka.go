// Package kafka builds every Kafka client kbench opens. Role clients (producers and
// consumers under test) are configured from the settings catalogue with ParseProperties,
// as the Java client would be; the load workers then open them. Service clients (admin,
// the agents' control client, preflight, verify's read-back, the embedded cluster's
// readiness probe) are opened here with Connect and NewClient from connection settings
// only, so that no producer or consumer default (a 16 KiB batch cap, a 500 ms fetch wait)
// leaks into them. Owned holds the one rule on what kbench may create and delete.
package kafka

import (
	"fmt"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/settings"
)

// Connection is how to reach a cluster: its seed brokers and the TLS and SASL options of
// the connection settings. It opens service clients.
type Connection struct {
	// Seeds are the bootstrap servers.
	Seeds []string
	// security are the dial and SASL options.
	security []kgo.Opt
}

// Connect reads the connection settings of props (settings.IsConnection; the others are
// left to the role clients) and the seed brokers: bootstrap (comma-separated host:port, from a flag) wins
// over bootstrap.servers. Invalid settings are an error naming the property.
func Connect(bootstrap string, props map[string]string) (*Connection, error) {
	conn := settings.Connection(props)
	// Connection settings are valid for either role; the producer's catalogue checks them.
	r, err := settings.Resolve(settings.Producer, conn)
	if err != nil {
		return nil, fmt.Errorf("invalid connection settings: %w", err)
	}
	sec, _, err := securityOpts(r.Values)
	if err != nil {
		return nil, fmt.Errorf("invalid connection settings: %w", err)
	}
	if bootstrap == "" {
		bootstrap = conn["bootstrap.servers"]
	}
	c := &Connection{security: sec}
	for _, h := range strings.Split(bootstrap, ",") {
		if h = strings.TrimSpace(h); h != "" {
			c.Seeds = append(c.Seeds, h)
		}
	}
	if len(c.Seeds) == 0 {
		return nil, fmt.Errorf("no bootstrap servers (--bootstrap-server or bootstrap.servers)")
	}
	return c, nil
}

// Security returns the TLS and SASL options alone, for a client that picks its own seeds
// (preflight dials the bootstrap servers that answered).
func (c *Connection) Security() []kgo.Opt { return append([]kgo.Opt{}, c.security...) }

// NewClient opens a service client named kbench-<service>: kbench's defaults first, then
// the connection's seeds and security, then opts, which win (kgo applies options in order).
func (c *Connection) NewClient(service string, opts ...kgo.Opt) (*kgo.Client, error) {
	all := []kgo.Opt{
		// Brokers' request logs and quotas then say which of kbench's clients asked; kgo
		// calls every client "kgo".
		kgo.ClientID("kbench-" + service),
		// A service client creates topics and reads them at once: a second, not kgo's 5 s,
		// between metadata refreshes lets it see a new topic's leaders promptly.
		kgo.MetadataMinAge(time.Second),
	}
	all = append(all, kgo.SeedBrokers(c.Seeds...))
	all = append(all, c.security...)
	all = append(all, opts...)
	cl, err := kgo.NewClient(all...)
	if err != nil {
		return nil, fmt.Errorf("open %s client for %s: %w", service, strings.Join(c.Seeds, ","), err)
	}
	return cl, nil
}

// OpenAdmin connects with the connection settings of props (Connect) and opens an admin
// service client; closing it closes the client.
func OpenAdmin(bootstrap string, props map[string]string, service string) (*kadm.Client, error) {
	conn, err := Connect(bootstrap, props)
	if err != nil {
		return nil, err
	}
	return conn.NewAdmin(service)
}

// NewAdmin opens a service client for admin requests; closing it closes the client.
func (c *Connection) NewAdmin(service string, opts ...kgo.Opt) (*kadm.Client, error) {
	cl, err := c.NewClient(service, opts...)
	if err != nil {
		return nil, err
	}
	return kadm.NewClient(cl), nil
}
