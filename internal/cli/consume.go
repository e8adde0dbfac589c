package cli

import (
	"encoding/json"
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
)

func newConsumeCommand() *cobra.Command {
	var cf consumeFlags
	cmd := &cobra.Command{
		Use:   "consume",
		Short: "Consume records and report throughput, as kafka-consumer-perf-test does",
		Long: `Consume records from a topic and report throughput. kbench consume accepts the flags of
Kafka's kafka-consumer-perf-test.sh (Kafka 4.1 and 4.2 spellings) and prints the same header
and rows. --consumers N runs N clients in one group. Records produced by kbench produce carry
their send time (a kbench-ts header), and kbench consume reports end-to-end latency from it
in microseconds (other records: from their create timestamp, in milliseconds); the latency
line follows the summary, and --json holds the whole result with the histogram. As in Kafka's
tool, a run ends after the poll that reaches --messages: it counts that whole poll, up to
max.poll.records (500 unless set with --consumer.config or --command-property).

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
			cfg, err := cf.config(cmd, args)
			if err != nil {
				return err
			}
			props := cfg.Properties
			bm, share, lf, tool := &cf.bm, &cf.share, &cf.lf, cf.tool
			dateFormat, hideHeader, jsonOut, printMetrics, detailed := cf.dateFormat, cf.hideHeader, cf.jsonOut, cf.printMetrics, cf.detailed
			brokers, err := bm.setup(cmd, &cfg.Bootstrap, props, errOut)
			if err != nil {
				return err
			}
			defer brokers.close()
			need := preflight.Need{Consume: cfg.Topics}
			if share.group == "" {
				if cfg.Group == "" {
					// Named here, not by the load's default, so the check below checks this group.
					cfg.Group = "perf-consumer-" + strconv.Itoa(rand.IntN(100_000))
				}
				need.Group = cfg.Group
			}
			if err := checkCluster(cmd, cfg.Bootstrap, props, need); err != nil {
				return err
			}
			web, err := lf.Start(errOut)
			if err != nil {
				return err
			}
			defer func() { web.End(cmd.Context(), live.Outcome(cmd.Context(), err), "") }()
			obs := web.Series()
			obs.Begin(observe.Scenario{ID: "consume"})
			window := liveConsumeWindow(&cfg, web != nil)
			if share.group != "" {
				return share.run(cmd, cfg, brokers, obs, dateFormat, hideHeader, jsonOut, printMetrics)
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
			start := time.Now()
			brokers.start(cmd.Context())
			res, err := load.Consume(cmd.Context(), cfg, func(t load.ConsumeTick) {
				obs.ConsumeTick(t, nil)
				if t, full := window.add(t); full && detailed {
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
				fmt.Fprintf(lines, "WARNING: Exiting before consuming the expected number of messages: timeout (%d ms) exceeded. You can use the --timeout option to increase the timeout.\n", cf.timeoutMs)
			}
			from, to := consumeWindow(res, cfg.Timeout)
			brokerSummary := brokers.stop(from, to, errOut)
			printConsumeResult(out, res, brokerSummary, dateFormat, detailed, jsonOut, printMetrics)
			return nil
		},
	}
	cf.register(cmd.Flags())
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
