package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/agent"
	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/live"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/observe"
	"github.com/kbench/kbench/internal/preflight"
	"github.com/kbench/kbench/internal/results"
)

// clientPropertyFlags are the ways both perf tools take client properties, in the Kafka 4.1
// and 4.2 spellings.
type clientPropertyFlags struct {
	props      []string // --producer-props, name=value
	cmdProps   []string // --command-property (Kafka 4.2)
	xProps     []string // -X
	configFile string   // --producer.config / --consumer.config
	cmdConfig  string   // --command-config (Kafka 4.2)
}

// properties merges the file (first) and the name=value flags (which take precedence, as in
// Kafka's tools). extra are positional name=value arguments: Kafka's --producer-props takes
// several values after one flag.
func (f *clientPropertyFlags) properties(extra []string) (map[string]string, error) {
	props := map[string]string{}
	for _, file := range []string{f.configFile, f.cmdConfig} {
		if file == "" {
			continue
		}
		p, err := cluster.ReadProperties(file)
		if err != nil {
			return nil, err
		}
		maps.Copy(props, p)
	}
	for _, group := range []struct {
		flag string
		args []string
	}{{"--producer-props", f.props}, {"argument", extra}, {"--command-property", f.cmdProps}, {"-X", f.xProps}} {
		if err := checkPropertyArgs(group.flag, group.args); err != nil {
			return nil, err
		}
	}
	all := slices.Concat(f.props, extra, f.cmdProps, f.xProps)
	p, err := load.ParsePropertyArgs(all)
	if err != nil {
		return nil, err
	}
	maps.Copy(props, p)
	return props, nil
}

// checkPropertyArgs refuses a name=value argument without a name or '=', without showing
// it: a JAAS config split by the shell (password="a b") leaves a piece of the password as
// an argument of its own.
func checkPropertyArgs(flag string, args []string) error {
	for i, a := range args {
		k, _, ok := strings.Cut(a, "=")
		if !ok || strings.TrimSpace(k) == "" {
			what := fmt.Sprintf("%s value %d", flag, i+1)
			if flag == "argument" {
				what = fmt.Sprintf("extra argument %d", i+1)
			}
			return fmt.Errorf("%s is not name=value (not shown: it may be part of a secret; quote a value holding spaces)", what)
		}
	}
	return nil
}

