// Package target decides which cluster a command runs against, how its clients reach it
// and which of its brokers are sampled: the embedded cluster kbench started (found by its
// directory, or started for the command), or the user's own, named by its bootstrap
// servers. produce, consume, capacity and verify open a Target from their flags; kbench
// run's runner uses the same pieces (Running, Serves, EmbeddedBrokers, ExternalBrokers) for
// its study-shaped clusters, so each rule is written once.
package target

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/metrics"
)

// Spec is what the user said about the cluster, from the flags the verbs share.
type Spec struct {
	// Bootstrap is --bootstrap-server; "" falls back to Properties' bootstrap.servers, then
	// to a running embedded cluster's plain listener.
	Bootstrap string
	// Properties are the client properties (--command-config, --producer-props, ...).
	Properties map[string]string
	// ClusterDir is --cluster-dir; "" is the directory of `kbench cluster up`.
	ClusterDir string
	// MetricsURLs are --metrics-url values ([ID=]URL, metrics.AssignBrokerURLs).
	MetricsURLs []string
	// Sample is --broker-metrics when given; nil samples the brokers whenever they can be
	// read (an embedded cluster the bootstrap servers belong to, or metrics URLs).
	Sample *bool
	// Start, when above zero, starts an embedded cluster of that many brokers when neither
	// bootstrap servers nor a cluster directory were given (kbench verify); Close stops it.
	Start int
	// Log receives what the user should know (which cluster was picked, a start).
	Log io.Writer
}

// Target is the cluster a command runs against.
type Target struct {
	// Bootstrap is what the clients dial; Properties their client properties.
	Bootstrap  string
	Properties map[string]string
	// Embedded is the kbench cluster the bootstrap servers belong to; nil for another.
	Embedded *cluster.Cluster
	// Kind says which cluster, in words for result files.
	Kind string
	// Sampled are the brokers to sample (nil: broker metrics off); Proc is true when they
	// are read through this machine's /proc (an embedded cluster), with CPU allotments.
	Sampled []metrics.BrokerTarget
	Proc    bool

	started bool
}

// Open decides the target of a command.
func Open(ctx context.Context, s Spec) (*Target, error) {
	log := s.Log
	if log == nil {
		log = io.Discard
	}
	t := &Target{Bootstrap: s.Bootstrap, Properties: s.Properties}
	given := s.Bootstrap
	if given == "" {
		given = s.Properties["bootstrap.servers"]
	}
	if given == "" && s.ClusterDir == "" && s.Start > 0 {
		fmt.Fprintf(log, "starting an embedded %d-broker Kafka cluster\n", s.Start)
		c, err := cluster.Start(ctx, cluster.Options{Brokers: s.Start, Log: log})
		if err != nil {
			return nil, fmt.Errorf("start embedded cluster: %w", err)
		}
		t.Embedded, t.started, t.Bootstrap = c, true, c.Bootstrap()
		t.Kind = fmt.Sprintf("embedded, %d brokers, Kafka %s", s.Start, c.KafkaVersion())
		return t, nil
	}
	dir, dirGiven := s.ClusterDir, s.ClusterDir != ""
	if !dirGiven {
		dir, _ = cluster.DefaultDir() // no cache directory: no embedded cluster either
	}
	sampleAsked := s.Sample != nil && *s.Sample
	// The embedded cluster is looked for when it may supply the bootstrap servers or the
	// brokers to sample.
	var c *cluster.Cluster
	if dir != "" && (given == "" || (len(s.MetricsURLs) == 0 && (s.Sample == nil || sampleAsked))) {
		var err error
		c, err = Running(dir)
		if err != nil && dirGiven {
			return nil, err
		}
	}
	switch {
	case c != nil && given == "":
		t.Bootstrap, t.Embedded = c.Bootstrap(), c
		fmt.Fprintf(log, "kbench: no bootstrap servers given: using the embedded cluster in %s (%s)\n", dir, t.Bootstrap)
	case c != nil && Serves(c, given):
		t.Embedded = c
	}
	if t.Embedded != nil {
		t.Kind = "embedded in " + dir
	} else {
		t.Kind = "external " + given
	}

	sample := len(s.MetricsURLs) > 0 || t.Embedded != nil
	if s.Sample != nil {
		sample = *s.Sample
	}
	switch {
	case !sample:
	case len(s.MetricsURLs) > 0:
		// Another machine's brokers: this machine's /proc says nothing about them.
		brokers, err := urlBrokers(ctx, t.Bootstrap, s.Properties, s.MetricsURLs)
		if err != nil {
			return nil, err
		}
		t.Sampled = brokers
	case t.Embedded != nil:
		t.Sampled, t.Proc = EmbeddedBrokers(t.Embedded, true), true
	case c != nil:
		return nil, fmt.Errorf("--broker-metrics: the bootstrap servers %s are not the embedded cluster's in %s (%s); give --metrics-url once per broker",
			given, dir, c.Bootstrap())
	default:
		return nil, fmt.Errorf("--broker-metrics needs a running embedded cluster (none in %s; see --cluster-dir) or --metrics-url once per broker", dir)
	}
	return t, nil
}

