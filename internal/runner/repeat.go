package runner

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/kbench/kbench/internal/agent"
	"github.com/kbench/kbench/internal/claim"
	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/report"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
)

// sampleInterval is the broker sampler's period: half a second, so that a 5 s window (the
// quick study's) holds the 10 samples its CPU and disk figures need (study.MinBrokerSamples).
const sampleInterval = study.BrokerSampleInterval

// minRateShare is the share of a target rate a repeat must reach to be valid; the report
// reads the same constant.
const minRateShare = results.MinRateShare

// runner carries out one run's scenarios on one target.
type runner struct {
	opts   Options
	plan   *study.Plan
	target *target
	dir    string
	prefix string
	// owned is what this run created on the cluster, topics and consumer groups, and the
	// existing groups the user let it share (kafka.Owned: the one rule on both).
	owned    *kafka.Owned
	progress *progress
	// coord runs the producers on remote agents (Options.Agents); nil runs them here.
	coord *agent.Coordinator
}

// runAll runs the repeats not yet in the run directory, in the run's interleaved order.
// With several cluster shapes it runs group by group (PlanOrder): the cluster started
// by Run serves the first group with repeats left; each later one gets a new cluster,
// started and warmed after the previous repeat's cool-down. done lists each scenario's
// repeats finished before this run (a resume).
func (r *runner) runAll(ctx context.Context, out *Outcome, run *results.Run, done [][]int) error {
	r.progress = newProgress(r.opts.Progress, r.opts.Terminal, r.plan)
	r.progress.obs = r.opts.Observe
	groups := r.plan.ShapeGroups()
	current := -1 // the group whose cluster is running; -1 until the first repeat
	steps := PlanOrder(r.plan, run.Order.Seed)
	pending := map[int]bool{} // groups with a repeat left
	for _, step := range steps {
		if !slices.Contains(done[step.Index], step.Repeat) {
			pending[step.Group] = true
		}
	}
	r.progress.setClustersLeft(max(len(pending)-1, 0))
	started, roundStart := time.Now(), time.Now()
	for i, step := range steps {
		sc, n := r.plan.Scenarios[step.Index], step.Repeat
		if slices.Contains(done[step.Index], n) {
			r.progress.skip()
			continue
		}
		if step.Group != current {
			if current >= 0 {
				fmt.Fprintf(r.opts.Log, "cluster group %d of %d: %s\n", step.Group+1, len(groups), groups[step.Group].Shape)
				if err := r.restart(ctx, groups[step.Group].Shape); err != nil {
					return err
				}
				r.progress.clusterStarted()
			}
			current = step.Group
			if len(groups) > 1 {
				r.opts.Observe.ClusterGroup(fmt.Sprintf("%d of %d: %s", current+1, len(groups), groups[current].Shape))
			}
			if err := r.recordShape(run, groups[current]); err != nil {
				return err
			}
		}
		r.progress.begin(step.Index, sc, n)
		rep := r.runRepeat(ctx, step.Index, sc, n)
		if ctx.Err() != nil {
			r.progress.end(nil)
			return ctx.Err()
		}
		if err := results.WriteRepeat(r.dir, rep); err != nil {
			return err
		}
		out.Repeats++
		if !rep.Validity.Valid {
			out.Invalid++
			if out.Reasons == nil {
				out.Reasons = map[string]int{}
			}
			// The repeat's topic (and the group named after it) would make every
			// repeat's reason distinct.
			for _, reason := range rep.Validity.Reasons {
				out.Reasons[strings.ReplaceAll(reason, rep.Topic.Name, "<topic>")]++
			}
		}
		r.progress.end(rep)
		if err := sleep(ctx, r.plan.Cooldown); err != nil {
			return err
		}
		roundEnds := i == len(steps)-1 || steps[i+1].Repeat != step.Repeat
		if roundEnds && r.plan.MinRepeats > 0 {
			// The next round is assumed to take as long as this one.
			budgetLeft := r.opts.MaxDuration == 0 || time.Since(started)+time.Since(roundStart) <= r.opts.MaxDuration
			stop, err := r.look(run, step.Repeat, budgetLeft)
			if err != nil || stop {
				return err
			}
			roundStart = time.Now()
		}
	}
	return nil
}

