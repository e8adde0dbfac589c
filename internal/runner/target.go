package runner

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/preflight"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
	tgt "github.com/kbench/kbench/internal/target"
	"github.com/kbench/kbench/internal/zones"
)

// External is a running cluster kbench attaches to.
type External struct {
	// Bootstrap is the comma-separated host:port list.
	Bootstrap string
	// Properties are Java client properties (security settings) for every client.
	Properties map[string]string
	// CommandConfig is the file Properties were read from, recorded (never its content) so
	// a resume can read it again; "" when none.
	CommandConfig string
	// MetricsURLs are the brokers' Prometheus endpoints, if known: the Nth URL is the Nth
	// broker by node ID. Brokers without one are measured from the clients only.
	MetricsURLs []string
	// BrokerPIDs are the brokers' processes when they run on this machine (a cluster the
	// caller started), in the order of MetricsURLs, so their CPU is read from /proc as for
	// an embedded cluster; empty for a remote cluster.
	BrokerPIDs []int
}

// endpoint is how clients reach the cluster through one listener.
type endpoint struct {
	bootstrap string
	props     map[string]string // client security properties
	proxyPID  int               // the remote listener's proxy process, whose CPU is measured
}

// target is the cluster the scenarios run on and what kbench knows about it.
type target struct {
	kind         results.ClusterKind
	endpoint                         // the default listener: admin client, warm-up, scenarios without one
	listeners    map[string]endpoint // an embedded cluster's listeners by name ("plain", "sasl", "tls")
	brokers      []metrics.BrokerTarget
	kafkaVersion string
	brokerConfig map[string]string
	embedded     *cluster.Cluster // started by this run, stopped at its end
	limits       string           // an embedded cluster's broker limits in words, "" for none
	zone         string           // the remote listener's link in words, "" without one
	zoned        *cluster.Cluster // the embedded cluster whose zone links the link parameters change
	baseClient   *zones.Link      // the remote listener's link as started, nil without one
	baseBroker   *zones.Link      // the link between brokers as started, nil without proxies
	brokerZones  string           // the link between brokers in words, "" when they share a zone
	fresh        bool             // started for this run: its JIT is cold
	external     *External        // the cluster attached to, nil for an embedded one
	clusterID    string           // Kafka's cluster ID, from the metadata
	admin        *kadm.Client
	client       *kgo.Client
}

// connect starts the study's embedded cluster, uses the caller's (Options.Cluster), or
// attaches to the external one (asking for confirmation once it answered).
func connect(ctx context.Context, opts Options, shape study.Shape) (*target, error) {
	ext := opts.External
	if ext == nil && opts.Cluster == nil && opts.Plan.Cluster.External != nil {
		e := opts.Plan.Cluster.External
		ext = &External{Bootstrap: e.Bootstrap, MetricsURLs: e.MetricsURLs, CommandConfig: absPath(e.CommandConfig)}
		if e.CommandConfig != "" {
			props, err := cluster.ReadProperties(e.CommandConfig)
			if err != nil {
				return nil, fmt.Errorf("read command_config: %w", err)
			}
			ext.Properties = props
		}
	}
	var t *target
	switch {
	case ext != nil:
		t = externalTarget(ext)
	case opts.Cluster != nil:
		// The caller's cluster may have run load already; warming it is the caller's choice.
		t = embeddedTarget(opts.Cluster, opts.Cluster.BrokerConfig())
		if opts.Plan.Cluster.Network != nil {
			e, ok := t.listeners["remote"]
			if !ok {
				return nil, fmt.Errorf("the study sets cluster.network but the cluster in %s has no remote listener: start it with kbench cluster up --client-rtt", opts.Cluster.Dir())
			}
			t.endpoint = e
		}
	default:
		var err error
		if t, err = startEmbedded(ctx, opts, shape); err != nil {
			return nil, err
		}
	}
	if err := t.openAdmin(); err != nil {
		t.close(opts.Log)
		return nil, err
	}
	// Fail fast, with the cause, when the cluster cannot be reached or refuses the
	// credentials: an embedded cluster we started was probed by cluster.Start already.
	if t.embedded == nil {
		if err := t.ping(ctx); err != nil {
			t.close(opts.Log)
			return nil, err
		}
	}
	if err := t.identify(ctx); err != nil {
		t.close(opts.Log)
		return nil, err
	}
	// Asked once the cluster answered, on loopback too: a port forward or a tunnel reaches
	// a real cluster.
	if ext != nil && opts.Confirm != nil && !opts.Confirm(describeLoad(opts.Plan, ext.Bootstrap, opts.MaxRate)) {
		t.close(opts.Log)
		return nil, fmt.Errorf("not confirmed: no topic or group was created on %s", ext.Bootstrap)
	}
	return t, nil
}

