package verify

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/kbench/kbench/internal/faults"
	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/settings"
)

// Config is one verify run.
type Config struct {
	// Bootstrap is the comma-separated broker list; Security the client security
	// properties (Java names) every client uses.
	Bootstrap string
	Security  map[string]string
	// ProducerProps are the producers' Java client properties (acks, retries, ...).
	ProducerProps map[string]string
	// Topic is created by the run with Partitions, Replicas and TopicConfigs
	// (min.insync.replicas, unclean.leader.election.enable), and deleted at its end.
	Topic        string
	Partitions   int
	Replicas     int
	TopicConfigs map[string]string
	// Producers send Rate records/s in total, open-loop, for Duration.
	Producers int
	Rate      float64
	Duration  time.Duration
	// Transactional makes the producers commit a transaction every TransactionLength
	// (default DefaultTransactionLength) and abort AbortShare of them on purpose; the
	// read-back then reads committed records only, and records of aborted transactions
	// must be hidden, not read.
	Transactional     bool
	TransactionLength time.Duration
	AbortShare        float64
	// FaultPlan runs during the load on the target FaultTarget makes; Faults, when set,
	// runs instead (tests).
	FaultPlan   faults.Plan
	FaultTarget FaultTarget
	Faults      FaultRunner
	// Dir, when set, receives verify.json and the history files.
	Dir string
	// Progress, when set, receives progress lines; Tick, when set, the producers' ticks.
	Progress func(string)
	Tick     func(load.Tick)
}

// Defaults of Config.
const (
	DefaultRate       = 2000
	DefaultProducers  = 4
	DefaultPartitions = 6
	DefaultReplicas   = 3
	DefaultDuration   = 30 * time.Second
)

// Validate checks the settings together, naming the flag and the valid range; it returns
// the first problem only, so that the user reads one line. The cluster is not checked.
func (c *Config) Validate() error {
	var errs []error
	if c.Partitions < 1 {
		errs = append(errs, fmt.Errorf("--partitions %d: want 1 or more", c.Partitions))
	}
	if c.Replicas < 1 || c.Replicas > 32767 {
		errs = append(errs, fmt.Errorf("--replicas %d: want 1 or more", c.Replicas))
	}
	if c.Producers < 1 {
		errs = append(errs, fmt.Errorf("--producers %d: want 1 or more", c.Producers))
	}
	if c.Rate <= 0 {
		errs = append(errs, fmt.Errorf("--throughput %v: want a rate above 0 records/s (verify paces its load)", c.Rate))
	}
	if c.Duration <= 0 {
		errs = append(errs, fmt.Errorf("--duration %v: want a positive duration such as 30s", c.Duration))
	}
	if end := c.FaultPlan.End(); end > 0 && c.Duration < end {
		errs = append(errs, fmt.Errorf("--duration %v is shorter than the fault plan, whose last fault heals at %v", c.Duration, end))
	}
	if len(c.FaultPlan.Steps) > 0 && c.FaultTarget == nil && c.Faults == nil {
		errs = append(errs, errors.New("--faults: no way to apply faults to this cluster"))
	}
	if a := strings.TrimSpace(c.ProducerProps["acks"]); a == "0" {
		errs = append(errs, errors.New("--producer-props acks=0: the cluster acknowledges nothing, so there is no claim to check; use acks=1 or acks=all"))
	}
	if _, err := load.ParseProperties(settings.Producer, c.producerProps()); err != nil {
		errs = append(errs, fmt.Errorf("--producer-props: %w", err))
	}
	errs = append(errs, c.validateTransactions()...)
	if len(errs) > 0 {
		return errs[0]
	}
	return nil
}

// producerProps are the security and producer properties together.
func (c *Config) producerProps() map[string]string {
	props := maps.Clone(c.Security)
	if props == nil {
		props = map[string]string{}
	}
	maps.Copy(props, c.ProducerProps)
	return props
}

func (c *Config) progress(format string, args ...any) {
	if c.Progress != nil {
		c.Progress(fmt.Sprintf(format, args...))
	}
}

// connect reads how every client of the run reaches the cluster.
func (c *Config) connect() (*kafka.Connection, error) { return kafka.Connect(c.Bootstrap, c.Security) }

