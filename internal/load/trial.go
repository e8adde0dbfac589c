package load

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/metrics"
	kbsettings "github.com/kbench/kbench/internal/settings"
)

// Producers is a set of producer clients opened once and driven through trials: each trial
// sends one Schedule (offered rate, length, warm-up) and returns its own accounting. The rate
// changes only between trials, never during one, so every trial measures one offered rate
// from its start to its end (a controller that moves the rate while measuring mixes the
// latencies of several). A capacity search runs many trials on the same clients; Produce is
// the one-trial wrapper.
//
// Trials run one at a time: Trial must not be called again before it returns.
type Producers struct {
	cfg      ProducerConfig // defaults filled; its schedule fields are unused
	settings *kafka.ClientSettings
	pl       *payloads
	keys     *keySpace
	largest  int
	clients  []*kgo.Client
}

// OpenProducers checks cfg (its schedule fields are ignored: each trial gives its own) and
// opens its cfg.Producers clients. The caller must Close them.
func OpenProducers(cfg ProducerConfig) (*Producers, error) {
	p := &Producers{cfg: cfg.withDefaults()}
	cfg = p.cfg
	if err := cfg.validateClients(); err != nil {
		return nil, fmt.Errorf("invalid producer configuration: %w", err)
	}
	props := map[string]string{}
	for k, v := range cfg.Properties {
		props[k] = v
	}
	if cfg.TransactionalID != "" {
		props["transactional.id"] = cfg.TransactionalID
	}
	settings, seeds, err := clientSettings(kbsettings.Producer, props, cfg.Bootstrap)
	if err != nil {
		return nil, err
	}
	// Before any payload is allocated: every record must fit a request and the buffer, and
	// batch.size must mean to franz-go what it means to the Java client.
	smallest, largest := recordSizes(&cfg)
	if err := kbsettings.CheckRecords(settings.Resolved, int64(smallest), int64(largest)); err != nil {
		return nil, fmt.Errorf("invalid producer configuration: %w", err)
	}
	p.settings, p.largest = settings, largest
	switch {
	case cfg.Source != nil:
		p.pl = &payloads{} // the source makes the values
	case cfg.Payloads != nil:
		p.pl = &payloads{list: cfg.Payloads}
	case cfg.PayloadMonotonic:
		p.pl = &payloads{monotonic: true}
	default:
		p.pl = newRandomPayloads(cfg.RecordSize, cfg.Seed)
	}
	if p.keys, err = newKeySpace(cfg.Keys, cfg.KeySpace); err != nil {
		return nil, err
	}
	for i := range cfg.Producers {
		cl, err := kgo.NewClient(p.clientOpts(seeds, i)...)
		if err != nil {
			p.Close()
			return nil, fmt.Errorf("unable to create producer client: %w", err)
		}
		p.clients = append(p.clients, cl)
	}
	if cfg.TransactionalID != "" {
		if err := initTransactions(p.clients); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

// clientOpts are client i's options: our defaults first, each with its reason, then the
// user's settings, which override them (options apply in order).
func (p *Producers) clientOpts(seeds []string, i int) []kgo.Opt {
	opts := []kgo.Opt{
		kgo.SeedBrokers(seeds...),
		// Kafka's tool is a Java client named perf-producer-client; ours are numbered.
		kgo.ClientID(fmt.Sprintf("kbench-producer-%d", i)),
		// The Java producer asks the broker to auto-create a missing topic
		// (allow.auto.create.topics=true); kgo does not unless told.
		kgo.AllowAutoTopicCreation(),
	}
	opts = append(opts, p.settings.Opts...) // user overrides come after our defaults
	if p.cfg.Source != nil {
		// A record source sets each record's partition (verify knows where every record
		// must land), which only the manual partitioner honours.
		opts = append(opts, kgo.RecordPartitioner(kgo.ManualPartitioner()))
	}
	if len(p.cfg.Partitions) > 0 && p.cfg.Source == nil {
		opts = append(opts, kgo.RecordPartitioner(onlyPartitions(p.cfg.Partitions)))
	}
	if need := int32(p.largest + kbsettings.RecordBatchOverhead); need > batchSize(p.settings) {
		// Java's batch.size is a soft target: a record larger than it goes out alone in its
		// own batch. kgo's batch cap is hard and would fail such records as too large, so
		// the cap is raised to one record; batches still close at one record, as Java's do.
		opts = append(opts, kgo.ProducerBatchMaxBytes(need))
	}
	if p.cfg.TransactionalID != "" && p.cfg.Producers > 1 {
		opts = append(opts, kgo.TransactionalID(fmt.Sprintf("%s-%d", p.cfg.TransactionalID, i)))
	}
	return opts
}

// Close closes the clients. Records of a trial are finished when Trial returns, so Close
// loses nothing.
func (p *Producers) Close() {
	for _, cl := range p.clients {
		cl.Close()
	}
	p.clients = nil
}

// trial is the state of one Trial: fresh workers over the open clients, so nothing counted
// in one trial leaks into the next.
type trial struct {
	cfg        ProducerConfig
	workers    []*producerWorker
	start      time.Time
	cpu0       CPUUsage
	inWarmup   atomic.Bool
	steadyOnce sync.Once
	steadyAt   time.Time
	steadyCPU0 CPUUsage
	// shards are the workers' latency recorders; dueM and sendM merge them: ticks drain
	// them, the result takes their cumulative histograms.
	shards      []*latencyRecorders
	dueM, sendM *metrics.Merger
	// txns tallies the transactions; nil when the producers are not transactional.
	txns *transactions
}

// Trial sends s on the open clients and returns its accounting: every record handed over
// in it is acknowledged, failed or unsent when it returns. tick, if not nil, is called every
// TickInterval from one goroutine. Per-record failures are counted in the result; the error
// is for a trial that could not run, or a transaction that could not end. Cancelling ctx
// stops sending and finishes with what was sent (Interrupted is then true).
func (p *Producers) Trial(ctx context.Context, s Schedule, tick func(Tick)) (*ProduceResult, error) {
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("invalid producer schedule: %w", err)
	}
	if len(p.clients) == 0 {
		return nil, fmt.Errorf("producers are closed")
	}
	t := &trial{cfg: p.cfg, cpu0: ProcessCPU(), start: time.Now(), shards: latencyShards(len(p.clients))}
	s.apply(&t.cfg)
	if t.cfg.TransactionalID != "" {
		t.txns = newTransactions()
	}
	for i, cl := range p.clients {
		w := &producerWorker{
			id: i, cl: cl, start: t.start, errs: map[string]int64{},
			warmupEnd: t.cfg.Warmup, end: t.cfg.Duration, paced: t.cfg.Rate > 0,
			latencyRecorders: t.shards[i%len(t.shards)],
			steadyBegins:     t.steadyBegins,
			source:           t.cfg.Source,
			txns:             t.txns,
		}
		w.firstSteady.Store(-1)
		w.slots.New = func() any { return &slot{Context: context.Background()} }
		t.workers = append(t.workers, w)
	}
	t.dueM = shardMergers(t.shards, func(r *latencyRecorders) *metrics.Recorder { return r.due })
	t.sendM = shardMergers(t.shards, func(r *latencyRecorders) *metrics.Recorder { return r.send })
	sendErr := t.send(ctx, p, tick)
	res := t.collect(ctx, p.settings)
	return res, sendErr
}

// steadyBegins records the steady state's start and the CPU used until then, so the steady
// state's own cost is known however short it is.
func (t *trial) steadyBegins() {
	t.steadyOnce.Do(func() { t.steadyAt, t.steadyCPU0 = time.Now(), ProcessCPU() })
}

// send runs the workers until the schedule ends (or ctx does) and every record they handed
// over is finished, with ticks meanwhile; it returns the first worker's error.
func (t *trial) send(ctx context.Context, p *Producers, tick func(Tick)) error {
	cfg := &t.cfg
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// recCtx is given to every record: kgo fails a record whose context ended before it was
	// sent, and unblocks a Produce waiting for buffer space. It ends StopGrace after ctx (a
	// cancelled run) or, for a timed run, when its drain stalls (see watchDrain).
	recCtx, stopRecs := graceContext(ctx, StopGrace, time.Time{})
	defer stopRecs()
	if cfg.Duration > 0 {
		var c2 context.CancelFunc
		runCtx, c2 = context.WithDeadline(runCtx, t.start.Add(cfg.Duration))
		defer c2()
		defer t.watchDrain(stopRecs)()
	}

	t.inWarmup.Store(cfg.WarmupRecords > 0 || cfg.Warmup > 0)
	if cfg.Warmup > 0 {
		endWarmup := time.AfterFunc(time.Until(t.start.Add(cfg.Warmup)), func() {
			t.inWarmup.Store(false)
			t.steadyBegins()
		})
		defer endWarmup.Stop()
	}
	var sendErr error
	var sendErrOnce sync.Once
	var wg sync.WaitGroup
	for i, w := range t.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.run(runCtx, recCtx, cfg, i, p.pl, p.keys, &t.inWarmup); err != nil {
				sendErrOnce.Do(func() { sendErr = err })
				cancel()
			}
		}()
	}
	tickDone := make(chan struct{})
	stopTicks := make(chan struct{})
	go func() {
		defer close(tickDone)
		producerTicks(t.workers, t.dueM, t.sendM, cfg.TickInterval, t.start, &t.inWarmup, stopTicks, tick)
	}()
	wg.Wait()
	close(stopTicks)
	<-tickDone
	for _, w := range t.workers {
		// run finished or aborted every record: only their promises may still be running.
		w.active.Wait()
	}
	return sendErr
}