// externalTarget describes the cluster attached to; its brokers are known after identify.
func externalTarget(ext *External) *target {
	return &target{kind: results.External, endpoint: endpoint{bootstrap: ext.Bootstrap, props: ext.Properties}, external: ext}
}

// identify reads the cluster ID and, for an external cluster, its brokers: the Nth
// metrics URL (and PID) goes to the Nth broker by node ID; brokers past the last URL have
// no source and are measured from the clients only.
func (t *target) identify(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	meta, err := t.admin.BrokerMetadata(ctx)
	if err != nil {
		return fmt.Errorf("read the metadata of the cluster at %s: %w", t.bootstrap, err)
	}
	t.clusterID = meta.Cluster
	if t.external == nil {
		return nil
	}
	ids := make([]int, 0, len(meta.Brokers))
	for _, b := range meta.Brokers {
		ids = append(ids, int(b.NodeID))
	}
	brokers, err := tgt.ExternalBrokers(ids, t.external.MetricsURLs, t.external.BrokerPIDs)
	if err != nil {
		return fmt.Errorf("cluster at %s: %w", t.bootstrap, err)
	}
	t.brokers = brokers
	return nil
}

// brokerMetrics says which brokers have a metrics source, for run.json.
func (t *target) brokerMetrics() *results.BrokerMetrics {
	bm := &results.BrokerMetrics{Sampled: []int{}}
	for _, b := range t.brokers {
		if b.HasSource() {
			bm.Sampled = append(bm.Sampled, b.ID)
		} else {
			bm.Missing = append(bm.Missing, b.ID)
		}
	}
	return bm
}

// sampled are the brokers with a metrics source, the only ones the sampler reads.
func (t *target) sampled() []metrics.BrokerTarget {
	var out []metrics.BrokerTarget
	for _, b := range t.brokers {
		if b.HasSource() {
			out = append(out, b)
		}
	}
	return out
}

// absPath makes a recorded path usable from another working directory; "" stays "".
func absPath(p string) string {
	if p == "" {
		return ""
	}
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// startEmbedded starts the study's cluster in the given shape (brokers, version, heap and
// limits, which a study may vary per scenario); the rest comes from the cluster section.
func startEmbedded(ctx context.Context, opts Options, shape study.Shape) (*target, error) {
	spec := opts.Plan.Cluster
	fmt.Fprintf(opts.Log, "starting an embedded %d-broker Kafka %s cluster (heap %s)\n", shape.Brokers, shape.KafkaVersion, shape.Heap)
	// The shape's own broker configs (set by parameters) override the cluster section's.
	brokerConfigs := maps.Clone(spec.BrokerConfigs)
	if brokerConfigs == nil {
		brokerConfigs = map[string]string{}
	}
	maps.Copy(brokerConfigs, shape.BrokerConfigMap())
	c, err := cluster.Start(ctx, cluster.Options{Brokers: shape.Brokers, Heap: shape.Heap, SASL: spec.SASL, TLS: spec.TLS,
		KafkaVersion: shape.KafkaVersion, BrokerConfig: brokerConfigs, Limits: shape.Limits, Log: opts.Log,
		Client: spec.Network, Broker: spec.BrokerNetwork, ProxyCommand: opts.ProxyCommand})
	if err != nil {
		return nil, fmt.Errorf("start embedded cluster: %w", err)
	}
	t := embeddedTarget(c, brokerConfigs)
	t.embedded, t.fresh = c, true
	if spec.Network != nil {
		// The study put its clients in another zone: that is what it measures.
		t.endpoint = t.listeners["remote"]
	}
	return t, nil
}

// embeddedTarget describes a running embedded cluster with all its listeners.
func embeddedTarget(c *cluster.Cluster, brokerConfig map[string]string) *target {
	t := &target{kind: results.Embedded, listeners: map[string]endpoint{}, kafkaVersion: c.KafkaVersion(),
		brokerConfig: brokerConfig}
	for _, e := range c.Endpoints() {
		t.listeners[e.Name] = endpoint{bootstrap: e.Bootstrap, props: e.Properties}
	}
	if l, ok := c.BrokerLink(); ok {
		t.zoned, t.baseBroker = c, &l
		t.brokerZones = fmt.Sprintf("each broker in its own zone: inter-broker traffic through delay proxies with %s (%s each way)", l, l.OneWay())
	}
	if n, ok := c.Network(); ok {
		t.zoned, t.baseClient = c, &n.Link
		t.zone = fmt.Sprintf("%s (%s each way)", n.Link, n.Link.OneWay())
		if n.ProxyPID > 0 && c.ProxyAlive() {
			e := t.listeners["remote"]
			e.proxyPID = n.ProxyPID
			t.listeners["remote"] = e
		}
	}
	// By default the clients use the most secure listener the cluster has, so SASL/TLS
	// costs are what gets measured when a study asks for them.
	t.endpoint = t.listeners["plain"]
	for _, name := range []string{"tls", "sasl"} {
		if e, ok := t.listeners[name]; ok {
			t.endpoint = e
		}
	}
	t.brokers = tgt.EmbeddedBrokers(c, false)
	if l := c.Limits(); l.Any() || l.Disk.Tmpfs {
		t.limits = l.String()
	}
	return t
}

// endpointFor is the listener a scenario's clients use: its own (study.Scenario.Listener)
// or the target's default.
func (t *target) endpointFor(listener string) (endpoint, error) {
	if listener == "" {
		return t.endpoint, nil
	}
	if t.listeners == nil {
		return endpoint{}, fmt.Errorf("listener %s applies only to an embedded cluster; an external cluster's security settings come from --command-config", listener)
	}
	e, ok := t.listeners[listener]
	if !ok {
		return endpoint{}, fmt.Errorf("the cluster has no %s listener (it has %s)", listener, strings.Join(slices.Sorted(maps.Keys(t.listeners)), ", "))
	}
	return e, nil
}

// checkListeners makes sure the listener of every scenario of this shape (the scenarios
// this cluster serves) exists before anything runs on it.
func (t *target) checkListeners(plan *study.Plan, shape study.Shape) error {
	for _, sc := range plan.Scenarios {
		if sc.Cluster != shape {
			continue
		}
		if _, err := t.endpointFor(sc.Listener); err != nil {
			return fmt.Errorf("scenario %s: %w", sc.ID, err)
		}
	}
	return nil
}

// openAdmin opens the run's admin client from the connection settings of the target's
// properties.
func (t *target) openAdmin() error {
	conn, err := kafka.Connect(t.bootstrap, t.props)
	if err != nil {
		return err
	}
	if t.client, err = conn.NewClient("admin"); err != nil {
		return err
	}
	t.admin = kadm.NewClient(t.client)
	return nil
}

// ping fails fast, with the cause, when the cluster cannot be reached, refuses the
// credentials or denies what a run does: create, write, read and delete topics kbench-*,
// and join groups kbench-* (preflight.Check, within preflight.Timeout).
func (t *target) ping(ctx context.Context) error {
	if _, err := preflight.Check(ctx, t.bootstrap, t.props, preflight.Need{CreatePrefix: "kbench-", Group: "kbench-preflight-probe"}); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, pingTimeout)
	defer cancel()
	if versions, err := t.admin.ApiVersions(ctx); err == nil {
		for _, v := range versions {
			// A broker whose request failed (a cancelled run, a broker going away) has no
			// versions to guess from: kadm would dereference its missing response.
			if v.Err != nil {
				continue
			}
			if guess := v.VersionGuess(); guess != "" {
				t.kafkaVersion = strings.TrimPrefix(guess, "v")
				break
			}
		}
	}
	return nil
}

