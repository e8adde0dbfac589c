// --broker-metrics of kbench produce and kbench consume: what the brokers paid for the run.

package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

// brokerSampleInterval is the broker sampler's period: the DESIGN's one second, so the
// figures compare with those of kbench run.
const brokerSampleInterval = time.Second

// brokerMetricsFlags are the flags produce and consume share for the brokers' side of a run.
type brokerMetricsFlags struct {
	on         bool     // --broker-metrics
	urls       []string // --metrics-url, [ID=]URL
	clusterDir string   // --cluster-dir
}

func (f *brokerMetricsFlags) register(fs *pflag.FlagSet) {
	fs.BoolVar(&f.on, "broker-metrics", false,
		"after the summary, one line per broker: CPU, disk, network, RSS (default: on when the bootstrap servers are a running embedded cluster's)")
	fs.StringArrayVar(&f.urls, "metrics-url", nil,
		"a broker's Prometheus metrics URL, [ID=]URL, once per broker (without ID=, the Nth in node-id order); turns --broker-metrics on")
	fs.StringVar(&f.clusterDir, "cluster-dir", "", "`DIR` of the embedded cluster whose brokers to sample (default: that of kbench cluster up)")
}

// brokerMetricsHelp is the paragraph both verbs' help gives the flags above.
const brokerMetricsHelp = `--broker-metrics adds one line per broker after the summary: its CPU (cores, mean and max,
and % of its allotment), disk write and read, network in and out (replication named apart)
and RSS, averaged over the measured window (after warm-up), sampled every second. It is on
by default when the bootstrap servers belong to a running embedded cluster (the one of
` + "`kbench cluster up`" + `, or --cluster-dir), whose brokers are read through /proc and their
metrics endpoints. For any other cluster give --metrics-url once per broker (the Prometheus
JMX exporter's endpoint); CPU and RSS then come from the exporter's process metrics. Without
bootstrap servers, a running embedded cluster's plain listener is used. --json holds the
figures under "broker_metrics".`

// brokerSampling is a configured broker sampler and the window it is to report.
type brokerSampling struct {
	sampler  *metrics.Sampler
	interval time.Duration
	ctx      context.Context // the run's; nil until started
}

// setup finds the cluster the run targets and returns the sampler to run, or nil when broker
// metrics are off. When no bootstrap servers were given (neither *bootstrap nor
// bootstrap.servers in props) and an embedded cluster is running, it sets *bootstrap to that
// cluster's plain listener and says so on log.
func (f *brokerMetricsFlags) setup(cmd *cobra.Command, bootstrap *string, props map[string]string, log io.Writer) (*brokerSampling, error) {
	explicit := cmd.Flags().Changed("broker-metrics")
	given := *bootstrap
	if given == "" {
		given = props["bootstrap.servers"]
	}
	dir, dirGiven := f.clusterDir, f.clusterDir != ""
	if !dirGiven {
		dir, _ = cluster.DefaultDir() // no cache directory: no embedded cluster either
	}

	// The embedded cluster is looked for when it may supply the bootstrap servers or the
	// brokers to sample.
	var c *cluster.Cluster
	wantCluster := given == "" || (len(f.urls) == 0 && (!explicit || f.on))
	if dir != "" && wantCluster {
		var err error
		c, err = runningCluster(dir)
		if err != nil && dirGiven {
			return nil, err
		}
	}

	matched := false
	switch {
	case c != nil && given == "":
		*bootstrap = c.Bootstrap()
		matched = true
		fmt.Fprintf(log, "kbench: no bootstrap servers given: using the embedded cluster in %s (%s)\n", dir, *bootstrap)
	case c != nil:
		matched = sameCluster(given, c)
	}

	on := len(f.urls) > 0 || matched
	if explicit {
		on = f.on
	}
	if !on {
		return nil, nil
	}
	cfg := metrics.SamplerConfig{Interval: brokerSampleInterval}
	switch {
	case len(f.urls) > 0:
		// Another machine's brokers: this machine's /proc says nothing about them.
		targets, err := brokerURLTargets(cmd.Context(), given, props, f.urls)
		if err != nil {
			return nil, err
		}
		for _, t := range targets {
			if t.MetricsURL != "" {
				cfg.Brokers = append(cfg.Brokers, t)
			}
		}
	case matched:
		cfg.Proc = "/proc"
		alive := c.Alive()
		for _, b := range c.Brokers() {
			if alive[b.ID] {
				cfg.Brokers = append(cfg.Brokers, metrics.BrokerTarget{ID: b.ID, PID: b.PID, MetricsURL: b.MetricsURL, Combined: b.Controller})
			}
		}
		// Each broker's CPU % is of its own allotment, as in a study run: its cgroup quota,
		// else the host's cores shared by the brokers.
		cfg.Cgroup = os.DirFS("/sys/fs/cgroup")
		for i, a := range metrics.CPUAllotments(cfg.Proc, cfg.Cgroup, cfg.Brokers) {
			cfg.Brokers[i].CPUAllotment = a.Cores
		}
	case c != nil:
		return nil, fmt.Errorf("--broker-metrics: the bootstrap servers %s are not the embedded cluster's in %s (%s); give --metrics-url once per broker",
			given, dir, c.Bootstrap())
	default:
		return nil, fmt.Errorf("--broker-metrics needs a running embedded cluster (none in %s; see --cluster-dir) or --metrics-url once per broker", dir)
	}
	s, err := metrics.NewSampler(cfg)
	if err != nil {
		return nil, err
	}
	return &brokerSampling{sampler: s, interval: cfg.Interval}, nil
}