// look is a run with a range of repeats looking at its hypotheses after round n: from
// MinRepeats on, when every hypothesis is confirmed or refuted at the look's level, no
// round more runs. run.json records the rounds and why they stopped.
func (r *runner) look(run *results.Run, n int, budgetLeft bool) (stop bool, err error) {
	lk := run.Looks
	lk.Rounds = n
	switch {
	case n >= lk.MaxRepeats:
		lk.Stopped = fmt.Sprintf("ran the most repeats, %d", lk.MaxRepeats)
	case n >= lk.MinRepeats && !budgetLeft:
		lk.Stopped = fmt.Sprintf("--max-duration %v would end during round %d", r.opts.MaxDuration, n+1)
		stop = true
	case n >= lk.MinRepeats:
		rd, err := results.Read(r.dir)
		if err != nil {
			return false, err
		}
		var open []string
		for _, v := range report.Verdicts(rd, lk.Alpha) {
			if v.Outcome != string(claim.Confirmed) && v.Outcome != string(claim.Refuted) {
				open = append(open, v.Hypothesis)
			}
		}
		if len(open) == 0 {
			lk.Stopped = fmt.Sprintf("every hypothesis decided after round %d", n)
			stop = true
		} else {
			fmt.Fprintf(r.opts.Log, "round %d: %d of %d hypotheses undecided at p <= %s; another round\n",
				n, len(open), len(run.Hypotheses), strconv.FormatFloat(lk.Alpha, 'g', 3, 64))
		}
	}
	return stop, results.WriteRun(r.dir, run)
}

// runRepeat runs one repeat on a fresh topic. Failures become an invalid repeat with the
// reason, so one bad scenario does not end a study; only cancellation stops it.
func (r *runner) runRepeat(ctx context.Context, index int, sc study.Scenario, n int) *results.Repeat {
	topic := topicName(r.prefix, index, sc.ID, n)
	rep := &results.Repeat{
		Version: results.FormatVersion, Scenario: sc.ID, Repeat: n, Started: time.Now().UTC(),
		Topic:    results.Topic{Name: topic, Partitions: sc.Topic.Partitions, Replicas: sc.Topic.Replicas, Configs: sc.Topic.Configs},
		Workload: r.workload(sc),
	}
	invalid := func(err error) *results.Repeat {
		rep.Finished = time.Now().UTC()
		rep.Validity = results.Validity{Valid: false, Reasons: []string{err.Error()}}
		return rep
	}
	group, ownGroup := "", ""
	switch {
	case sc.Consumers.Share:
		group = shareGroup(topic, n) // the share consumers create and delete it
	case sc.Consumers.Count > 0:
		group = r.consumerGroup(sc, topic, n)
		ownGroup = group
	}
	// Deleted even when the creation fails: a cancelled request may still have created it.
	defer r.release(ctx, topic, ownGroup)
	if err := r.target.setLinks(sc); err != nil {
		return invalid(err)
	}
	if err := r.createTopic(ctx, topic, sc.Topic.Partitions, sc.Topic.Replicas, sc.Topic.Configs); err != nil {
		return invalid(err)
	}
	filled := int64(0)
	if sc.Kind() == "consume" {
		var err error
		if filled, err = r.fill(ctx, topic, sc); err != nil {
			return invalid(err)
		}
	}
	m, err := r.measure(ctx, topic, group, sc, filled)
	if err != nil {
		return invalid(err)
	}
	m.fill(rep, filled)
	if err := r.recordRebalance(rep, sc, m); err != nil {
		return invalid(err)
	}
	if reasons := m.fillConsumerRole(rep, sc, m.brokerStart().Sub(m.window.start).Seconds()); len(reasons) > 0 {
		rep.Validity.Valid = false
		rep.Validity.Reasons = append(rep.Validity.Reasons, reasons...)
	}
	m.fillTransactions(rep, sc)
	if m.agents != nil {
		if rep.Agents, err = r.recordAgents(sc, n, m.agents); err != nil {
			return invalid(err)
		}
	}
	if sc.Capacity.Enabled() {
		rep.Capacity = r.searchCapacity(ctx, topic, sc)
	}
	if sc.Verify.Enabled() && n == 1 {
		// Once per scenario: a claim of durability holds or not; repeats measure speed.
		rep.Durability = r.checkDurability(ctx, index, sc)
	}
	rep.Finished = time.Now().UTC()
	return rep
}