func newProduceCommand() *cobra.Command {
	var (
		pf           produceFlags
		jsonOut      bool
		printMetrics bool
		bm           brokerMetricsFlags
		af           agentFlags
		lf           live.Flags
	)
	cmd := &cobra.Command{
		Use:   "produce",
		Short: "Produce records and report throughput and latency, as kafka-producer-perf-test does",
		Long: `Produce records to a topic and report throughput and latency. kbench produce accepts the
flags of Kafka's kafka-producer-perf-test.sh (Kafka 4.1 and 4.2 spellings) and prints the same
lines: one per 5 s window and a summary, plus a steady-state summary after --warmup-records.
After the summary one extra line reports the client's own CPU.

Latency is measured in microseconds into an HdrHistogram. Under --throughput each record's
latency runs from the moment it was due (its slot in the schedule), not from when it was sent:
a producer that falls behind (a broker pause, a full buffer) shows it, instead of hiding it
by sending later (coordinated omission). The window and summary lines report this due-time
latency; --json holds both due-time and send-time latency (p50 .. p99.99, max). Without
--throughput a record is due when it is handed to the client, so the two are equal, and
the figures compare with Kafka's tool, which measures from send().

Client properties take their Java names (--producer-props, --command-property, -X, or a file
with --producer.config/--command-config) and default to the Java client's values of Kafka
4.1 (acks=all, enable.idempotence=true, batch.size=16384, linger.ms=5, buffer.memory=32 MiB,
compression.type=none), not franz-go's. A value may contain '=' (only the first separates).

With --agents N the load runs on N remote agents (kbench agent, started on other hosts) and
none here: the producers, rate and records are split between them, and the window lines and
summary are their merged figures (counts add, histograms merge), followed by one line per
agent and the spread of their start times.

` + brokerMetricsHelp + `

Examples:
  kbench produce --topic t --num-records 1000000 --record-size 1024 --throughput -1 \
      --producer-props bootstrap.servers=127.0.0.1:9092 acks=1 linger.ms=0
  kbench produce --bootstrap-server 127.0.0.1:9092 --topic t --record-size 100 \
      --throughput 50000 --duration 60s --producers 4 -X compression.type=lz4 --json
  kbench produce --bootstrap-server 127.0.0.1:9093 --topic t --num-records 1000 --record-size 10 \
      --throughput -1 --command-config client.properties
  # the cluster of kbench cluster up: its plain listener, and one line per broker
  kbench produce --topic t --num-records 500000 --record-size 1024 --throughput 20000
  # another cluster: the brokers' JMX exporter endpoints
  kbench produce --bootstrap-server kafka-1:9092 --topic t --record-size 1024 --throughput -1 \
      --duration 60s --metrics-url http://kafka-1:7071/metrics --metrics-url http://kafka-2:7071/metrics`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			cfg, err := pf.config(cmd, args)
			if err != nil {
				return err
			}
			if cfg.Records == 0 && cfg.Duration == 0 {
				return errors.New("--num-records or --duration is required")
			}
			props := cfg.Properties
			brokers, err := bm.setup(cmd, &cfg.Bootstrap, props, errOut)
			if err != nil {
				return err
			}
			defer brokers.close()
			if err := checkCluster(cmd, cfg.Bootstrap, props, preflight.Need{Produce: []string{cfg.Topic}, NoCreate: pf.noCreate}); err != nil {
				return err
			}
			notices := out
			if jsonOut {
				notices = errOut
			}
			for _, n := range pf.tool.deprecationNotices(cmd.Flags().Changed) {
				fmt.Fprintln(notices, n)
			}
			if cfg.WarmupRecords > 0 && !jsonOut {
				fmt.Fprintf(out, "Warmup first %d records. Steady state results will print after the complete test summary.\n", cfg.WarmupRecords)
			}
			lines := out
			if jsonOut {
				lines = errOut // progress stays visible; stdout holds only the JSON
			}
			steadyAnnounced := false
			web, err := lf.Start(errOut)
			if err != nil {
				return err
			}
			defer func() { web.End(cmd.Context(), live.Outcome(cmd.Context(), err), "") }()
			obs := web.Series()
			obs.Begin(observe.Scenario{ID: "produce", Offered: cfg.Rate})
			af.obs = obs
			brokers.start(cmd.Context())
			start := time.Now()
			window := liveWindow(&cfg, web != nil)
			onTick := func(t load.Tick) {
				obs.ProduceTick(t, nil)
				t, full := window.add(t)
				if !full {
					return
				}
				if t.Acked+t.Failed == 0 {
					return
				}
				if !t.Warmup && cfg.WarmupRecords+int64(cfg.Warmup) > 0 && !steadyAnnounced {
					steadyAnnounced = true
					fmt.Fprintln(lines, "In steady state.")
				}
				fmt.Fprintln(lines, producerWindowLine(t))
			}
			if err := cfg.Validate(); err != nil {
				return err
			}
			d, closeDriver, err := openDriver(cmd.Context(), cfg, af, "produce", errOut)
			if err != nil {
				return err
			}
			res, err := d.Trial(cmd.Context(), cfg.Schedule(), onTick)
			onAgents := agent.LastOutcome(d)
			closeDriver()
			obs.Produced(res)
			if res != nil {
				from, to := produceWindow(start, res)
				brokerSummary := brokers.stop(from, to, errOut)
				for _, w := range res.Warnings {
					fmt.Fprintf(errOut, "kbench: warning: %s\n", w)
				}
				printProduceResult(out, res, brokerSummary, onAgents, jsonOut, printMetrics, pf.tool)
				if onAgents != nil && !jsonOut {
					printAgentLines(out, onAgents)
				}
			}
			if err != nil {
				return err
			}
			if res.Total.Failed > 0 {
				return &exitError{code: exitFailed, msg: fmt.Sprintf("%d of %d records failed: %s", res.Total.Failed, res.Sent, topErrors(res.Errors))}
			}
			return nil
		},
	}
	f := cmd.Flags()
	pf.register(f)
	f.BoolVar(&printMetrics, "print-metrics", false, "print kbench's measurements as a metric table at the end")
	f.BoolVar(&jsonOut, "json", false, "print the whole result as JSON on stdout (progress lines go to stderr)")
	bm.register(f)
	af.register(f)
	lf.Register(f)
	return cmd
}

// produceJSON is the --json output: the result, and the brokers' figures when measured.
type produceJSON struct {
	*load.ProduceResult
	BrokerMetrics *metrics.Summary `json:"broker_metrics,omitempty"`
	// Agents are the agents' own results with --agents (the result above is their merge).
	Agents      []agent.AgentResult `json:"agents,omitempty"`
	StartSkewMs *float64            `json:"agents_start_skew_ms,omitempty"`
}