// runningCluster opens the embedded cluster recorded in dir and returns it when at least one
// of its brokers runs.
func runningCluster(dir string) (*cluster.Cluster, error) {
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

// sameCluster reports whether any of the comma-separated bootstrap servers is one of c's
// listeners.
func sameCluster(bootstrap string, c *cluster.Cluster) bool {
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

// brokerURLTargets reads --metrics-url values ([ID=]URL, metrics.AssignBrokerURLs): URLs
// without an ID go to the brokers in node-id order, read from the cluster's metadata.
func brokerURLTargets(ctx context.Context, bootstrap string, props map[string]string, values []string) ([]metrics.BrokerTarget, error) {
	urls, err := metrics.ParseBrokerURLs(values)
	if err != nil {
		return nil, fmt.Errorf("--metrics-url %w", err)
	}
	var ids []int
	if metrics.NeedIDs(urls) {
		if ids, err = brokerIDs(ctx, bootstrap, props); err != nil {
			return nil, fmt.Errorf("--metrics-url without ID=: %w", err)
		}
	}
	targets, err := metrics.AssignBrokerURLs(ids, urls)
	if err != nil {
		return nil, fmt.Errorf("--metrics-url %w", err)
	}
	return targets, nil
}

// brokerIDs reads the cluster's broker node ids.
func brokerIDs(ctx context.Context, bootstrap string, props map[string]string) ([]int, error) {
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

// start begins sampling; the first row comes one interval later.
func (b *brokerSampling) start(ctx context.Context) {
	if b == nil {
		return
	}
	b.ctx = ctx
	b.sampler.Start(ctx)
}

// close stops sampling, if it still runs (a run that failed).
func (b *brokerSampling) close() {
	if b != nil {
		b.sampler.Stop()
	}
}

// stop waits for the row that covers the end of the window [from, to], ends sampling and
// reduces the rows to a summary, or returns nil when the window holds no row. A row covers
// the interval that ends at its time and counts when that interval overlaps the window: the
// end of a run is in the row after it, and a run shorter than a sample still gets one. Notes
// for the user (a broker that could not be read, no row at all) go to log.
func (b *brokerSampling) stop(from, to time.Time, log io.Writer) *metrics.Summary {
	if b == nil || b.ctx == nil {
		return nil
	}
	// The sampler records a row a whole interval after the one before; a slow scrape may add
	// its timeout. A run cut short (Ctrl-C) does not wait.
	deadline := to.Add(2 * b.interval)
	for b.ctx.Err() == nil && time.Now().Before(deadline) && !rowsReach(b.sampler.Snapshot(), to) {
		time.Sleep(b.interval / 20)
	}
	series := b.sampler.Stop()
	for _, bs := range series.Brokers {
		if bs.Errors > 0 {
			fmt.Fprintf(log, "kbench: warning: broker %d: %d of its samples failed, the last with: %s\n", bs.ID, bs.Errors, bs.LastError)
		}
	}
	// Rows at exactly from or to+interval only touch the window; a nanosecond keeps them out.
	sum := series.Summarize(from.Add(time.Nanosecond), to.Add(b.interval-time.Nanosecond))
	sum.From, sum.To = from, to
	rows := 0
	for _, bs := range sum.Brokers {
		rows += bs.Rows
	}
	if rows == 0 {
		fmt.Fprintf(log, "kbench: broker metrics: no sample of the brokers covers the measured window (%.1f s)\n", to.Sub(from).Seconds())
		return nil
	}
	return &sum
}

// rowsReach reports whether every broker has a row at or after t.
func rowsReach(s metrics.Series, t time.Time) bool {
	for _, b := range s.Brokers {
		if len(b.Rows) == 0 || b.Rows[len(b.Rows)-1].Time.Before(t) {
			return false
		}
	}
	return true
}

// produceWindow is the measured window of a produce run that began at start: from the first
// steady-state send (the first send without warm-up) to the last acknowledgement.
func produceWindow(start time.Time, r *load.ProduceResult) (from, to time.Time) {
	to = start.Add(seconds(r.Total.ElapsedSeconds))
	from = start
	if r.Steady != nil {
		from = to.Add(-seconds(r.Steady.ElapsedSeconds))
	}
	return from, to
}

// consumeWindow is the measured window of a consume run: from its start to its last record;
// a run that ended by timeout spent the timeout waiting for nothing.
func consumeWindow(r *load.ConsumeResult, timeout time.Duration) (from, to time.Time) {
	if timeout <= 0 {
		timeout = load.DefaultConsumeTimeout // what load.Consume uses for 0
	}
	from, to = r.Start, r.End
	if r.TimedOut {
		to = to.Add(-timeout)
	}
	if to.Before(from) {
		to = from
	}
	return from, to
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// printBrokerLines prints one line per broker. They begin "broker N:", which no expression
// that parses Kafka's perf tool lines matches.
func printBrokerLines(w io.Writer, s *metrics.Summary) {
	if s == nil {
		return
	}
	for _, l := range metrics.FormatBrokerLines(*s) {
		fmt.Fprintln(w, l)
	}
}