// drainPoll is how often a timed run's drain checks for progress.
const drainPoll = 100 * time.Millisecond

// maxDrainIdles caps a timed run's whole drain at this many DrainTimeouts.
const maxDrainIdles = 6

// MaxDrain is the longest a timed trial waits past its end for its records, given its
// DrainTimeout.
func MaxDrain(drainTimeout time.Duration) time.Duration { return maxDrainIdles * drainTimeout }

// watchDrain ends the records' wait (stop) once a timed run is past its end and either no
// acknowledgement has arrived for DrainTimeout or the drain has lasted maxDrainIdles of them.
// An unthrottled producer ends with a full buffer.memory, which a slow but healthy cluster
// takes longer than any fixed bound to acknowledge; a stall is the absence of
// acknowledgements, not a long queue. It returns the function that ends the watch.
func (t *trial) watchDrain(stop func()) (end func()) {
	done := make(chan struct{})
	go func() {
		runEnd := t.start.Add(t.cfg.Duration)
		hardEnd := runEnd.Add(maxDrainIdles * t.cfg.DrainTimeout)
		tk := time.NewTicker(drainPoll)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-tk.C:
				if now.Before(runEnd) {
					continue
				}
				last := runEnd
				for _, w := range t.workers {
					last = maxTime(last, t.start.Add(time.Duration(w.lastAck.Load())))
				}
				if now.Sub(last) >= t.cfg.DrainTimeout || now.After(hardEnd) {
					stop()
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

func maxTime(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
