package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/live"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/observe"
	"github.com/kbench/kbench/internal/preflight"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/settings"
)

func newConsumeCommand() *cobra.Command {
	var (
		cfg          load.ConsumerConfig
		pf           clientPropertyFlags
		topic        string
		messages     int64
		numRecords   int64
		fetchSize    int
		socketBuffer int
		timeoutMs    int64
		detailed     bool
		interval     int64
		dateFormat   string
		hideHeader   bool
		jsonOut      bool
		printMetrics bool
		threads      int
		bm           brokerMetricsFlags
		share        shareFlags
		tool         = defaultToolVersion
		lf           live.Flags
	)
	cmd := &cobra.Command{
		Use:   "consume",
		Short: "Consume records and report throughput, as kafka-consumer-perf-test does",
		Long: `Consume records from a topic and report throughput. kbench consume accepts the flags of
Kafka's kafka-consumer-perf-test.sh (Kafka 4.1 and 4.2 spellings) and prints the same header
and rows. --consumers N runs N clients in one group. Records produced by kbench produce carry
their send time (a kbench-ts header), and kbench consume reports end-to-end latency from it
in microseconds (other records: from their create timestamp, in milliseconds); the latency
line follows the summary, and --json holds the whole result with the histogram.

` + shareConsumeHelp + `

` + brokerMetricsHelp + `

Examples:
  kbench consume --bootstrap-server 127.0.0.1:9092 --topic t --messages 1000000
  kbench consume --bootstrap-server 127.0.0.1:9092 --include 'bench-.*' --num-records 500000 \
      --consumers 3 --show-detailed-stats --reporting-interval 1000
  kbench consume --bootstrap-server 127.0.0.1:9093 --topic t --messages 1000 \
      --command-config client.properties --json
  # the cluster of kbench cluster up: its plain listener, and one line per broker
  kbench consume --topic t --messages 500000
  # 6 share consumers on any number of partitions, 1% of deliveries released
  kbench consume --topic t --messages 100000 --share-group sg --consumers 6 --release-share 0.01`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) (err error) {
			out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
			if err := checkConsumeFlags(cmd.Flags()); err != nil {
				return err
			}
			if err := share.check(cmd.Flags()); err != nil {
				return err
			}
			props, err := pf.properties(args)
			if err != nil {
				return err
			}
			if err := checkSecurityTarget(cfg.Bootstrap, props, "consumer.config"); err != nil {
				return err
			}
			if topic != "" {
				cfg.Topics = []string{topic}
			}
			switch {
			case messages > 0 && numRecords > 0 && messages != numRecords:
				return errors.New("--messages and --num-records disagree; give one")
			case numRecords > 0:
				cfg.Records = numRecords
			default:
				cfg.Records = messages
			}
			if cfg.Records == 0 && cfg.Duration == 0 {
				return errors.New("--messages (or --num-records) or --duration is required")
			}
			if interval <= 0 {
				return errors.New("--reporting-interval must be greater than 0")
			}
			// The flags Kafka's tool turns into properties, taking precedence over the file.
			props["max.partition.fetch.bytes"] = strconv.Itoa(fetchSize)
			if cmd.Flags().Changed("socket-buffer-size") {
				props["receive.buffer.bytes"] = strconv.Itoa(socketBuffer)
			}
			// Bad properties are refused before a cluster is contacted.
			if _, err := load.ParseProperties(settings.Consumer, props); err != nil {
				return err
			}
			cfg.Properties = props
			if threads > 0 && !cmd.Flags().Changed("consumers") {
				cfg.Consumers = threads
			}
			cfg.Timeout = time.Duration(timeoutMs) * time.Millisecond
			cfg.TickInterval = time.Duration(interval) * time.Millisecond
			brokers, err := bm.setup(cmd, &cfg.Bootstrap, props, errOut)
			if err != nil {
				return err
			}
			defer brokers.close()
			if share.group != "" {
				if err := checkCluster(cmd, cfg.Bootstrap, props, preflight.Need{Consume: cfg.Topics}); err != nil {
					return err
				}
				return share.run(cmd, cfg, brokers, dateFormat, hideHeader, jsonOut, printMetrics)
			}
			if cfg.Group == "" {
				// Named here, not by the load's default, so the check below checks this group.
				cfg.Group = "perf-consumer-" + strconv.Itoa(rand.IntN(100_000))
			}
			if err := checkCluster(cmd, cfg.Bootstrap, props, preflight.Need{Consume: cfg.Topics, Group: cfg.Group}); err != nil {
				return err
			}

			lines := out
			if jsonOut {
				lines = errOut
			}
			for _, n := range tool.deprecationNotices(cmd.Flags().Changed) {
				fmt.Fprintln(lines, n)
			}
			if !hideHeader {
				fmt.Fprintln(lines, consumerHeader(detailed))
			}
			web, err := lf.Start(errOut)
			if err != nil {
				return err
			}
			defer func() { web.End(cmd.Context(), live.Outcome(cmd.Context(), err), "") }()
			obs := web.Series()
			obs.Begin(observe.Scenario{ID: "consume"})
			start := time.Now()
			brokers.start(cmd.Context())
			res, err := load.Consume(cmd.Context(), cfg, func(t load.ConsumeTick) {
				obs.ConsumeTick(t, nil)
				if detailed {
					fmt.Fprintln(lines, consumerDetailLine(t, start, dateFormat))
				}
			})
			obs.Consumed(res)
			if err != nil {
				return err
			}
			for _, w := range res.Warnings {
				fmt.Fprintf(errOut, "kbench: warning: %s\n", w)
			}
			if res.TimedOut && cfg.Records > 0 && res.Records < cfg.Records {
				fmt.Fprintf(lines, "WARNING: Exiting before consuming the expected number of messages: timeout (%d ms) exceeded. You can use the --timeout option to increase the timeout.\n", timeoutMs)
			}
			from, to := consumeWindow(res, cfg.Timeout)
			brokerSummary := brokers.stop(from, to, errOut)
			printConsumeResult(out, res, brokerSummary, dateFormat, detailed, jsonOut, printMetrics)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.Bootstrap, "bootstrap-server", "", "brokers to connect to (overrides bootstrap.servers)")
	f.StringVar(&topic, "topic", "", "topic to consume from")
	f.StringVar(&cfg.Include, "include", "", "regular expression of the topics to consume")
	f.StringVar(&cfg.Group, "group", "", "consumer group (default perf-consumer-<random>)")
	f.Int64Var(&messages, "messages", 0, "number of records to consume")
	f.Int64Var(&numRecords, "num-records", 0, "number of records to consume (Kafka 4.2 spelling)")
	f.IntVar(&fetchSize, "fetch-size", 1024*1024, "max.partition.fetch.bytes: bytes fetched per partition per request")
	f.IntVar(&socketBuffer, "socket-buffer-size", 2*1024*1024, "receive.buffer.bytes (no franz-go equivalent: warned)")
	f.StringVar(&pf.configFile, "consumer.config", "", "consumer properties file")
	f.StringVar(&pf.cmdConfig, "command-config", "", "consumer properties file (Kafka 4.2 spelling)")
	f.StringArrayVar(&pf.cmdProps, "command-property", nil, "consumer property name=value (repeatable)")
	f.StringArrayVarP(&pf.xProps, "property", "X", nil, "consumer property name=value (short alias)")
	f.BoolVar(&cfg.FromLatest, "from-latest", false, "start a new group at the end of the log instead of the start")
	f.Int64Var(&timeoutMs, "timeout", load.DefaultConsumeTimeout.Milliseconds(), "ms without records after which the run ends")
	f.BoolVar(&detailed, "show-detailed-stats", false, "print a row every reporting interval instead of the summary")
	f.Int64Var(&interval, "reporting-interval", 5000, "ms between detailed rows")
	f.StringVar(&dateFormat, "date-format", "yyyy-MM-dd HH:mm:ss:SSS", "java.text.SimpleDateFormat pattern of the time fields")
	f.BoolVar(&hideHeader, "hide-header", false, "do not print the header")
	f.BoolVar(&printMetrics, "print-metrics", false, "print kbench's measurements as a metric table at the end")
	f.IntVar(&cfg.Consumers, "consumers", 1, "consumer clients in the group")
	f.IntVar(&threads, "threads", 0, "alias of --consumers (removed from Kafka's tool; accepted for old scripts)")
	f.DurationVar(&cfg.Duration, "duration", 0, "run for at most this long")
	f.BoolVar(&jsonOut, "json", false, "print the whole result as JSON on stdout (rows go to stderr)")
	f.Var(&tool, "tool-version", "the Kafka release whose kafka-consumer-perf-test lines to print, 4.0 to 4.4 (4.2 on: the --messages deprecation notice)")
	share.register(f)
	bm.register(f)
	lf.Register(f)
	return cmd
}

