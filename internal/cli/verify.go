package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/faults"
	"github.com/kbench/kbench/internal/live"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/observe"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/target"
	"github.com/kbench/kbench/internal/verify"
)

// verifyFlags are kbench verify's flags.
type verifyFlags struct {
	props         clientPropertyFlags
	replicas      int
	minISR        int
	partitions    int
	producers     int
	throughput    float64
	duration      time.Duration
	unclean       bool
	faultSpec     string
	seed          int64
	faultCommands []string
	yes           bool
	clusterDir    string
	brokers       int
	bootstrap     string
	commandConfig string
	jsonOut       bool
	runDir        string
	live          live.Flags
	transactional bool
	txnMs         int64
	abortShare    float64
}

func (f *verifyFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.IntVar(&f.replicas, "replicas", verify.DefaultReplicas, "replication factor of the topic verify creates")
	fs.IntVar(&f.minISR, "min-insync-replicas", 2, "min.insync.replicas of the topic (0: the broker's default)")
	fs.IntVar(&f.partitions, "partitions", verify.DefaultPartitions, "partitions of the topic")
	fs.IntVar(&f.producers, "producers", verify.DefaultProducers, "independent producer clients")
	fs.Float64Var(&f.throughput, "throughput", verify.DefaultRate, "records/s offered in total, open-loop")
	fs.DurationVar(&f.duration, "duration", verify.DefaultDuration, "how long the producers send (at least the fault plan's length)")
	fs.BoolVar(&f.unclean, "unclean-leader-election", false, "set unclean.leader.election.enable=true on the topic (a negative control: expect loss)")
	fs.StringVar(&f.faultSpec, "faults", "", "fault plan, e.g. 'leader-kill x3 every 10s' (see docs/verify.md; default none)")
	fs.Int64Var(&f.seed, "seed", 0, "seed of a random fault plan, to replay one (default: a random seed, printed)")
	fs.StringArrayVar(&f.faultCommands, "fault-command", nil, "external cluster: ID=COMMAND that kills and restarts broker ID (repeatable; needs --yes)")
	fs.BoolVar(&f.yes, "yes", false, "confirm running the --fault-command lines on an external cluster")
	fs.StringVar(&f.clusterDir, "cluster-dir", "", "use the running embedded cluster in DIR (kbench cluster up) instead of starting one")
	fs.IntVar(&f.brokers, "brokers", 3, "brokers of the embedded cluster verify starts when given no cluster")
	fs.StringVar(&f.bootstrap, "bootstrap-server", "", "verify an external cluster instead of starting one")
	fs.StringVar(&f.commandConfig, "command-config", "", "client properties file (security settings) for --bootstrap-server")
	fs.StringArrayVar(&f.props.props, "producer-props", nil, "producer properties name=value (several may follow the flag), e.g. acks=all")
	fs.StringVar(&f.props.configFile, "producer.config", "", "producer properties file")
	fs.BoolVar(&f.jsonOut, "json", false, "print the whole result as JSON on stdout")
	fs.BoolVar(&f.transactional, "transactional", false, "produce in transactions and read back committed records only: records of aborted transactions must be hidden")
	fs.Int64Var(&f.txnMs, "transaction-duration-ms", 0, "with --transactional: commit each transaction after this many ms (default 100)")
	fs.Float64Var(&f.abortShare, "abort-share", 0, "with --transactional: abort this share of transactions on purpose, e.g. 0.1 (a control: their records must be hidden, not lost)")
	fs.StringVar(&f.runDir, "run-dir", "", "directory for verify.json and the history files (default runs/<date>-verify)")
	f.live.Register(fs)
}