// NewRunID returns a random run id for the records' values.
func NewRunID() uint64 { return rand.Uint64() }

// Run creates the topic, sends sequenced records while the faults run, waits for the
// cluster to recover, reads everything back, checks it and deletes the topic. The error
// is for a run that could not be checked; anomalies are in the result. An interrupted run
// cleans up and returns ctx's error.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Bootstrap == "" {
		return nil, errors.New("no cluster to verify: no bootstrap servers")
	}
	conn, err := cfg.connect()
	if err != nil {
		return nil, err
	}
	cl, err := conn.NewClient("verify-admin")
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	admin := kadm.NewClient(cl)
	pctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	err = checkBrokers(pctx, admin, cfg.Replicas)
	cancel()
	if err != nil {
		return nil, err
	}
	if len(cfg.FaultPlan.Steps) > 0 && cfg.Faults == nil {
		target, err := cfg.FaultTarget(cl, cfg.Topic)
		if err != nil {
			return nil, err
		}
		if err := target.Check(ctx, cfg.FaultPlan); err != nil {
			return nil, err
		}
		cfg.Faults = &planRunner{plan: cfg.FaultPlan, target: target, admin: admin, topic: cfg.Topic}
	}
	owned := kafka.NewOwned(kafka.Prefix)
	defer func() {
		if derr := deleteTopics(admin, owned); derr != nil {
			cfg.progress("%v", derr)
		}
	}()
	if err := createTopic(ctx, admin, owned, &cfg); err != nil {
		return nil, err
	}
	cfg.progress("created topic %s: %d partitions, %d replicas, %s", cfg.Topic, cfg.Partitions, cfg.Replicas, configWords(cfg.TopicConfigs))
	res := &Result{Run: NewRunID(), Topic: cfg.Topic, Partitions: cfg.Partitions,
		Replicas: cfg.Replicas, TopicConfigs: cfg.TopicConfigs, Producers: cfg.Producers, Rate: cfg.Rate,
		DurationSeconds: cfg.Duration.Seconds()}
	if res.EffectiveTopicConfigs, err = effectiveConfigs(ctx, admin, cfg.Topic); err != nil {
		return nil, err
	}
	if len(cfg.FaultPlan.Steps) > 0 {
		res.FaultPlan = &cfg.FaultPlan
	}
	h := NewHistory(res.Run, cfg.Producers, cfg.Partitions)
	if err := produce(ctx, &cfg, h, res); err != nil {
		return res, err
	}
	if cfg.Faults != nil {
		cfg.progress("waiting for every broker and replica to recover")
		if err := cfg.Faults.Recovered(ctx); err != nil {
			return res, fmt.Errorf("the cluster did not recover after the faults, so a read-back would not be final: %w", err)
		}
	}
	res.Totals = h.Totals()
	cfg.progress("load done: %s; reading every partition back", res.Totals)
	if cfg.Transactional {
		t := h.TransactionTotals()
		t.LengthMs, t.AbortShare = float64(cfg.transactionLength().Microseconds())/1000, cfg.AbortShare
		res.Transactions = &t
		cfg.progress("%s; reading committed records only", t)
	}
	if err := readAndCheck(ctx, &cfg, conn, h, res); err != nil {
		return res, err
	}
	return res, nil
}

