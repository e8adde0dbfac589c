package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/preflight"
)

// capacityFlags are kbench capacity's own flags, beside kbench produce's.
type capacityFlags struct {
	consumers int
	slo       string
	precision string
	trial     time.Duration
	maxTrials int
	jsonOut   bool
}

// capacityConfig checks the flags and returns the search they describe.
func (f *capacityFlags) config(cmd *cobra.Command) (capacity.Config, error) {
	for _, name := range searchSetFlags {
		if cmd.Flags().Changed(name) {
			return capacity.Config{}, fmt.Errorf("--%s: the search sets each trial's rate and length; give --trial (and --warmup) instead", name)
		}
	}
	slos, err := capacity.ParseSLOs(f.slo)
	if err != nil {
		return capacity.Config{}, fmt.Errorf("--slo: %w", err)
	}
	precision, err := capacity.ParsePrecision(f.precision)
	if err != nil {
		return capacity.Config{}, err
	}
	if f.trial < 4*time.Second {
		return capacity.Config{}, fmt.Errorf("--trial %v: must be at least 4s (short trials last a quarter of it)", f.trial)
	}
	if f.consumers < 0 {
		return capacity.Config{}, fmt.Errorf("--consumers %d: must be 0 (none) or more", f.consumers)
	}
	if f.maxTrials < 3 {
		return capacity.Config{}, fmt.Errorf("--max-trials %d: must be at least 3", f.maxTrials)
	}
	return capacity.Config{SLOs: slos, Precision: precision, Trial: f.trial, MaxTrials: f.maxTrials}, nil
}

// defaultWarmup is each trial's warm-up when --warmup is not given: the clients' connections
// and the brokers' batches settle in it.
const defaultWarmup = 2 * time.Second

func newCapacityCommand() *cobra.Command {
	var (
		pf produceFlags
		cf capacityFlags
	)
	cmd := &cobra.Command{
		Use:   "capacity",
		Short: "Find the highest rate the cluster sustains while latency meets an SLO",
		Long: `Find the maximum sustainable rate: the highest offered rate at which due-time latency meets
every --slo, the producers achieve at least 99% of the rate, no record fails, the producer's
buffer does not fill and (with --consumers) the consumers keep up.

The search runs trials, each at one fixed offered rate for --trial after a warm-up (--warmup,
default 2s); the rate changes only between trials. One unthrottled trial bounds the rate,
then bisection in log-rate narrows [highest passing, lowest failing] until it is within
--precision. Trials last a quarter of --trial while the bracket is wide; the final bracket's
upper end is measured at full length and its lower end must pass two full-length trials,
every one. A rate counts as failing when most of its trial time failed, so one noisy short
trial is outweighed by a re-test, or when it failed one of the two full-length trials a lower
end needs. Several SLOs are searched on the same trials. A typical search takes 9 to 14
trials.

It takes the flags of kbench produce (not --num-records, --duration, --throughput or
--warmup-records, which the search sets).

Examples:
  kbench capacity --topic t --record-size 1024 --slo p99=50ms
  kbench capacity --bootstrap-server kafka-1:9092 --topic t --record-size 1024 --producers 4 \
      --slo p99=50ms,p999=200ms --precision 2% --trial 30s --consumers 2 -X acks=1 --json`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			scfg, err := cf.config(cmd)
			if err != nil {
				return err
			}
			pcfg, err := pf.config(cmd, args)
			if err != nil {
				return err
			}
			return runCapacity(cmd, pcfg, scfg, pf.noCreate, cf)
		},
	}
	f := cmd.Flags()
	pf.register(f)
	f.IntVar(&cf.consumers, "consumers", 0, "consumers reading the topic in one group during the search; a trial fails when they fall behind")
	f.StringVar(&cf.slo, "slo", "p99=50ms", "latency bounds on due-time latency, percentile=limit, comma-separated (p99=50ms,p999=200ms)")
	f.StringVar(&cf.precision, "precision", "5%", "widest final bracket, as a share of its lower end")
	f.DurationVar(&cf.trial, "trial", capacity.DefaultTrial, "length of a full trial after its warm-up")
	f.IntVar(&cf.maxTrials, "max-trials", capacity.DefaultMaxTrials, "stop a search that has not converged after this many trials")
	f.BoolVar(&cf.jsonOut, "json", false, "print the search (brackets and every trial) as JSON on stdout (progress lines go to stderr)")
	// produce's schedule flags stay defined, so that giving one is refused with a reason
	// rather than "unknown flag", but the help does not offer them.
	for _, name := range searchSetFlags {
		_ = f.MarkHidden(name)
	}
	return cmd
}