// config checks the flags and returns the run they describe, without touching a cluster:
// the bootstrap servers, the fault target and the directory are filled in by the caller.
func (f *verifyFlags) config(cmd *cobra.Command, args []string) (verify.Config, error) {
	props, err := f.props.properties(args)
	if err != nil {
		return verify.Config{}, err
	}
	cfg := verify.Config{ProducerProps: props, Partitions: f.partitions, Replicas: f.replicas,
		Producers: f.producers, Rate: f.throughput, Duration: f.duration, Bootstrap: f.bootstrap,
		TopicConfigs: map[string]string{}, Transactional: f.transactional, AbortShare: f.abortShare,
		TransactionLength: time.Duration(f.txnMs) * time.Millisecond}
	if f.minISR < 0 || f.minISR > f.replicas {
		return cfg, fmt.Errorf("--min-insync-replicas %d: want 0 (broker default) to --replicas %d", f.minISR, f.replicas)
	}
	if f.minISR > 0 {
		cfg.TopicConfigs["min.insync.replicas"] = strconv.Itoa(f.minISR)
	}
	cfg.TopicConfigs["unclean.leader.election.enable"] = strconv.FormatBool(f.unclean)
	if f.bootstrap != "" && f.clusterDir != "" {
		return cfg, errors.New("--bootstrap-server and --cluster-dir: give one cluster")
	}
	if f.brokers < 1 || f.brokers > 32 {
		return cfg, fmt.Errorf("--brokers %d: want 1 to 32", f.brokers)
	}
	if f.bootstrap == "" && f.clusterDir == "" && f.replicas > f.brokers {
		return cfg, fmt.Errorf("--replicas %d: the embedded cluster has %d broker(s) (--brokers)", f.replicas, f.brokers)
	}
	if f.bootstrap == "" && (len(f.faultCommands) > 0 || f.commandConfig != "") {
		return cfg, errors.New("--fault-command and --command-config are for an external cluster (--bootstrap-server)")
	}
	if !cmd.Flags().Changed("seed") {
		f.seed = rand.Int64N(1 << 31)
	}
	if cfg.FaultPlan, err = faults.Parse(f.faultSpec, f.seed); err != nil {
		return cfg, fmt.Errorf("--faults: %w", err)
	}
	if len(cfg.FaultPlan.Steps) > 0 && f.bootstrap != "" && len(f.faultCommands) == 0 {
		return cfg, errors.New("--faults on an external cluster needs --fault-command ID=COMMAND for each broker (and --yes)")
	}
	if len(cfg.FaultPlan.Steps) > 0 {
		// Validate checks the plan fits the duration; the real target is made later.
		cfg.FaultTarget = func(*kgo.Client, string) (faults.Target, error) { return nil, errors.New("no cluster yet") }
	}
	if err := cfg.Validate(); err != nil {
		return cfg, err
	}
	cfg.Topic = fmt.Sprintf("kbench-verify-%s-%04x", time.Now().Format("20060102-150405"), rand.IntN(1<<16))
	return cfg, nil
}

func newVerifyCommand() *cobra.Command {
	var f verifyFlags
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Check that acknowledged records survive faults: lost, duplicated, reordered, inconsistent, unexpected",
		Long: `Verify a durability claim: create a topic with the given replication settings, send
sequenced records (producer, sequence and expected partition in every record) at a paced
rate while a fault plan kills, stops or cuts brokers, wait until every replica is back in
sync, read every partition back with a fresh consumer from the earliest offset to a stable
high watermark, and compare with every acknowledgement. The anomalies are named as in
Jepsen's Kafka analyses:

  lost          acknowledged, never read
  duplicated    read more than once
  reordered     read after a later record of the same producer, in its partition
  inconsistent  acknowledged at an offset that holds another record
  unexpected    read, never sent

Records that failed or were never answered yet are present are counted apart: no error.
The last line is "lost N, duplicated N, reordered N, inconsistent N, unexpected N (of M
acknowledged)".

With --transactional each producer commits a transaction every --transaction-duration-ms
(100 by default) and the read-back reads as a read_committed consumer: a record of an
aborted transaction that is read is an anomaly ("aborted but visible", added to the last
line), and one not read is hidden, as it must be, not lost. --abort-share 0.1 aborts a
tenth of the transactions on purpose: the control that shows their records hidden. The run directory holds verify.json and the history (every acknowledgement,
every read, every unacknowledged record) to recompute the counts without kbench.

With no cluster given verify starts an embedded one (--brokers) and stops it at the end; with
--cluster-dir it uses a running one (kbench cluster up). Against --bootstrap-server, faults
need a --fault-command per broker and --yes. Only the topic verify created is deleted.

Exit codes: 0 no anomaly, 6 anomalies found, 1 error, 130 interrupted (docs/exit-codes.md).

Examples:
  kbench verify --duration 20s
  kbench verify --replicas 3 --min-insync-replicas 2 --producer-props acks=all --faults 'leader-kill x3 every 10s' --duration 40s
  kbench verify --producer-props acks=1 --min-insync-replicas 1 --faults 'leader-kill x3 every 5s heal 3s' --duration 20s
  kbench verify --bootstrap-server kafka1:9092 --command-config client.properties --duration 60s --json
  kbench verify --transactional --transaction-duration-ms 100 --abort-share 0.1 --duration 20s`,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := f.config(cmd, args)
			if err != nil {
				return err
			}
			return runVerify(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), &f, cfg)
		},
	}
	f.register(cmd)
	return cmd
}