// workload records what the scenario asked for, enough to write the equivalent commands.
func (r *runner) workload(sc study.Scenario) results.Workload {
	w := results.Workload{Kind: sc.Kind(), RecordSize: sc.Producers.RecordSize, NumRecords: sc.Producers.Records,
		Duration: sc.Producers.Duration.Seconds(), Warmup: r.plan.Warmup.Seconds(), Throughput: -1,
		ProducerProps: results.Redact(sc.Producers.Properties), Transaction: transactionWorkload(sc)}
	if rate := r.rate(sc); rate > 0 {
		w.Throughput = rate
	}
	if sc.Producers.Count > 0 {
		w.Producers = sc.Producers.Count
	}
	if sc.Consumers.Count > 0 {
		w.Consumers, w.FetchSize, w.Group = sc.Consumers.Count, sc.Consumers.FetchSize, sc.Consumers.Group
		w.ConsumerProps = results.Redact(sc.Consumers.Properties)
	}
	return w
}

// rate is the scenario's paced rate (its target or throttle) after --max-rate; 0 is unlimited.
func (r *runner) rate(sc study.Scenario) float64 { return cappedRate(sc, r.opts.MaxRate) }

// cappedRate is sc's paced rate with --max-rate applied (which also caps an unlimited one).
func cappedRate(sc study.Scenario, maxRate float64) float64 {
	rate := float64(sc.Producers.PacedRate())
	if maxRate > 0 && (rate == 0 || rate > maxRate) {
		rate = maxRate
	}
	return rate
}

// endpoint is the listener a scenario's clients connect to.
func (r *runner) endpoint(sc study.Scenario) endpoint {
	e, err := r.target.endpointFor(sc.Listener)
	if err != nil {
		// Unreachable: Run checks every scenario's listener before the first repeat.
		return r.target.endpoint
	}
	return e
}

// clientProps merges a listener's connection properties under the scenario's own.
func clientProps(e endpoint, scenario map[string]string) map[string]string {
	props := maps.Clone(e.props)
	if props == nil {
		props = map[string]string{}
	}
	maps.Copy(props, scenario)
	return props
}

// producerConfig is the load of a scenario's producers. With a record count, the warm-up is
// a share of the records (the load cannot stop at a duration and then count on).
func (r *runner) producerConfig(topic string, sc study.Scenario, e2e bool) load.ProducerConfig {
	p, e := sc.Producers, r.endpoint(sc)
	cfg := load.ProducerConfig{Bootstrap: e.bootstrap, Topic: topic, Properties: clientProps(e, p.Properties),
		Producers: max(p.Count, 1), RecordSize: p.RecordSize, Records: p.Records, Rate: r.rate(sc),
		Keys: load.KeyDistribution(p.Keys), TimestampHeader: e2e}
	warm := r.plan.Warmup
	switch {
	case p.Records > 0:
		cfg.WarmupRecords = study.WarmupRecords(p.Records, cfg.Rate, warm)
	case p.Records == 0:
		cfg.Duration = warm + p.Duration
		cfg.Warmup = warm
	}
	if cfg.Keys == "" {
		cfg.Keys = load.KeysNone
	}
	applyTransaction(&cfg, sc)
	return cfg
}

// fill writes the records a consume-only scenario reads, unmeasured, as fast as --max-rate
// allows (it is load on the cluster all the same).
func (r *runner) fill(ctx context.Context, topic string, sc study.Scenario) (int64, error) {
	res, err := load.Produce(ctx, r.fillConfig(topic, sc), nil)
	if err != nil {
		return 0, fmt.Errorf("fill topic %s: %w", topic, err)
	}
	if res.Total.Failed > 0 {
		return 0, fmt.Errorf("fill topic %s: %d records failed", topic, res.Total.Failed)
	}
	return res.Total.Acked, nil
}