func (t *target) close(log io.Writer) {
	if t.client != nil {
		t.client.Close()
	}
	// A cluster the caller started (Options.Cluster) keeps running.
	if t.embedded != nil {
		fmt.Fprintln(log, "stopping the embedded cluster")
		if err := t.embedded.Stop(); err != nil {
			fmt.Fprintf(log, "stop embedded cluster: %v\n", err)
		}
	}
}

func (t *target) environment(version string) results.Environment {
	env := results.Environment{
		KbenchVersion: version, KafkaVersion: t.kafkaVersion, GoVersion: runtime.Version(),
		Cluster: t.kind, Brokers: len(t.brokers), Bootstrap: t.bootstrap,
		Security: t.props["security.protocol"], BrokerConfig: t.brokerConfig, BrokerMetrics: t.brokerMetrics(),
		ClientPlacement: "same host as the brokers (loopback); clients and brokers share the CPUs",
		BrokerLimits:    t.limits,
	}
	if env.Security == "" {
		env.Security = "PLAINTEXT"
	}
	if t.zone != "" {
		env.ClientPlacement += "; through the remote listener, another zone: delay proxies with " + t.zone
	}
	if t.brokerZones != "" {
		env.ClientPlacement += "; " + t.brokerZones
	}
	if t.kind == results.External {
		env.ClientPlacement = "the host kbench ran on; brokers elsewhere"
		if onLoopback(t.bootstrap) {
			env.ClientPlacement = "same host as the brokers (loopback)"
		}
	}
	if host, err := results.CollectHost(os.DirFS("/proc"), os.DirFS("/sys")); err == nil {
		env.Host = host
	}
	return env
}

// onLoopback reports whether every bootstrap server is a loopback address.
func onLoopback(bootstrap string) bool {
	for _, hp := range strings.Split(bootstrap, ",") {
		host, _, err := net.SplitHostPort(strings.TrimSpace(hp))
		if err != nil {
			return false
		}
		if host == "localhost" {
			continue
		}
		ip := net.ParseIP(host)
		if ip == nil || !ip.IsLoopback() {
			return false
		}
	}
	return true
}