func printProduceResult(w io.Writer, r *load.ProduceResult, brokers *metrics.Summary, agents *agent.Outcome, jsonOut, printMetrics bool, tool toolVersion) {
	shown := *r
	shown.Settings = results.Redact(r.Settings) // load hides passwords; this hides every secret
	r = &shown
	if jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		out := produceJSON{ProduceResult: r, BrokerMetrics: brokers}
		if agents != nil {
			for _, a := range agents.Agents {
				if a.Result != nil {
					shown := *a.Result
					shown.Settings = results.Redact(shown.Settings)
					a.Result = &shown
				}
				out.Agents = append(out.Agents, a)
			}
			out.StartSkewMs = &agents.StartSkewMs
		}
		_ = enc.Encode(out)
		return
	}
	fmt.Fprintln(w, producerTotalLine(r.Total, false, tool))
	if r.Steady != nil {
		fmt.Fprintln(w, producerTotalLine(*r.Steady, true, tool))
	}
	fmt.Fprintln(w, producerCostLine(r))
	printBrokerLines(w, brokers)
	if printMetrics {
		printMetricTable(w, produceMetrics(r))
	}
}

// produceMetrics lists kbench's measurements for --print-metrics.
func produceMetrics(r *load.ProduceResult) map[string]string {
	m := map[string]string{
		"kbench:records-sent":                fmt.Sprint(r.Sent),
		"kbench:records-acked":               fmt.Sprint(r.Total.Acked),
		"kbench:records-failed":              fmt.Sprint(r.Total.Failed),
		"kbench:client-cpu-seconds":          fmt.Sprintf("%.3f", r.CPU.Seconds),
		"kbench:client-cpu-seconds-per-1e6":  fmt.Sprintf("%.3f", r.CPU.SecondsPerMillion),
		"kbench:due-latency-p99.9-ms":        fmt.Sprintf("%.3f", float64(r.Total.DueLatency.P999Us)/1000),
		"kbench:send-latency-p99.9-ms":       fmt.Sprintf("%.3f", float64(r.Total.SendLatency.P999Us)/1000),
		"kbench:due-latency-p99.99-ms":       fmt.Sprintf("%.3f", float64(r.Total.DueLatency.P9999Us)/1000),
		"kbench:send-latency-p99.99-ms":      fmt.Sprintf("%.3f", float64(r.Total.SendLatency.P9999Us)/1000),
		"kbench:records-per-sec":             fmt.Sprintf("%.1f", r.Total.RecordsPerSec),
		"kbench:mib-per-sec":                 fmt.Sprintf("%.2f", r.Total.MiBPerSec),
		"kbench:due-latency-max-ms":          fmt.Sprintf("%.3f", float64(r.Total.DueLatency.MaxUs)/1000),
		"kbench:send-latency-max-ms":         fmt.Sprintf("%.3f", float64(r.Total.SendLatency.MaxUs)/1000),
		"kbench:client-cpu-user-seconds":     fmt.Sprintf("%.3f", r.CPU.UserSeconds),
		"kbench:client-cpu-system-seconds":   fmt.Sprintf("%.3f", r.CPU.SystemSeconds),
		"kbench:producers":                   fmt.Sprint(r.Producers),
		"kbench:elapsed-seconds":             fmt.Sprintf("%.3f", r.Total.ElapsedSeconds),
		"kbench:due-latency-p50-ms":          fmt.Sprintf("%.3f", float64(r.Total.DueLatency.P50Us)/1000),
		"kbench:due-latency-p99-ms":          fmt.Sprintf("%.3f", float64(r.Total.DueLatency.P99Us)/1000),
		"kbench:send-latency-p99-ms":         fmt.Sprintf("%.3f", float64(r.Total.SendLatency.P99Us)/1000),
		"kbench:send-latency-p50-ms":         fmt.Sprintf("%.3f", float64(r.Total.SendLatency.P50Us)/1000),
		"kbench:bytes-acked":                 fmt.Sprint(r.Total.Bytes),
		"kbench:client-settings-count":       fmt.Sprint(len(r.Settings)),
		"kbench:interrupted":                 fmt.Sprint(r.Interrupted),
		"kbench:rate-target-records-per-sec": fmt.Sprintf("%.1f", r.Rate),
	}
	for k, v := range r.Settings {
		m["config:"+k] = v
	}
	return m
}

// printMetricTable prints name/value pairs sorted, in the two-column layout of Kafka's
// ToolsUtils.printMetrics.
func printMetricTable(w io.Writer, m map[string]string) {
	names := slices.Sorted(maps.Keys(m))
	width := len("Metric Name")
	for _, n := range names {
		width = max(width, len(n))
	}
	fmt.Fprintf(w, "\n%-*s %s\n", width, "Metric Name", "Value")
	for _, n := range names {
		fmt.Fprintf(w, "%-*s : %s\n", width, n, m[n])
	}
}

// topErrors summarises error counts, most frequent first.
func topErrors(errs map[string]int64) string {
	keys := slices.SortedFunc(maps.Keys(errs), func(a, b string) int { return int(errs[b] - errs[a]) })
	var parts []string
	for i, k := range keys {
		if i == 3 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, fmt.Sprintf("%d x %s", errs[k], k))
	}
	return strings.Join(parts, "; ")
}