// produce runs the producers for the duration with the faults beside them, filling h and
// the result's rows, faults and phases.
func produce(ctx context.Context, cfg *Config, h *History, res *Result) error {
	pcfg := load.ProducerConfig{Bootstrap: cfg.Bootstrap, Topic: cfg.Topic,
		Properties: cfg.producerProps(), Producers: cfg.Producers, Source: h}
	if cfg.Transactional {
		pcfg.TransactionalID, pcfg.TransactionDuration, pcfg.AbortShare = cfg.transactionalID(), cfg.transactionLength(), cfg.AbortShare
	}
	p, err := load.OpenProducers(pcfg)
	if err != nil {
		return err
	}
	defer p.Close()
	start := time.Now()
	var faultsDone sync.WaitGroup
	var faultErr error
	if cfg.Faults != nil {
		// The schedule runs within the load: a fault due after its end is not injected.
		fctx, cancel := context.WithDeadline(ctx, start.Add(cfg.Duration))
		defer cancel()
		faultsDone.Add(1)
		go func() {
			defer faultsDone.Done()
			res.Faults, faultErr = cfg.Faults.Run(fctx, func(e faults.Event) {
				if e.HealedAt.IsZero() {
					cfg.progress("%5.1fs fault %s: %s", e.Applied.Sub(start).Seconds(), e.Kind, e.Detail)
				} else {
					cfg.progress("%5.1fs healed %s: %s", e.HealedAt.Sub(start).Seconds(), e.Kind, e.HealDetail)
				}
			})
		}()
	}
	pr, err := p.Trial(ctx, load.Schedule{Rate: cfg.Rate, Duration: cfg.Duration}, func(t load.Tick) {
		if cfg.Tick != nil {
			cfg.Tick(t)
		}
		res.Rows = append(res.Rows, Row{At: t.Elapsed.Seconds(), Seconds: t.Interval.Seconds(), Acked: t.Acked,
			Failed: t.Failed, P50Ms: float64(t.DueLatency.P50Us) / 1000, P99Ms: float64(t.DueLatency.P99Us) / 1000})
		if n := len(res.Rows); n%5 == 0 {
			p99 := "no acknowledgement in the last second"
			if t.Acked > 0 {
				p99 = fmt.Sprintf("p99 %.1f ms", float64(t.DueLatency.P99Us)/1000)
			}
			cfg.progress("%5.0fs %s acknowledged, %s failed, %s", t.Elapsed.Seconds(), n64(t.TotalAcked), n64(t.TotalFailed), p99)
		}
	})
	faultsDone.Wait()
	if pr != nil {
		res.ProducerSettings = pr.Settings
	}
	if err != nil {
		return fmt.Errorf("produce: %w", err)
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if faultErr != nil {
		if !errors.Is(faultErr, context.DeadlineExceeded) {
			return fmt.Errorf("faults: %w", faultErr)
		}
		// The load ended first (restarts take longer on a busy machine than the plan
		// assumed): what was injected is healed and checked; the result says so.
		res.FaultsCutShort = fmt.Sprintf("the load ended before the fault plan: %d of %d faults applied (%v)",
			len(res.Faults), len(cfg.FaultPlan.Steps), faultErr)
		cfg.progress("%s", res.FaultsCutShort)
	}
	if cfg.Faults != nil {
		res.FaultPhases = faults.Phases(res.Faults, start, time.Now())
		res.Phases, res.Recoveries = Availability(res.Rows, cfg.Rate, start, res.Faults, res.FaultPhases)
	}
	return nil
}

// readAndCheck reads the topic back into a checker, keeping the reads in the history
// files when the run has a directory, and fills the result's counts.
func readAndCheck(ctx context.Context, cfg *Config, conn *kafka.Connection, h *History, res *Result) error {
	c := NewChecker(h)
	var files *historyFiles
	var keep func(Entry)
	if cfg.Dir != "" {
		var err error
		if files, err = createHistoryFiles(cfg.Dir); err != nil {
			return err
		}
		defer files.close()
		keep = files.read
	}
	st, err := ReadBack(ctx, conn, cfg.Topic, cfg.Partitions, h.Run(), cfg.Transactional, c, keep)
	res.Read = st
	if err != nil {
		return err
	}
	res.Counts, res.Examples = c.Finish()
	cfg.progress("read back %s records in %.1fs", n64(st.Records), st.Seconds)
	if files != nil {
		if err := files.finish(c.Acks(), h); err != nil {
			return err
		}
		res.Files = files.names()
		if cfg.Transactional {
			if err := writeAborted(cfg.Dir, h); err != nil {
				return err
			}
			res.Files = append(res.Files, results.AbortedFile)
		}
	}
	return nil
}

func configWords(m map[string]string) string {
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+"="+m[k])
	}
	if len(parts) == 0 {
		return "broker defaults"
	}
	return strings.Join(parts, " ")
}

func n64(v int64) string { return n(v) }