// runVerify finds or starts the cluster, runs the check, writes the run directory and
// prints the verdict.
func runVerify(ctx context.Context, stdout, stderr io.Writer, f *verifyFlags, cfg verify.Config) (err error) {
	web, err := f.live.Start(stderr)
	if err != nil {
		return err
	}
	report := ""
	defer func() { web.End(ctx, live.Outcome(ctx, err), report) }()
	obs := web.Series()
	obs.Begin(observe.Scenario{ID: "verify", Offered: cfg.Rate})
	cfg.Tick = func(t load.Tick) { obs.ProduceTick(t, nil) }
	cfg.Progress = func(s string) {
		// verify's own lines name each fault and its healing ("12.0s fault leader-kill: ...").
		switch {
		case strings.Contains(s, "s fault "):
			obs.Fault(strings.TrimSpace(s))
		case strings.Contains(s, "s healed "):
			obs.Healed(strings.TrimSpace(s))
		}
		fmt.Fprintln(stderr, s)
	}
	if len(cfg.FaultPlan.Steps) > 0 {
		fmt.Fprintf(stderr, "fault plan (seed %d): %s\n", f.seed, planWords(cfg.FaultPlan))
	}
	spec := target.Spec{Bootstrap: f.bootstrap, ClusterDir: f.clusterDir, Start: f.brokers, Sample: new(bool), Log: stderr}
	if f.bootstrap != "" && f.commandConfig != "" {
		sec, err := cluster.ReadProperties(f.commandConfig)
		if err != nil {
			return err
		}
		spec.Properties, cfg.Security = sec, sec
	}
	// A cluster named by its bootstrap servers is faulted through the user's commands,
	// even the embedded one: kbench restarts only brokers it knows it started.
	t, err := target.Open(ctx, spec)
	if err != nil {
		return err
	}
	defer t.Close()
	cfg.Bootstrap = t.Bootstrap
	if len(cfg.FaultPlan.Steps) > 0 {
		if f.bootstrap != "" {
			cmds, err := faults.ParseCommands(f.faultCommands)
			if err != nil {
				return err
			}
			cfg.FaultTarget = func(cl *kgo.Client, topic string) (faults.Target, error) {
				return faults.NewCommandTarget(cmds, f.yes, cl, topic)
			}
		} else {
			c := t.Embedded
			cfg.FaultTarget = func(cl *kgo.Client, topic string) (faults.Target, error) {
				return faults.NewEmbeddedTarget(c, cl, topic), nil
			}
		}
	}
	dir := f.runDir
	if dir == "" {
		dir = newVerifyDir("runs")
	}
	cfg.Dir = dir
	res, err := verify.Run(ctx, cfg)
	if res != nil && res.Totals.Sent > 0 {
		res.Cluster = t.Kind
		if werr := results.WriteVerify(dir, res.Record()); werr != nil {
			fmt.Fprintf(stderr, "%v\n", werr)
		} else {
			fmt.Fprintf(stderr, "run directory: %s\n", dir)
			report = filepath.Join(dir, results.VerifyFile)
		}
		outcomes := map[string]int64{"sent": res.Totals.Sent, "acknowledged": res.Totals.Acked, "failed": res.Totals.Failed,
			"unsent": res.Totals.Unsent, "read": res.Read.Records, "lost": res.Counts.Lost, "duplicated": res.Counts.Duplicated,
			"reordered": res.Counts.Reordered, "inconsistent": res.Counts.Inconsistent, "unexpected": res.Counts.Unexpected}
		if res.Transactions != nil {
			outcomes["aborted_visible"], outcomes["hidden"] = res.Counts.AbortedVisible, res.Counts.Hidden
		}
		obs.Verified(outcomes)
	}
	if err != nil {
		if ctx.Err() != nil {
			return &exitError{code: exitInterrupted, msg: "interrupted: the topic was deleted, nothing was checked"}
		}
		return err
	}
	return printVerdict(stdout, stderr, f.jsonOut, res)
}

// printVerdict prints the result (with --json as verify.json holds it, the two lines
// otherwise) and turns anomalies into exitAnomalies.
func printVerdict(stdout, stderr io.Writer, jsonOut bool, res *verify.Result) error {
	lines := stdout
	if jsonOut {
		b, err := json.MarshalIndent(res.Record(), "", "  ")
		if err != nil {
			return fmt.Errorf("unable to encode the result: %w", err)
		}
		fmt.Fprintln(stdout, string(b))
		lines = stderr
	}
	fmt.Fprintln(lines, res.Accounting())
	fmt.Fprintln(lines, res.Verdict())
	if !res.Clean() {
		return &exitError{code: exitAnomalies}
	}
	return nil
}

// planWords lists a plan's steps for the progress lines.
func planWords(p faults.Plan) string {
	s := ""
	for i, st := range p.Steps {
		if i > 0 {
			s += "; "
		}
		s += st.String()
	}
	return s
}

// newVerifyDir returns a fresh directory name under root: <date>-verify, -2, -3... when taken.
func newVerifyDir(root string) string {
	base := filepath.Join(root, time.Now().Format("2006-01-02-1504")+"-verify")
	dir := base
	for i := 2; ; i++ {
		if _, err := os.Stat(dir); os.IsNotExist(err) {
			return dir
		}
		dir = fmt.Sprintf("%s-%d", base, i)
	}
}
