package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/observe"
	"github.com/kbench/kbench/internal/results"
)

// shareFlags are kbench consume's share group flags.
type shareFlags struct {
	group           string
	ack             string
	release, reject float64
	seed            uint64
}

const shareConsumeHelp = `With --share-group NAME the consumers are share consumers (KIP-932, Kafka 4.1+; on 4.1 the
brokers need share.version=1): any number of them read the topic's records, each delivery
acknowledged (--share-acknowledgement implicit, or explicit), with --release-share and
--reject-share the fraction of deliveries released for redelivery or rejected, to model failing
work. --messages then counts distinct records: the run ends once that many were delivered and
every released one came back. kbench sets share.auto.offset.reset (earliest, latest with
--from-latest) on a group it creates and deletes the group after; a group that exists is used
as it is. It prints kafka-share-consumer-perf-test's header and total line (its records are
deliveries), then deliveries, distinct records, redeliveries (and those no consumer released:
expired acquisition locks) and end-to-end latency.`

func (s *shareFlags) register(f *pflag.FlagSet) {
	f.StringVar(&s.group, "share-group", "", "consume as share consumers of this share group (KIP-932)")
	f.StringVar(&s.ack, "share-acknowledgement", "", "implicit or explicit (default implicit; explicit with a release or reject share)")
	f.Float64Var(&s.release, "release-share", 0, "fraction of deliveries released for redelivery (share groups)")
	f.Float64Var(&s.reject, "reject-share", 0, "fraction of deliveries rejected (share groups)")
	f.Uint64Var(&s.seed, "share-seed", 1, "seed of the choice of deliveries to release or reject")
}

// check refuses share flags without --share-group, and consume flags a share group has no
// use for.
func (s *shareFlags) check(fs *pflag.FlagSet) error {
	if s.group == "" {
		for _, name := range []string{"share-acknowledgement", "release-share", "reject-share", "share-seed"} {
			if fs.Changed(name) {
				return fmt.Errorf("--%s needs --share-group", name)
			}
		}
		return nil
	}
	for _, name := range []string{"group", "include"} {
		if fs.Changed(name) {
			return fmt.Errorf("--%s and --share-group: a share group reads --topic", name)
		}
	}
	if fs.Changed("show-detailed-stats") {
		return fmt.Errorf("--show-detailed-stats and --share-group: share runs print their summary only")
	}
	return nil
}

// run consumes as share consumers with the settings the consume command gathered in cfg.
func (s *shareFlags) run(cmd *cobra.Command, cfg load.ConsumerConfig, brokers *brokerSampling, obs *observe.Series, dateFormat string, hideHeader, jsonOut, printMetrics bool) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	scfg := load.ShareConfig{Bootstrap: cfg.Bootstrap, Topics: cfg.Topics, Group: s.group, FromLatest: cfg.FromLatest,
		Properties: cfg.Properties, Consumers: cfg.Consumers, Records: cfg.Records, Duration: cfg.Duration,
		Timeout: cfg.Timeout, TickInterval: cfg.TickInterval, Ack: load.ShareAck(s.ack),
		Release: s.release, Reject: s.reject, Seed: s.seed}
	brokers.start(cmd.Context())
	res, err := load.ConsumeShare(cmd.Context(), scfg, func(t load.ConsumeTick) { obs.ConsumeTick(t, nil) })
	obs.ShareConsumed(res)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(errOut, "kbench: warning: %s\n", w)
	}
	if res.TimedOut && cfg.Records > 0 && res.Distinct < cfg.Records {
		fmt.Fprintf(out, "WARNING: Exiting before consuming the expected number of messages: timeout (%d ms) exceeded. You can use the --timeout option to increase the timeout.\n", cfg.Timeout.Milliseconds())
	}
	summary := brokers.stop(res.Start, res.End, errOut)
	if !jsonOut {
		if !hideHeader {
			fmt.Fprintln(out, shareHeader)
		}
		fmt.Fprintln(out, shareTotalLine(res, dateFormat))
	}
	printShareResult(out, res, summary, jsonOut, printMetrics)
	return nil
}