// fillConfig is the fill's load: one producer, every record acknowledged by all replicas,
// no warm-up, at --max-rate (unlimited without it).
func (r *runner) fillConfig(topic string, sc study.Scenario) load.ProducerConfig {
	cfg := r.producerConfig(topic, sc, true)
	cfg.Producers, cfg.Rate, cfg.WarmupRecords, cfg.Warmup, cfg.Duration = 1, r.opts.MaxRate, 0, 0, 0
	cfg.Records = fillRecords(sc)
	cfg.Properties["acks"] = "all"
	return cfg
}

// fillRecords is how many records the fill of a consume-only scenario writes.
func fillRecords(sc study.Scenario) int64 {
	if sc.Producers.Records > 0 {
		return sc.Producers.Records
	}
	return sc.Consumers.Records
}

// measurement is everything one measured window produced.
type measurement struct {
	prod    *load.ProduceResult
	cons    *load.ConsumeResult
	prodErr error
	consErr error
	series  metrics.Series
	window  *window
	rate    float64
	// mustReach is set when the rate is a target (study rate), not a throttle: falling
	// short of it makes the repeat invalid.
	mustReach   bool
	consumeOnly bool
	// producerShare is the producers' share of the client CPU, measured (split) by a CPU
	// profile when producers and consumers ran at once.
	producerShare float64
	split         bool
	// agents is the producers' run on remote agents, when they ran there.
	agents *agent.Outcome
	// catchUp times a catch-up read's drain (consumers.backlog); share is the share
	// consumers' run (consumers.share_group), whose common figures are also in cons.
	catchUp *catchUp
	share   *load.ShareResult
	// hidden are the acknowledged records the consumers cannot read (hiddenRecords).
	hidden int64
}