// Close stops the cluster Open started, if any.
func (t *Target) Close() {
	if t != nil && t.started {
		t.Embedded.Stop()
		t.started = false
	}
}

// Running opens the embedded cluster recorded in dir and returns it when at least one of
// its brokers runs.
func Running(dir string) (*cluster.Cluster, error) {
	c, err := cluster.Open(dir)
	if err != nil {
		return nil, err
	}
	for _, alive := range c.Alive() {
		if alive {
			return c, nil
		}
	}
	return nil, fmt.Errorf("the kbench cluster in %s is not running (start it with `kbench cluster up`)", dir)
}

// Serves reports whether any of the comma-separated bootstrap servers is one of c's
// listeners.
func Serves(c *cluster.Cluster, bootstrap string) bool {
	ours := map[string]bool{}
	for _, e := range c.Endpoints() {
		for _, a := range strings.Split(e.Bootstrap, ",") {
			ours[normalizeAddr(a)] = true
		}
	}
	for _, a := range strings.Split(bootstrap, ",") {
		if a = normalizeAddr(a); a != "" && ours[a] {
			return true
		}
	}
	return false
}

// normalizeAddr reduces a bootstrap address to host:port, with the names of this machine's
// loopback (the embedded cluster listens on 127.0.0.1) spelled one way.
func normalizeAddr(a string) string {
	a = strings.TrimSpace(a)
	if _, rest, ok := strings.Cut(a, "://"); ok {
		a = rest // a listener spelled PLAINTEXT://host:port
	}
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return a
	}
	switch strings.ToLower(host) {
	case "", "localhost", "127.0.0.1", "::1":
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// EmbeddedBrokers are an embedded cluster's brokers as sampler targets: read through /proc
// and their metrics endpoints. aliveOnly leaves out brokers that are down; each broker's
// CPU allotment is its cgroup quota, else the host's cores shared by the brokers.
func EmbeddedBrokers(c *cluster.Cluster, aliveOnly bool) []metrics.BrokerTarget {
	alive := c.Alive()
	var out []metrics.BrokerTarget
	for _, b := range c.Brokers() {
		if !aliveOnly || alive[b.ID] {
			out = append(out, metrics.BrokerTarget{ID: b.ID, PID: b.PID, MetricsURL: b.MetricsURL, Combined: b.Controller})
		}
	}
	if aliveOnly {
		for i, a := range metrics.CPUAllotments("/proc", os.DirFS("/sys/fs/cgroup"), out) {
			out[i].CPUAllotment = a.Cores
		}
	}
	return out
}

// ExternalBrokers pairs a cluster's broker node ids with the metrics URLs ([ID=]URL) and
// the PIDs (in node-id order) the user gave: one target per broker, those without a source
// included.
func ExternalBrokers(ids []int, urls []string, pids []int) ([]metrics.BrokerTarget, error) {
	ids = slices.Sorted(slices.Values(ids))
	parsed, err := metrics.ParseBrokerURLs(urls)
	if err != nil {
		return nil, fmt.Errorf("metrics URL %w", err)
	}
	out, err := metrics.AssignBrokerURLs(ids, parsed)
	if err != nil {
		return nil, fmt.Errorf("metrics URL %w", err)
	}
	if len(pids) > len(ids) {
		return nil, fmt.Errorf("%d broker PIDs given but the cluster has %d broker(s): give one per broker, in node-id order", len(pids), len(ids))
	}
	for i := range out {
		if i < len(pids) {
			out[i].PID = pids[i]
		}
	}
	return out, nil
}

// urlBrokers reads --metrics-url values: URLs without an ID go to the brokers in node-id
// order, read from the cluster's metadata. Brokers without a URL are left out.
func urlBrokers(ctx context.Context, bootstrap string, props map[string]string, values []string) ([]metrics.BrokerTarget, error) {
	urls, err := metrics.ParseBrokerURLs(values)
	if err != nil {
		return nil, fmt.Errorf("--metrics-url %w", err)
	}
	var ids []int // nil when every URL names its broker (AssignBrokerURLs takes theirs)
	if metrics.NeedIDs(urls) {
		if ids, err = BrokerIDs(ctx, bootstrap, props); err != nil {
			return nil, fmt.Errorf("--metrics-url without ID=: %w", err)
		}
	}
	all, err := metrics.AssignBrokerURLs(ids, urls)
	if err != nil {
		return nil, fmt.Errorf("--metrics-url %w", err)
	}
	return slices.DeleteFunc(all, func(b metrics.BrokerTarget) bool { return b.MetricsURL == "" }), nil
}

// BrokerIDs reads the cluster's broker node ids.
func BrokerIDs(ctx context.Context, bootstrap string, props map[string]string) ([]int, error) {
	conn, err := kafka.Connect(bootstrap, props)
	if err != nil {
		return nil, err
	}
	admin, err := conn.NewAdmin("metadata")
	if err != nil {
		return nil, err
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	meta, err := admin.BrokerMetadata(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the broker ids of %s: %w", strings.Join(conn.Seeds, ","), err)
	}
	var ids []int
	for _, b := range meta.Brokers {
		ids = append(ids, int(b.NodeID))
	}
	return ids, nil
}