// shareHeader is ShareConsumerPerformance's header line (Kafka 4.1 to 4.4).
const shareHeader = "start.time, end.time, data.consumed.in.MB, MB.sec, nMsg.sec, data.consumed.in.nMsg, fetch.time.ms"

// shareTotalLine is ShareConsumerPerformance's final line: its records are deliveries, and
// its fetch time the whole run.
func shareTotalLine(r *load.ShareResult, dateFormat string) string {
	return fmt.Sprintf("%s, %s, %.4f, %.4f, %.4f, %d, %d",
		formatJavaDate(r.Start, dateFormat), formatJavaDate(r.End, dateFormat),
		float64(r.Bytes)/(1024*1024), r.MiBPerSec, r.RecordsPerSec, r.Delivered, r.End.Sub(r.Start).Milliseconds())
}

// shareJSON is the --json output of a share run.
type shareJSON struct {
	*load.ShareResult
	BrokerMetrics *metrics.Summary `json:"broker_metrics,omitempty"`
}

func printShareResult(w io.Writer, r *load.ShareResult, brokers *metrics.Summary, jsonOut, printMetrics bool) {
	shown := *r
	shown.Settings = results.Redact(r.Settings)
	r = &shown
	if jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(shareJSON{r, brokers})
		return
	}
	for _, line := range shareLines(r) {
		fmt.Fprintln(w, line)
	}
	printBrokerLines(w, brokers)
	if printMetrics {
		m := map[string]string{
			"kbench:share-deliveries":          fmt.Sprint(r.Delivered),
			"kbench:share-distinct-records":    fmt.Sprint(r.Distinct),
			"kbench:share-redelivered":         fmt.Sprint(r.Redelivered),
			"kbench:share-redelivered-unasked": fmt.Sprint(r.Unreleased),
			"kbench:share-released":            fmt.Sprint(r.Released),
			"kbench:share-rejected":            fmt.Sprint(r.Rejected),
			"kbench:bytes-consumed":            fmt.Sprint(r.Bytes),
			"kbench:consumers":                 fmt.Sprint(r.Consumers),
			"kbench:client-cpu-seconds":        fmt.Sprintf("%.3f", r.CPU.Seconds),
			"kbench:e2e-latency-p99-ms":        fmt.Sprintf("%.3f", float64(r.EndToEnd.P99Us)/1000),
		}
		for k, v := range r.Settings {
			m["config:"+k] = v
		}
		printMetricTable(w, m)
	}
}

// shareLines are the summary lines of a share run.
func shareLines(r *load.ShareResult) []string {
	made := "an existing group, left as it was"
	if r.GroupCreated {
		made = "created by kbench and deleted after"
	}
	lines := []string{
		fmt.Sprintf("Share group %s (%s): %d consumers, %s acknowledgement.", r.Group, made, r.Consumers, r.Acknowledgement),
		fmt.Sprintf("%d deliveries of %d distinct records in %.3f s: %.1f records/s, %.4f MB/s.",
			r.Delivered, r.Distinct, r.ElapsedSeconds, r.RecordsPerSec, r.MiBPerSec),
		fmt.Sprintf("Redelivered %d (%.2f%% of deliveries; %d of records no consumer released), largest delivery count %d; accepted %d, released %d, rejected %d.",
			r.Redelivered, 100*r.RedeliveredShare, r.Unreleased, r.MaxDeliveryCount, r.Accepted, r.Released, r.Rejected),
	}
	if r.EndToEnd.Count > 0 {
		lines = append(lines, latencyLine("End-to-end ("+r.EndToEndSource+")", r.EndToEnd))
	}
	lines = append(lines, fmt.Sprintf("%.2f s client CPU (%.2f user, %.2f system), %.2f CPU-s per million deliveries.",
		r.CPU.Seconds, r.CPU.UserSeconds, r.CPU.SystemSeconds, r.CPU.SecondsPerMillion))
	for e, n := range r.Errors {
		lines = append(lines, fmt.Sprintf("%d x %s", n, e))
	}
	return lines
}
