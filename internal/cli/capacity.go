package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/capacityload"
	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/live"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/observe"
	"github.com/kbench/kbench/internal/preflight"
	"github.com/kbench/kbench/internal/results"
)

// capacityFlags are kbench capacity's own flags, beside kbench produce's.
type capacityFlags struct {
	consumers   int
	slo         string
	precision   string
	exceedRatio string
	trial       time.Duration
	durationSum time.Duration
	confirm     time.Duration
	maxDuration time.Duration
	maxTrials   int
	searches    int
	jsonOut     bool
	agents      agentFlags
	live        live.Flags
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
	exceed, err := capacity.ParseExceedRatio(f.exceedRatio)
	if err != nil {
		return capacity.Config{}, err
	}
	// The search's own default, so that the goal printed and searched is the one documented.
	durationSum := capacity.Config{Trial: f.trial, DurationSum: f.durationSum}.Filled().DurationSum
	switch {
	case f.trial < capacity.MinTrial:
		return capacity.Config{}, fmt.Errorf("--trial %v: must be at least %v (short trials last a quarter of it)", f.trial, capacity.MinTrial)
	case durationSum < f.trial:
		return capacity.Config{}, fmt.Errorf("--duration-sum %v: must be at least one --trial (%v)", durationSum, f.trial)
	case f.confirm < f.trial:
		return capacity.Config{}, fmt.Errorf("--confirm %v: must be at least one --trial (%v)", f.confirm, f.trial)
	case f.maxDuration <= 0:
		return capacity.Config{}, fmt.Errorf("--max-duration %v: must be above zero", f.maxDuration)
	case f.consumers < 0:
		return capacity.Config{}, fmt.Errorf("--consumers %d: must be 0 (none) or more", f.consumers)
	case f.searches < 1:
		return capacity.Config{}, fmt.Errorf("--searches %d: must be 1 or more", f.searches)
	case f.maxTrials < 0:
		return capacity.Config{}, fmt.Errorf("--max-trials %d: must be 0 (no limit) or more", f.maxTrials)
	case f.agents.agents < 0:
		return capacity.Config{}, fmt.Errorf("--agents %d: must be 0 (none: the load runs here) or more", f.agents.agents)
	case f.agents.agents > 0 && f.consumers > 0:
		return capacity.Config{}, fmt.Errorf("--consumers %d with --agents %d: a search's consumers run on this host; search with producers on the agents and no --consumers", f.consumers, f.agents.agents)
	}
	return capacity.Config{SLOs: slos, Precision: precision, Trial: f.trial, DurationSum: durationSum,
		ExceedRatio: exceed, Confirm: f.confirm, MaxDuration: f.maxDuration, MaxTrials: f.maxTrials}, nil
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
every --slo, the producers achieve at least 99% of the rate and (with --consumers) the
consumers keep up.

The search follows RFC 9971 (MLRsearch). A trial runs at one fixed offered rate for its length
after a warm-up (--warmup, default 2s); its loss ratio for "p99 <= 50 ms" is the share of due
records late, failed or unsent, and the goal allows 1%. A rate is classified from the sum of its
trials: a lower bound, an upper bound, or undecided and tried again. One unthrottled trial
bounds the rate; short trials (a quarter of --trial) bisect until the bracket is within twice
--precision; full-length trials (--trial) then classify its ends and bisect to --precision; a
--confirm trial at the lower end must pass (one that fails makes it an upper bound, and the
search goes on below). Before every trial the cluster is brought back to rest, checked by a light probe
whose latency must return near the idle cluster's. Each SLO is a goal, printed as its code
(40f40d1l50e: 40 s final trials, 40 s duration sum, 1% loss, 50% exceed), searched on the same
trials. The search spends at most --max-duration and always prints its best bracket; one that
did not converge or was not confirmed says why and exits with code 7 (docs/capacity.md).
--searches N runs N searches in a row and says how far their answers lie apart: a search's
bracket is how its own trials scatter, not where a re-run on the same cluster lands.

It takes the flags of kbench produce (not --num-records, --duration, --throughput or
--warmup-records, which the search sets).

Examples:
  kbench capacity --topic t --record-size 1024 --slo p99=50ms
  kbench capacity --bootstrap-server kafka-1:9092 --topic t --record-size 1024 --producers 4 \
      --slo p99=50ms,p999=200ms --precision 2% --trial 30s --max-duration 20m --consumers 2 -X acks=1 --json`,
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
	f.DurationVar(&cf.trial, "trial", capacity.DefaultTrial, "length of a full (final) trial after its warm-up")
	f.DurationVar(&cf.durationSum, "duration-sum", 0, "full-length trial time a rate needs before its classification is sure (default twice --trial up to 40s, at least one --trial)")
	f.StringVar(&cf.exceedRatio, "exceed-ratio", "50%", "share of a rate's trial time that may miss the SLO while the rate still counts as sustained")
	f.DurationVar(&cf.confirm, "confirm", capacity.DefaultConfirm, "length of the confirmation trial at the answer's lower end")
	f.DurationVar(&cf.maxDuration, "max-duration", capacity.DefaultMaxDuration, "the search's budget, settling and confirmation included: when it ends, the best bracket so far is printed")
	f.IntVar(&cf.maxTrials, "max-trials", 0, "also stop after this many trials (0: no limit; --max-duration is the budget)")
	f.IntVar(&cf.searches, "searches", 1, "run this many searches in a row, each with the budget, and say how far their answers lie apart")
	cf.agents.register(f)
	cf.live.Register(f)
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
func runCapacity(cmd *cobra.Command, pcfg load.ProducerConfig, scfg capacity.Config, noCreate bool, cf capacityFlags) (err error) {
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
	web, err := cf.live.Start(errOut)
	if err != nil {
		return err
	}
	defer func() { web.End(cmd.Context(), live.Outcome(cmd.Context(), err), "") }()
	obs := web.Series()
	obs.Begin(observe.Scenario{ID: "capacity"})
	cf.agents.obs = obs
	if web != nil {
		pcfg.TickInterval = liveTick // only the live figures read a search's ticks
	}
	scfg.Progress = func(t capacity.Trial) {
		obs.CapacityTrial(t)
		fmt.Fprintln(lines, capacityTrialLine(t, scfg.SLOs))
	}
	scfg.Warmup = warmup
	fmt.Fprintln(lines, capacityGoalLine(scfg))
	d, closeDriver, err := openDriver(cmd.Context(), pcfg, cf.agents, "capacity", errOut)
	if err != nil {
		return err
	}
	d = obs.Driver(d)
	var probes load.Driver
	if cf.agents.agents > 0 {
		// Settle probes run here, light: they ask whether the cluster is at rest, which
		// the agents' hosts would not answer better.
		probeCfg := pcfg
		probeCfg.Producers = 1
		p, err := load.OpenProducers(probeCfg)
		if err != nil {
			closeDriver()
			return err
		}
		probes = p
	}
	ld, err := capacityload.Start(cmd.Context(), d, probes, pcfg, cf.consumers, group, warmup)
	if err != nil {
		closeDriver()
		return err
	}
	defer closeDriver()
	pageOrder := results.PageReportingOrder(os.DirFS("/sys"))
	var done []*capacity.Result
	for i := 1; i <= cf.searches; i++ {
		if cf.searches > 1 {
			fmt.Fprintf(lines, "search %d of %d\n", i, cf.searches)
			// The live page shows each search as a repeat: its trials count from 1 again.
			obs.Begin(observe.Scenario{ID: "capacity", Repeat: i, Repeats: cf.searches})
		}
		var res *capacity.Result
		res, err = searchWithSettle(cmd.Context(), ld, scfg, lines)
		if res != nil {
			res.HostPageReportingOrder = pageOrder
			done = append(done, res)
			if !cf.jsonOut {
				printCapacity(out, res)
			}
		}
		if err != nil || cmd.Context().Err() != nil {
			break
		}
	}
	if cerr := ld.Close(); err == nil {
		err = cerr
	}
	if group != "" {
		deleteSearchGroup(pcfg, group, errOut)
	}
	printSearches(out, done, scfg.Precision, cf)
	if cmd.Context().Err() != nil {
		// Ctrl-C: what was measured is printed; the exit code says it was cut short.
		n := 0
		for _, res := range done {
			n += len(res.Trials)
		}
		fmt.Fprintf(errOut, "kbench: capacity search interrupted after %d trials\n", n)
		return nil
	}
	if err != nil {
		return fmt.Errorf("capacity search: %w", err)
	}
	var notDone []string
	for i, res := range done {
		if !res.Done() {
			text := "capacity search " + notDoneText(res)
			if len(done) > 1 {
				text = fmt.Sprintf("capacity search %d %s", i+1, notDoneText(res))
			}
			notDone = append(notDone, text)
		}
	}
	if len(notDone) > 0 {
		return &exitError{code: exitNotConverged, msg: strings.Join(notDone, "; ")}
	}
	return nil
}

// searchWithSettle measures the idle cluster's probe latency, then runs the search with
// a settle before every trial.
func searchWithSettle(ctx context.Context, ld *capacityload.Load, scfg capacity.Config, lines io.Writer) (*capacity.Result, error) {
	settler, baseRecords, err := ld.Settler(ctx)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(lines, "idle probe latency (p50 of %d records/s for %v): %.1f ms; the cluster counts as at rest again within 1.5x + 1 ms of it\n",
		capacityload.ProbeRate, capacityload.ProbeLength, float64(settler.Baseline)/float64(time.Millisecond))
	scfg.Settle = settler.Settle
	res, err := capacity.Search(ctx, scfg, ld.Trial)
	if res != nil {
		res.BaselineRecords = baseRecords
	}
	return res, err
}

// printCapacity prints a search's answer as text.
func printCapacity(w io.Writer, res *capacity.Result) {
	for _, b := range res.Brackets {
		fmt.Fprintln(w, capacityLine(b))
		if b.Lower > 0 {
			// RFC 9971's conditional throughput reads full-length trials; a lower end from
			// short trials only has none.
			conditional := "no full-length trial at this rate"
			if b.ConditionalThroughput > 0 {
				conditional = "conditional throughput " + groupDigits(b.ConditionalThroughput) + " records/s"
			}
			spread := fmt.Sprintf("%s %s-%s across its trials", b.SLO.Name(), msText(b.Spread[0]), msText(b.Spread[1]))
			if msText(b.Spread[0]) == msText(b.Spread[1]) {
				spread = fmt.Sprintf("%s %s in every trial at it", b.SLO.Name(), msText(b.Spread[0])) // one trial, mostly
			}
			if c := cpuText(b.AtLowerCPU); c != "" {
				conditional += "; " + c
			}
			fmt.Fprintf(w, "  at %s records/s: p50 %s, p99 %s, p99.9 %s; %s; %s\n",
				groupDigits(b.Lower), msText(b.AtLowerP50), msText(b.AtLowerP99), msText(b.AtLowerP999), spread, conditional)
		}
	}
	fmt.Fprintf(w, "%d trials in %s of a %v budget\n", len(res.Trials), res.Spent.Round(time.Second), res.Budget)
	if line := stealLine(res.Trials); line != "" {
		fmt.Fprintln(w, line)
	}
	if line := pageReportingLine(res.HostPageReportingOrder); line != "" {
		fmt.Fprintln(w, line)
	}
}

// notDoneText says which brackets did not converge or were not confirmed, and why.
func notDoneText(res *capacity.Result) string {
	var parts []string
	for _, b := range res.Brackets {
		if !b.Converged || !b.Confirmed {
			parts = append(parts, fmt.Sprintf("for %s: %s", b.SLO, b.Note))
		}
	}
	s := "not converged " + strings.Join(parts, "; ")
	if res.Stopped != "" {
		s += " (" + res.Stopped + ")"
	}
	return s
}

// deleteSearchGroup deletes the consumer group the search's consumers created (kafka.Owned),
// also after Ctrl-C; one that cannot be deleted is named, with the command that deletes it.
func deleteSearchGroup(pcfg load.ProducerConfig, group string, errOut io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	admin, err := kafka.OpenAdmin(pcfg.Bootstrap, pcfg.Properties, "capacity-cleanup")
	if err == nil {
		defer admin.Close()
		owned := kafka.NewOwned(kafka.Prefix)
		owned.ClaimGroup(group)
		_, err = owned.DeleteGroup(ctx, admin, group)
	}
	if err != nil {
		fmt.Fprintf(errOut, "kbench: kept consumer group %s on the cluster (%v); delete it with kafka-consumer-groups.sh --delete --group %s\n", group, err, group)
	}
}
