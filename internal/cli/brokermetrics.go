// --broker-metrics of kbench produce and kbench consume: what the brokers paid for the run.

package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/target"
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

// setup finds the cluster the run targets (target.Open) and returns the sampler to run, or
// nil when broker metrics are off. When no bootstrap servers were given (neither *bootstrap
// nor bootstrap.servers in props) and an embedded cluster is running, it sets *bootstrap to
// that cluster's plain listener and says so on log.
func (f *brokerMetricsFlags) setup(cmd *cobra.Command, bootstrap *string, props map[string]string, log io.Writer) (*brokerSampling, error) {
	spec := target.Spec{Bootstrap: *bootstrap, Properties: props, ClusterDir: f.clusterDir, MetricsURLs: f.urls, Log: log}
	if cmd.Flags().Changed("broker-metrics") {
		spec.Sample = &f.on
	}
	t, err := target.Open(cmd.Context(), spec)
	if err != nil {
		return nil, err
	}
	*bootstrap = t.Bootstrap
	if len(t.Sampled) == 0 {
		return nil, nil
	}
	cfg := metrics.SamplerConfig{Interval: brokerSampleInterval, Brokers: t.Sampled}
	if t.Proc {
		// Each broker's CPU % is of its own allotment, as in a study run.
		cfg.Proc, cfg.Cgroup = "/proc", os.DirFS("/sys/fs/cgroup")
	}
	s, err := metrics.NewSampler(cfg)
	if err != nil {
		return nil, err
	}
	return &brokerSampling{sampler: s, interval: cfg.Interval}, nil
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
