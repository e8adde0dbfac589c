package cli

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/live"
	"github.com/kbench/kbench/internal/report"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/runner"
	"github.com/kbench/kbench/internal/study"
	"github.com/kbench/kbench/studies"
)

func newRunCommand() *cobra.Command {
	var (
		dryRun        bool
		resume        string
		bootstrap     string
		commandConfig string
		metricsURLs   []string
		maxRate       float64
		maxDuration   time.Duration
		allowGroups   []string
		yes           bool
		runsDir       string
		formats       string
		seed          uint64
		af            agentFlags
		lf            live.Flags
	)
	cmd := &cobra.Command{
		Use:   "run STUDY",
		Short: "Run a study (a file or a built-in name) and write its run directory and report",
		Long: `Run a study: start the embedded cluster it describes (or attach to yours), run every
scenario and repeat on its own fresh topic (warm-up discarded, a measured window, topic
deleted), write runs/<date>-<study>/ and the report. Ctrl-C stops the load, deletes the
topics kbench created and still writes the report of the finished scenarios; finish the run
later with --resume.

Repeats run interleaved: repeat 1 of every scenario, then repeat 2 of every scenario, and so
on, the scenarios in a new random order each round, so slow drift of the cluster (JIT
warm-up, page cache, log growth) spreads over every scenario instead of biasing some. The
seed of that order is printed and recorded in run.json; --seed replays an order, --dry-run
prints it, and --resume keeps the run's own.

Against a cluster kbench did not start (--bootstrap-server), kbench creates and deletes only
topics and consumer groups named kbench-<run>-... (and a group the study names, which must
not exist yet unless --allow-existing-group NAME), never anything else, and asks before
loading the cluster, on loopback too, unless --yes is given. Without --metrics-url the run
measures what the clients see; broker figures are then absent.

With --agents N every scenario's producers run on N remote agents (kbench agent on other
hosts, coordinated through a control topic kbench-<run>-control on the cluster) and none
here; the repeat's figures are the agents' merged exactly, and each agent's own result is
kept in scenarios/<id>/agents/ and shown in the report with the agents' start skew. An agent
that goes silent for 3 s or fails aborts the repeat on every agent and makes it invalid,
naming the agent.

Exit codes: 0 done, 1 error, 5 every repeat invalid, 130 interrupted (docs/exit-codes.md).

Examples:
  kbench studies
  kbench run quick
  kbench run quick --dry-run
  kbench run quick --seed 12345
  kbench run my-study.yaml --bootstrap-server kafka1:9092 --command-config client.properties --max-rate 50000
  kbench run quick --bootstrap-server kafka1:9092 --agents 3
  kbench run --resume runs/2026-11-22-1530-quick`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkRunFlags(cmd.Flags()); err != nil {
				return err
			}
			if len(args) == 0 && resume == "" {
				return fmt.Errorf("name a study (one of %s) or a study file, or --resume RUN", strings.Join(studies.Names(), ", "))
			}
			if len(args) > 0 && resume != "" {
				// A resumed run keeps the study copied into its directory; another one would
				// mix two plans in one run.
				return fmt.Errorf("give a study or --resume RUN, not both: --resume continues the study saved in %s", resume)
			}
			if resume != "" && cmd.Flags().Changed("seed") {
				return fmt.Errorf("--seed cannot be given with --resume: a resumed run keeps the order (and seed) recorded in %s", filepath.Join(resume, results.RunFile))
			}
			plan, text, err := loadStudy(args, resume)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("seed") {
				seed = runner.NewSeed()
			}
			if dryRun {
				return dryRunPlan(cmd.OutOrStdout(), plan, resume, seed)
			}
			fmts, err := report.ParseFormats(formats)
			if err != nil {
				return err
			}
			if maxDuration < 0 {
				return fmt.Errorf("--max-duration %v is negative", maxDuration)
			}
			if maxDuration > 0 && plan.MinRepeats == 0 {
				return fmt.Errorf("--max-duration %v: the study's repeats are a fixed count (%d); give it a range, e.g. repeats: {min: 3, max: 10}", maxDuration, plan.Repeats)
			}
			opts := runner.Options{Plan: plan, StudyText: text, RunsDir: runsDir, ResumeDir: resume, MaxRate: maxRate, Seed: seed, MaxDuration: maxDuration,
				AllowExistingGroups: allowGroups, Agents: af.agents, AgentTimeout: af.timeout,
				Progress: cmd.OutOrStdout(), Terminal: isTerminal(os.Stdout), Log: cmd.ErrOrStderr(), Version: Version}
			if plan.Cluster.Network != nil || plan.Cluster.BrokerNetwork != nil {
				// The proxies run as their own process, so their CPU is not the client's.
				if opts.ProxyCommand, err = proxyCommand(); err != nil {
					return err
				}
			}
			if bootstrap != "" {
				ext := &runner.External{Bootstrap: bootstrap, MetricsURLs: metricsURLs, CommandConfig: commandConfig}
				if commandConfig != "" {
					if ext.Properties, err = cluster.ReadProperties(commandConfig); err != nil {
						return err
					}
				}
				opts.External = ext
			}
			if !yes {
				opts.Confirm = confirmer(cmd.InOrStdin(), cmd.ErrOrStderr())
			}
			web, err := lf.Start(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			opts.Observe = web.Series()
			return runStudy(cmd.Context(), cmd.OutOrStdout(), opts, fmts, web)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&dryRun, "dry-run", false, "print the expanded plan and the estimated duration, run nothing")
	f.StringVar(&resume, "resume", "", "finish an incomplete run directory")
	f.StringVar(&bootstrap, "bootstrap-server", "", "attach to this cluster instead of starting one")
	f.StringVar(&commandConfig, "command-config", "", "client properties file (security settings) for --bootstrap-server")
	f.StringArrayVar(&metricsURLs, "metrics-url", nil, "a broker's Prometheus metrics URL, [ID=]URL, once per broker (without ID=, the Nth in node-id order; external clusters; brokers without one are measured from the clients only)")
	f.Float64Var(&maxRate, "max-rate", 0, "cap every scenario's rate, records/s over all producers (0: no cap)")
	f.DurationVar(&maxDuration, "max-duration", 0, "with a range of repeats, start no round that would end after this budget (0: none)")
	f.StringArrayVar(&allowGroups, "allow-existing-group", nil, "let the study's consumer group NAME be one that exists on the cluster (never deleted); once per group")
	af.register(f)
	f.BoolVar(&yes, "yes", false, "do not ask before loading a cluster kbench did not start")
	f.StringVar(&runsDir, "runs-dir", "runs", "where run directories are created")
	f.Uint64Var(&seed, "seed", 0, "seed of the interleaved run order, to replay a run's order (default: a random seed, printed)")
	f.StringVar(&formats, "report", "md,html,csv,json", "report formats written at the end")
	lf.Register(f)
	return cmd
}

// dryRunPlan prints the plan and the order its repeats would run in: for a resumed run,
// the order and seed recorded in its run.json.
func dryRunPlan(w io.Writer, plan *study.Plan, resume string, seed uint64) error {
	if err := plan.Describe(w); err != nil {
		return err
	}
	if resume != "" {
		rd, err := results.Read(resume)
		if err != nil {
			return fmt.Errorf("resume %s: %w", resume, err)
		}
		if o := rd.Run.Order; o != nil {
			seed = o.Seed
		}
	}
	return runner.WriteOrder(w, runner.PlanOrder(plan, seed), seed)
}

// loadStudy reads the study named by args, or the copy kept in a run directory to resume.
func loadStudy(args []string, resume string) (*study.Plan, []byte, error) {
	if resume != "" {
		path := filepath.Join(resume, results.StudyFile)
		text, err := os.ReadFile(path)
		if err != nil {
			return nil, nil, fmt.Errorf("resume %s: %w", resume, err)
		}
		plan, err := study.Parse(path, text)
		if err != nil {
			return nil, nil, err
		}
		if err := checkNotRedacted(path, plan); err != nil {
			return nil, nil, err
		}
		return plan, text, nil
	}
	plan, err := study.Load(args[0])
	if err != nil {
		return nil, nil, err
	}
	var text []byte
	if strings.HasPrefix(plan.File, "builtin:") {
		text, err = studies.Read(args[0])
	} else {
		text, err = os.ReadFile(args[0])
	}
	return plan, text, err
}

// checkNotRedacted refuses to resume a study whose copy had secret broker configs: they
// were redacted when the copy was written, and a cluster started with "[redacted]" as a
// password would fail in a confusing way, or differ from the one the run began on.
func checkNotRedacted(path string, plan *study.Plan) error {
	for _, k := range slices.Sorted(maps.Keys(plan.Cluster.BrokerConfigs)) {
		if strings.Contains(plan.Cluster.BrokerConfigs[k], results.Redacted) {
			return fmt.Errorf("%s: cluster.broker_configs.%s was redacted when the study was copied, so this run cannot be resumed: run the study again", path, k)
		}
	}
	return nil
}

func runStudy(ctx context.Context, w io.Writer, opts runner.Options, formats []string, web *live.Server) error {
	started := time.Now()
	out, err := runner.Run(ctx, opts)
	if out == nil {
		web.End(ctx, live.Outcome(ctx, err), "")
		return err
	}
	interrupted := errors.Is(err, context.Canceled)
	if err != nil && !interrupted {
		fmt.Fprintf(w, "run stopped: %v\n", err)
	}
	fmt.Fprintf(w, "run directory: %s (%d repeat(s) in %s, %d invalid)\n", out.Dir, out.Repeats,
		time.Since(started).Round(time.Second), out.Invalid)
	paths, rerr := report.Generate(out.Dir, "", formats, report.Options{Generated: time.Now()})
	if rerr != nil {
		fmt.Fprintf(w, "report not written: %v\n", rerr)
	}
	for _, p := range paths {
		fmt.Fprintf(w, "report: %s\n", p)
	}
	web.End(ctx, live.Outcome(ctx, err), htmlReport(paths))
	if interrupted {
		return &exitError{code: exitInterrupted, msg: fmt.Sprintf("interrupted; finish it with: kbench run --resume %s", out.Dir)}
	}
	if err != nil {
		return &exitError{code: exitFailed, msg: fmt.Sprintf("%v; finish it with: kbench run --resume %s", err, out.Dir)}
	}
	if out.Repeats > 0 && out.Invalid == out.Repeats {
		return &exitError{code: exitAllInvalid, msg: fmt.Sprintf("every repeat was invalid (%d of %d): %s", out.Invalid, out.Repeats, summarizeReasons(out.Reasons))}
	}
	return rerr
}

// htmlReport is the HTML report among paths, the one a browser shows ("" when none).
func htmlReport(paths []string) string {
	for _, p := range paths {
		if strings.HasSuffix(p, ".html") {
			return p
		}
	}
	return ""
}

// summarizeReasons lists the distinct invalidity reasons, most frequent first, with counts;
// the first few only, so that the error stays one readable line.
func summarizeReasons(reasons map[string]int) string {
	const shown = 5
	keys := slices.Collect(maps.Keys(reasons))
	slices.SortFunc(keys, func(a, b string) int {
		if c := cmp.Compare(reasons[b], reasons[a]); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for i, k := range keys {
		if i == shown {
			parts = append(parts, fmt.Sprintf("%d other reason(s) in the repeat files", len(keys)-shown))
			break
		}
		parts = append(parts, fmt.Sprintf("%dx %s", reasons[k], k))
	}
	return strings.Join(parts, "; ")
}

// confirmer asks on the terminal before loading a cluster kbench did not start; without a terminal it
// refuses, so an unattended run never loads a production cluster by accident.
func confirmer(in io.Reader, out io.Writer) func(string) bool {
	return func(plan string) bool {
		fmt.Fprint(out, plan)
		if f, ok := in.(*os.File); ok && !isTerminal(f) {
			fmt.Fprintln(out, "not a terminal: pass --yes to proceed")
			return false
		}
		fmt.Fprint(out, "Proceed? [y/N] ")
		answer, _ := bufio.NewReader(in).ReadString('\n')
		answer = strings.ToLower(strings.TrimSpace(answer))
		return answer == "y" || answer == "yes"
	}
}

// isTerminal reports whether f is a character device (a terminal), without a dependency.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