// measure runs the scenario's load on topic, which holds filled records already (a
// consume-only scenario's), and collects the window's client and broker metrics.
func (r *runner) measure(ctx context.Context, topic, group string, sc study.Scenario, filled int64) (*measurement, error) {
	sampler, err := metrics.NewSampler(metrics.SamplerConfig{Proc: procMount, Cgroup: cgroupFS, Brokers: r.target.sampled(), Interval: sampleInterval})
	if err != nil {
		return nil, fmt.Errorf("broker metrics: %w", err)
	}
	m := &measurement{window: newWindow(), rate: r.rate(sc), mustReach: sc.Producers.Rate > 0, consumeOnly: sc.Kind() == "consume"}
	if sc.Consumers.Backlog > 0 {
		m.catchUp = newCatchUp(sc.Consumers.Backlog)
	}
	if e, err := r.target.endpointFor(sc.Listener); err == nil {
		m.window.proxyPID = e.proxyPID
	}
	sampler.Start(ctx)
	var roles *roleProfile
	if sc.Producers.Count > 0 && sc.Consumers.Count > 0 && r.coord == nil {
		// Producers and consumers share this process: a CPU profile splits its CPU.
		roles = startRoleProfile()
		defer roles.stop()
	}
	if m.consumeOnly {
		m.window.begin(time.Now())
	}
	var wg sync.WaitGroup
	producing := make(chan struct{})
	if sc.Producers.Count > 0 {
		cfg := r.producerConfig(topic, sc, sc.Consumers.Count > 0)
		if cfg.Warmup == 0 && cfg.WarmupRecords == 0 {
			m.window.begin(time.Now())
		}
		pctx := ctx
		if m.catchUp != nil {
			// A catch-up's producers stop a little after the consumers caught up.
			var stopProducers context.CancelFunc
			pctx, stopProducers = context.WithCancel(ctx)
			defer stopProducers()
			go m.catchUp.stopProducers(ctx, producing, stopProducers)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(producing)
			withRole(pctx, roleProducer, func(ctx context.Context) {
				m.prod, m.agents, m.prodErr = r.produce(ctx, sc, cfg, func(t load.Tick) {
					m.window.produceTick(t)
					r.progress.produceTick(t, sampler)
					if m.catchUp != nil {
						m.catchUp.produceTick(t, time.Now())
					}
				})
			})
			if m.catchUp != nil {
				m.catchUp.producersDone(time.Now())
			}
		}()
	} else {
		close(producing)
	}
	// On agents, a scenario's consumers run there, beside its producers; a consume-only
	// scenario's run here.
	if sc.Consumers.Count > 0 && (r.coord == nil || m.consumeOnly) {
		cfg := r.consumerConfig(topic, group, sc)
		want := func() int64 { return filled }
		if !m.consumeOnly {
			// Read until the consumers caught up with the producers.
			cfg.Records, cfg.Duration = 0, 0
			want = func() int64 {
				if m.prod == nil {
					return 0
				}
				return m.prod.Total.Acked - hiddenRecords(m.prod, sc)
			}
		}
		if m.consumeOnly && sc.Consumers.Share {
			// Ticks count deliveries, redeliveries included: share consumers end themselves
			// once every record came (cfg.Records); the watch only stops them when idle.
			want = func() int64 { return math.MaxInt64 }
		}
		if m.catchUp != nil {
			cfg.TickInterval = catchUpTick
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m.catchUp != nil && !awaitBacklog(ctx, m.catchUp, producing) {
				return
			}
			withRole(ctx, roleConsumer, func(cctx context.Context) {
				var share *load.ShareResult
				run := load.StartConsumers(cctx, func(ctx context.Context, tick func(load.ConsumeTick)) (*load.ConsumeResult, error) {
					res, sh, err := r.consume(ctx, sc, cfg, tick)
					share = sh
					return res, err
				}, func(t load.ConsumeTick) {
					if m.catchUp != nil {
						m.catchUp.consumeTick(t, time.Now())
					}
					m.window.consumeTick(t)
					if m.consumeOnly {
						r.progress.consumeTick(t, sampler)
					} else {
						r.opts.Observe.ConsumeTick(t, nil) // the page's lag and end-to-end latency
					}
				})
				// Once the producers finished, read until caught up with want (their
				// figures are final by then) or idle.
				select {
				case <-producing:
					r.opts.Observe.Phase("drain")
					m.cons, m.consErr = run.Drain(ctx, want, drainIdle)
				case <-run.Done():
					m.cons, m.consErr = run.Wait()
				case <-ctx.Done():
					run.Stop()
					m.cons, m.consErr = run.Wait()
				}
				m.share = share
			})
		}()
	}
	wg.Wait()
	m.hidden = hiddenRecords(m.prod, sc)
	if m.agents != nil && m.agents.MergedConsume != nil {
		m.cons = m.agents.MergedConsume
	}
	m.producerShare, m.split = roles.stop()
	end := time.Now()
	m.window.finish(end)
	awaitRows(ctx, sampler, end)
	m.series = sampler.Stop()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if m.prodErr != nil && !errors.Is(m.prodErr, context.Canceled) {
		return nil, fmt.Errorf("produce: %w", m.prodErr)
	}
	if m.consErr != nil && !errors.Is(m.consErr, context.Canceled) {
		return nil, fmt.Errorf("consume: %w", m.consErr)
	}
	return m, nil
}

// consumerConfig is the load of a scenario's consumers on topic, in group.
func (r *runner) consumerConfig(topic, group string, sc study.Scenario) load.ConsumerConfig {
	c, e := sc.Consumers, r.endpoint(sc)
	props := clientProps(e, c.Properties)
	if c.FetchSize > 0 {
		props["max.partition.fetch.bytes"] = fmt.Sprint(c.FetchSize)
	}
	// The consumers' own idle timeout is a safety net only: drain stops them.
	return load.ConsumerConfig{Bootstrap: e.bootstrap, Topics: []string{topic}, Group: group,
		Properties: props, Consumers: c.Count, Records: c.Records, Duration: c.Duration, Timeout: consumeJoinTimeout,
		Events: sc.Consumers.Events, EventsAfter: r.plan.Warmup}
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}