// searchSetFlags are kbench produce's flags whose values the search sets itself.
var searchSetFlags = []string{"num-records", "duration", "throughput", "warmup-records"}

// runCapacity finds the cluster, checks it, and runs the search with a line per trial.
func runCapacity(cmd *cobra.Command, pcfg load.ProducerConfig, scfg capacity.Config, noCreate bool, cf capacityFlags) error {
	out, errOut := cmd.OutOrStdout(), cmd.ErrOrStderr()
	var bm brokerMetricsFlags // only to find the embedded cluster: brokers are not sampled
	brokers, err := bm.setup(cmd, &pcfg.Bootstrap, pcfg.Properties, errOut)
	if err != nil {
		return err
	}
	brokers.close()
	group := ""
	need := preflight.Need{Produce: []string{pcfg.Topic}, NoCreate: noCreate}
	if cf.consumers > 0 {
		group = fmt.Sprintf("kbench-capacity-%d", time.Now().UnixNano())
		// Not Need.Consume: the topic may not exist before the producers create it.
		need.Group = group
	}
	if err := checkCluster(cmd, pcfg.Bootstrap, pcfg.Properties, need); err != nil {
		return err
	}
	warmup := pcfg.Warmup
	if warmup == 0 {
		warmup = defaultWarmup
	}
	pcfg.Warmup = 0 // each trial's schedule carries it
	lines := out
	if cf.jsonOut {
		lines = errOut
	}
	scfg.Progress = func(t capacity.Trial) { fmt.Fprintln(lines, capacityTrialLine(t, scfg.SLOs)) }
	ld, err := capacity.StartLoad(cmd.Context(), pcfg, cf.consumers, group, warmup)
	if err != nil {
		return err
	}
	res, err := capacity.Search(cmd.Context(), scfg, ld.Trial)
	if cerr := ld.Close(); err == nil {
		err = cerr
	}
	if res != nil {
		printCapacity(out, res, cf.jsonOut)
	}
	if cmd.Context().Err() != nil {
		// Ctrl-C: what was measured is printed; the exit code says it was cut short.
		n := 0
		if res != nil {
			n = len(res.Trials)
		}
		fmt.Fprintf(errOut, "kbench: capacity search interrupted after %d trials\n", n)
		return nil
	}
	if err != nil {
		return fmt.Errorf("capacity search: %w", err)
	}
	for _, b := range res.Brackets {
		if !b.Converged {
			return &exitError{code: 1, msg: fmt.Sprintf("capacity search for %s did not converge: %s", b.SLO, b.Note)}
		}
	}
	return nil
}

func printCapacity(w io.Writer, res *capacity.Result, jsonOut bool) {
	if jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		_ = enc.Encode(res)
		return
	}
	for _, b := range res.Brackets {
		fmt.Fprintln(w, capacityLine(b))
		if b.Lower > 0 {
			fmt.Fprintf(w, "  at %s records/s: p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms; %s %.1f-%.1f ms across its trials\n",
				groupDigits(b.Lower), b.AtLowerP50Ms, b.AtLowerP99Ms, b.AtLowerP999Ms, b.SLO.Name(), b.SpreadMs[0], b.SpreadMs[1])
		}
	}
}