// consumeJSON is the --json output: the result, and the brokers' figures when measured.
type consumeJSON struct {
	*load.ConsumeResult
	BrokerMetrics *metrics.Summary `json:"broker_metrics,omitempty"`
}

func printConsumeResult(w io.Writer, r *load.ConsumeResult, brokers *metrics.Summary, dateFormat string, detailed, jsonOut, printMetrics bool) {
	shown := *r
	shown.Settings = results.Redact(r.Settings) // load hides passwords; this hides every secret
	r = &shown
	if jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(consumeJSON{r, brokers})
		return
	}
	if !detailed {
		fmt.Fprintln(w, consumerTotalLine(r, dateFormat))
	}
	if r.EndToEnd.Count > 0 {
		fmt.Fprintln(w, latencyLine("End-to-end ("+r.EndToEndSource+")", r.EndToEnd))
	}
	fmt.Fprintf(w, "%.2f s client CPU (%.2f user, %.2f system), %.2f CPU-s per million records.\n",
		r.CPU.Seconds, r.CPU.UserSeconds, r.CPU.SystemSeconds, r.CPU.SecondsPerMillion)
	printBrokerLines(w, brokers)
	if printMetrics {
		m := map[string]string{
			"kbench:records-consumed":           fmt.Sprint(r.Records),
			"kbench:bytes-consumed":             fmt.Sprint(r.Bytes),
			"kbench:consumers":                  fmt.Sprint(r.Consumers),
			"kbench:rebalance-seconds":          fmt.Sprintf("%.3f", r.RebalanceSeconds),
			"kbench:client-cpu-seconds":         fmt.Sprintf("%.3f", r.CPU.Seconds),
			"kbench:client-cpu-seconds-per-1e6": fmt.Sprintf("%.3f", r.CPU.SecondsPerMillion),
			"kbench:e2e-latency-p99-ms":         fmt.Sprintf("%.3f", float64(r.EndToEnd.P99Us)/1000),
			"kbench:e2e-latency-p99.9-ms":       fmt.Sprintf("%.3f", float64(r.EndToEnd.P999Us)/1000),
		}
		for k, v := range r.Settings {
			m["config:"+k] = v
		}
		printMetricTable(w, m)
	}
}
