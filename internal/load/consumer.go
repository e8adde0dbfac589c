package load

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/rebalance"
	kbsettings "github.com/kbench/kbench/internal/settings"
)

// ConsumerConfig describes one consume run.
type ConsumerConfig struct {
	// Bootstrap is the comma-separated broker list; it overrides bootstrap.servers.
	Bootstrap string
	// Topics to consume, or Include, a regular expression of topic names (--include).
	Topics  []string
	Include string
	// Group is the consumer group, overriding the default "perf-consumer-<random>" (as
	// Kafka's tool names it).
	Group string
	// Properties are Java consumer properties, overriding the Java client's defaults.
	Properties map[string]string
	// Consumers is the number of clients in the group, overriding the default 1.
	Consumers int
	// Records stops the run once this many were consumed in total; 0 means no limit.
	Records int64
	// Duration bounds the run; 0 means no bound.
	Duration time.Duration
	// Timeout ends the run when no record arrived for this long, overriding the default
	// 10 s of Kafka's tool.
	Timeout time.Duration
	// FromLatest starts a group without committed offsets at the end of the log rather
	// than at the start (Kafka's tool starts at the earliest).
	FromLatest bool
	// TickInterval is the period of progress ticks, overriding the default 1 s.
	TickInterval time.Duration
	// Partitions, when set, assigns these partitions of the one topic in Topics to the
	// consumers (split between them, read from the start) instead of joining Group: an
	// agent reads exactly the partitions its own producers write. Consumers is then at most
	// the number of partitions.
	Partitions []int32
	// Events change the group during the run, their times counted from EventsAfter into it
	// (a study's measured window opens after its warm-up); the run then records its
	// rebalance.Log (ConsumeResult.Rebalance). They need one topic and a group.
	Events      []rebalance.Scheduled
	EventsAfter time.Duration
}

// DefaultConsumeTimeout is Kafka's consumer perf tool's --timeout default.
const DefaultConsumeTimeout = 10 * time.Second

// ConsumeTick is the progress of a consume run.
type ConsumeTick struct {
	Elapsed, Interval time.Duration
	// Records and Bytes are counted in this interval; TotalRecords and TotalBytes so far.
	Records, Bytes, TotalRecords, TotalBytes int64
	RecordsPerSec, MiBPerSec                 float64
	// TotalRereads are the records of TotalRecords read a second time (a group's classic
	// consumers only): TotalRecords - TotalRereads distinct records were read so far.
	TotalRereads int64
	// Rebalance is the time spent joining the group in this interval.
	Rebalance time.Duration
	// EndToEnd summarises the interval's end-to-end latencies.
	EndToEnd metrics.LatencySummary
}

// ConsumeResult is the outcome of Consume.
type ConsumeResult struct {
	Group     string `json:"group"`
	Consumers int    `json:"consumers"`
	// Records and Bytes (key plus value) consumed, re-reads included (as Kafka's tool
	// counts them).
	Records int64 `json:"records"`
	Bytes   int64 `json:"bytes"`
	// Rereads are records read a second time (a rebalance resumed a partition at its last
	// committed offset): Records - Rereads distinct records were read.
	Rereads int64 `json:"rereads,omitempty"`
	// Start and End bound the run (wall clock, for Kafka's date-formatted lines).
	Start          time.Time `json:"start"`
	End            time.Time `json:"end"`
	ElapsedSeconds float64   `json:"elapsed_seconds"`
	RecordsPerSec  float64   `json:"records_per_sec"`
	MiBPerSec      float64   `json:"mib_per_sec"`
	// RebalanceSeconds is the time spent joining the group (the longest of the consumers);
	// FetchSeconds the rest, with the rates over it, as Kafka's tool reports them.
	RebalanceSeconds   float64 `json:"rebalance_seconds"`
	FetchSeconds       float64 `json:"fetch_seconds"`
	FetchRecordsPerSec float64 `json:"fetch_records_per_sec"`
	FetchMiBPerSec     float64 `json:"fetch_mib_per_sec"`
	// EndToEnd is the latency from produce to consume: from the kbench-ts header when the
	// records carry it (microseconds), else from the record's create timestamp
	// (milliseconds). EndToEndSource says which ("header", "timestamp", or "" for none).
	EndToEnd          metrics.LatencySummary `json:"end_to_end_latency"`
	EndToEndHistogram *metrics.Histogram     `json:"end_to_end_histogram"`
	EndToEndSource    string                 `json:"end_to_end_source,omitempty"`
	// TimedOut is true when the run ended because no record came for Timeout.
	TimedOut bool `json:"timed_out,omitempty"`
	// Errors counts fetch errors by text.
	Errors      map[string]int64  `json:"errors,omitempty"`
	CPU         ClientCPU         `json:"client_cpu"`
	Settings    map[string]string `json:"settings"`
	Warnings    []string          `json:"warnings,omitempty"`
	Interrupted bool              `json:"interrupted,omitempty"`
	// Rebalance is the log of a run with Events (large: kept out of the result's JSON).
	Rebalance *rebalance.Log `json:"-"`
}

func (c *ConsumerConfig) withDefaults() ConsumerConfig {
	d := *c
	if d.Consumers == 0 {
		d.Consumers = 1
	}
	if d.Group == "" {
		d.Group = "perf-consumer-" + strconv.Itoa(rand.IntN(100_000))
	}
	if d.Timeout == 0 {
		d.Timeout = DefaultConsumeTimeout
	}
	if d.TickInterval == 0 {
		d.TickInterval = DefaultTickInterval
	}
	if len(d.Partitions) > 0 {
		d.Consumers = min(d.Consumers, len(d.Partitions))
	}
	return d
}

func (c *ConsumerConfig) validate() error {
	var errs []error
	if (len(c.Topics) == 0) == (c.Include == "") {
		errs = append(errs, errors.New("exactly one of topic or include is required"))
	}
	if c.Include != "" {
		if _, err := regexp.Compile(c.Include); err != nil {
			errs = append(errs, fmt.Errorf("include %q is not a regular expression: %w", c.Include, err))
		}
	}
	if c.Consumers < 1 {
		errs = append(errs, fmt.Errorf("consumers %d is less than 1", c.Consumers))
	}
	if c.Records < 0 {
		errs = append(errs, fmt.Errorf("records %d is negative", c.Records))
	}
	if len(c.Partitions) > 0 && len(c.Topics) != 1 {
		errs = append(errs, fmt.Errorf("partitions are assigned in one topic, not %d", len(c.Topics)))
	}
	if c.Timeout < 0 {
		errs = append(errs, fmt.Errorf("timeout %v is negative", c.Timeout))
	}
	if len(c.Events) > 0 && (len(c.Topics) != 1 || len(c.Partitions) > 0) {
		errs = append(errs, errors.New("membership events need one topic read by a group"))
	}
	return errors.Join(errs...)
}

type consumerWorker struct {
	cl              *kgo.Client
	records, bytes  atomic.Int64
	rereads         atomic.Int64
	seen            *rereads     // shared by the run's workers
	joined          atomic.Int64 // ns spent joining, cumulative
	e2e             *metrics.Recorder
	joinMu          sync.Mutex
	joinStart       time.Time
	assigned        int
	headers, stamps atomic.Int64
	errMu           sync.Mutex
	errs            map[string]int64
	commitOnRevoke  bool
	maxPoll         int // max.poll.records: Kafka's tool counts each poll whole
	memberState
}

func (w *consumerWorker) onAssigned(_ context.Context, _ *kgo.Client, m map[string][]int32) {
	w.joinMu.Lock()
	defer w.joinMu.Unlock()
	if w.assigned == 0 {
		w.joined.Add(int64(time.Since(w.joinStart)))
	}
	for _, ps := range m {
		w.assigned += len(ps)
	}
	if w.log != nil {
		w.log.change(w.member, rebalance.Assigned, m)
	}
}

// onRevoked commits what was polled before giving partitions up, when auto-commit is on, as
// kgo's own default revoke and the Java consumer do: setting a revoke callback replaces
// kgo's, and without the commit every rebalance would re-deliver up to a commit interval of
// records that a Java consumer would not.
func (w *consumerWorker) onRevoked(ctx context.Context, cl *kgo.Client, m map[string][]int32) {
	if w.commitOnRevoke && len(m) > 0 {
		_ = cl.CommitUncommittedOffsets(ctx) // a failed commit shows as re-deliveries
	}
	w.onLost(ctx, cl, m)
}

// onLost gives partitions up without committing (the group has moved on without us).
func (w *consumerWorker) onLost(_ context.Context, _ *kgo.Client, m map[string][]int32) {
	w.joinMu.Lock()
	defer w.joinMu.Unlock()
	for _, ps := range m {
		w.assigned -= len(ps)
	}
	if w.log != nil {
		w.log.change(w.member, rebalance.Revoked, m)
	}
	if w.assigned <= 0 {
		w.assigned = 0
		w.joinStart = time.Now()
	}
}

// Consume runs cfg and returns its result; tick, if not nil, is called every TickInterval.
// It ends when Records were consumed, Duration passed, no record came for Timeout, or ctx is
// cancelled.
func Consume(ctx context.Context, cfg ConsumerConfig, tick func(ConsumeTick)) (*ConsumeResult, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("invalid consumer configuration: %w", err)
	}
	props := map[string]string{
		// Kafka's consumer perf tool reads from the earliest offset unless --from-latest.
		"auto.offset.reset": "earliest",
	}
	if cfg.FromLatest {
		props["auto.offset.reset"] = "latest"
	}
	for k, v := range cfg.Properties {
		props[k] = v
	}
	props["group.id"] = cfg.Group
	settings, seeds, err := clientSettings(kbsettings.Consumer, props, cfg.Bootstrap)
	if err != nil {
		return nil, err
	}

	cpu0 := ProcessCPU()
	start := time.Now()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if cfg.Duration > 0 {
		var c2 context.CancelFunc
		runCtx, c2 = context.WithDeadline(runCtx, start.Add(cfg.Duration))
		defer c2()
	}
	seen := newRereads()
	// Consumers share GOMAXPROCS end-to-end recorders, as producers share theirs (see
	// latencyShards): one 172 KB histogram per consumer would cost 172 MB for 1,000.
	recs := make([]*metrics.Recorder, max(1, min(cfg.Consumers, runtime.GOMAXPROCS(0))))
	for i := range recs {
		recs[i] = metrics.NewRecorder()
	}
	var log *eventLog
	if len(cfg.Events) > 0 {
		log = &eventLog{start: start}
	}
	kills := slices.ContainsFunc(cfg.Events, func(e rebalance.Scheduled) bool { return e.Kind == rebalance.Kill })
	var total atomic.Int64
	var lastRecord atomic.Int64 // ns since start
	group := &members{}
	// newWorker creates member i; poll starts it.
	newWorker := func(i int) (*consumerWorker, error) {
		joinStart := start
		if i >= cfg.Consumers {
			joinStart = time.Now() // a member joining by an event
		}
		w := &consumerWorker{e2e: recs[i%len(recs)], joinStart: joinStart, errs: map[string]int64{}, seen: seen, maxPoll: settings.MaxPollRecords}
		w.member, w.log = i, log
		w.commitOnRevoke = settings.Effective["enable.auto.commit"] != "false"
		opts := []kgo.Opt{
			kgo.SeedBrokers(seeds...),
			kgo.ClientID(fmt.Sprintf("kbench-consumer-%d", i)),
		}
		switch {
		case len(cfg.Partitions) > 0:
			opts = append(opts, kgo.ConsumePartitions(assigned(cfg.Topics[0], cfg.Partitions, cfg.Consumers, i)))
		case cfg.Include != "":
			opts = append(opts, kgo.ConsumeTopics(cfg.Include), kgo.ConsumeRegex())
		default:
			opts = append(opts, kgo.ConsumeTopics(cfg.Topics...))
		}
		if len(cfg.Partitions) == 0 {
			opts = append(opts, kgo.ConsumerGroup(cfg.Group), kgo.OnPartitionsAssigned(w.onAssigned), kgo.OnPartitionsRevoked(w.onRevoked), kgo.OnPartitionsLost(w.onLost))
		}
		opts = append(opts, settings.Opts...)
		if kills {
			opts = append(opts, w.killable(settings.TLS)...)
		} else {
			w.cancelClient = func() {}
		}
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			w.cancelClient()
			return nil, fmt.Errorf("unable to create consumer client: %w", err)
		}
		w.cl = cl
		return w, nil
	}
	poll := func(w *consumerWorker) {
		pollCtx, stop := context.WithCancel(runCtx)
		w.stop = stop
		group.mu.Lock()
		group.workers = append(group.workers, w)
		group.mu.Unlock()
		group.polls.Add(1)
		go func() {
			defer group.polls.Done()
			w.poll(pollCtx, cfg.Records, &total, &lastRecord, start, cancel)
		}()
	}
	workers := make([]*consumerWorker, cfg.Consumers)
	for i := range workers {
		w, err := newWorker(i)
		if err != nil {
			for _, o := range workers[:i] {
				o.cl.Close()
				o.cancelClient()
			}
			if kills && strings.Contains(err.Error(), "DialTLSConfig") {
				err = errors.New("a kill event cuts a consumer's connections with its own dialer, which kbench does not combine with TLS (security.protocol SSL or SASL_SSL)")
			}
			return nil, err
		}
		workers[i] = w
	}

	if len(cfg.Partitions) == 0 && settings.Effective["group.protocol"] == kbsettings.ConsumerProtocol {
		// kgo would run the classic protocol without a word on brokers that lack KIP-848.
		if err := kafka.CheckConsumerProtocol(runCtx, kadm.NewClient(workers[0].cl)); err != nil {
			closeConsumers(workers)
			return nil, err
		}
	}
	if log != nil {
		n, err := partitionCount(runCtx, kadm.NewClient(workers[0].cl), cfg.Topics[0])
		if err != nil {
			closeConsumers(workers)
			return nil, err
		}
		log.log.Partitions = n
	}

	for _, w := range workers {
		poll(w)
	}
	if log != nil {
		group.startEvents(runCtx, cfg.Events, start.Add(cfg.EventsAfter), log, func(i int) error {
			w, err := newWorker(i)
			if err != nil {
				workers[0].errMu.Lock()
				workers[0].errs[err.Error()]++
				workers[0].errMu.Unlock()
				return err
			}
			poll(w)
			return nil
		})
	}

	e2eM := metrics.NewMerger(recs...)
	var timedOut bool
	endCh := make(chan time.Time, 1)
	go func() {
		soFar := func() (records, bytes int64, joined time.Duration) {
			for _, w := range group.all() {
				records += w.records.Load()
				bytes += w.bytes.Load()
				joined = max(joined, time.Duration(w.joined.Load()))
			}
			return records, bytes, joined
		}
		withRereads := tick
		if tick != nil {
			withRereads = func(t ConsumeTick) {
				for _, w := range group.all() {
					t.TotalRereads += w.rereads.Load()
				}
				tick(t)
			}
		}
		endCh <- consumeTicks(runCtx, soFar, e2eM, cfg.TickInterval, cfg.Timeout, start, &lastRecord, &timedOut, cancel, withRereads)
	}()
	group.polls.Wait()
	cancel()
	end := <-endCh
	closeConsumers(group.live())
	group.closing.Wait()
	workers = group.all()
	for _, w := range workers {
		w.cancelClient()
	}
	cpu := ProcessCPU().sub(cpu0)

	res := &ConsumeResult{Group: cfg.Group, Consumers: cfg.Consumers, Start: start, End: end,
		TimedOut: timedOut, Errors: map[string]int64{}, Settings: settings.Effective,
		Warnings: settings.Warnings, Interrupted: ctx.Err() != nil}
	var joined time.Duration
	var headers, stamps int64
	for _, w := range workers {
		res.Records += w.records.Load()
		res.Bytes += w.bytes.Load()
		res.Rereads += w.rereads.Load()
		joined = max(joined, time.Duration(w.joined.Load()))
		headers += w.headers.Load()
		stamps += w.stamps.Load()
		for k, v := range w.errs {
			res.Errors[k] += v
		}
	}
	_, e2e := e2eM.Tick()
	res.EndToEndHistogram = e2e.Clone()
	res.EndToEnd = e2e.Summary()
	switch {
	case headers > 0 && stamps == 0:
		res.EndToEndSource = "header"
	case stamps > 0:
		res.EndToEndSource = "timestamp"
	}
	elapsed := end.Sub(start)
	res.ElapsedSeconds = elapsed.Seconds()
	res.RebalanceSeconds = joined.Seconds()
	res.FetchSeconds = (elapsed - joined).Seconds()
	mib := float64(res.Bytes) / (1024 * 1024)
	if res.ElapsedSeconds > 0 {
		res.RecordsPerSec = float64(res.Records) / res.ElapsedSeconds
		res.MiBPerSec = mib / res.ElapsedSeconds
	}
	if res.FetchSeconds > 0 {
		res.FetchRecordsPerSec = float64(res.Records) / res.FetchSeconds
		res.FetchMiBPerSec = mib / res.FetchSeconds
	}
	res.CPU = clientCPU(cpu, res.Records)
	if log != nil {
		log.mu.Lock()
		log.log.EndUs = log.us(end)
		res.Rebalance = &log.log
		log.mu.Unlock()
	}
	return res, nil
}

// poll consumes until ctx ends or the run's total reaches limit (then it cancels the run).
func (w *consumerWorker) poll(ctx context.Context, limit int64, total, lastRecord *atomic.Int64, start time.Time, cancel context.CancelFunc) {
	for ctx.Err() == nil {
		w.stalled(ctx)
		fetches := w.cl.PollRecords(ctx, w.maxPoll)
		if fetches.IsClientClosed() {
			return
		}
		now := time.Now()
		nowUs := now.UnixMicro()
		fetches.EachError(func(topic string, p int32, err error) {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return
			}
			w.errMu.Lock()
			w.errs[fmt.Sprintf("%s[%d]: %v", topic, p, err)]++
			w.errMu.Unlock()
		})
		var n, b int64
		fetches.EachRecord(func(r *kgo.Record) {
			n++
			b += int64(len(r.Key) + len(r.Value))
			if ts, ok := headerTimestamp(r); ok {
				w.headers.Add(1)
				w.e2e.Record(time.Duration(nowUs-ts) * time.Microsecond)
			} else if !r.Timestamp.IsZero() && r.Attrs.TimestampType() == 0 {
				w.stamps.Add(1)
				w.e2e.Record(now.Sub(r.Timestamp))
			}
		})
		if n == 0 {
			continue
		}
		if w.log != nil {
			w.log.records(now, fetches, producedUs)
		}
		fetches.EachPartition(func(p kgo.FetchTopicPartition) { w.rereads.Add(w.seen.count(p)) })
		w.records.Add(n)
		w.bytes.Add(b)
		lastRecord.Store(int64(now.Sub(start)))
		if t := total.Add(n); limit > 0 && t >= limit {
			cancel()
		}
	}
}

// assigned is consumer i's part of parts of topic (every n-th), read from the start.
func assigned(topic string, parts []int32, n, i int) map[string]map[int32]kgo.Offset {
	m := map[int32]kgo.Offset{}
	for j := i; j < len(parts); j += n {
		m[parts[j]] = kgo.NewOffset().AtStart()
	}
	return map[string]map[int32]kgo.Offset{topic: m}
}

// headerTimestamp returns the send time kbench produce wrote into the record, if any.
func headerTimestamp(r *kgo.Record) (int64, bool) {
	for _, h := range r.Headers {
		if h.Key == TimestampHeaderKey && len(h.Value) == 8 {
			return int64(binary.BigEndian.Uint64(h.Value)), true
		}
	}
	return 0, false
}

// consumedSoFar is what a run's consumers have read so far, for its ticks: records, bytes
// and (a group's) the longest time a consumer waited to join.
type consumedSoFar func() (records, bytes int64, joined time.Duration)

// consumeTicks delivers ticks every interval and watches the timeout (no record for that
// long ends the run) until ctx ends; it returns the end of the run: the moment the run was
// stopped, as Kafka's tool takes it after its poll loop. Classic and share consumers both
// tick through it.
func consumeTicks(ctx context.Context, soFar consumedSoFar, e2e *metrics.Merger, interval, timeout time.Duration, start time.Time, lastRecord *atomic.Int64, timedOut *bool, cancel context.CancelFunc, tick func(ConsumeTick)) time.Time {
	check := time.NewTicker(100 * time.Millisecond)
	defer check.Stop()
	nextTick := start.Add(interval)
	var prevRecords, prevBytes int64
	var prevJoined, prev time.Duration
	for {
		select {
		case <-ctx.Done():
			return time.Now()
		case now := <-check.C:
			if now.Sub(start)-time.Duration(lastRecord.Load()) > timeout {
				*timedOut = true
				cancel()
				return now
			}
			if tick == nil || now.Before(nextTick) {
				continue
			}
			nextTick = nextTick.Add(interval)
			el := now.Sub(start)
			records, byts, joined := soFar()
			iv, _ := e2e.Tick()
			t := ConsumeTick{Elapsed: el, Interval: el - prev,
				Records: records - prevRecords, Bytes: byts - prevBytes,
				TotalRecords: records, TotalBytes: byts,
				Rebalance: joined - prevJoined, EndToEnd: iv.Summary()}
			if s := t.Interval.Seconds(); s > 0 {
				t.RecordsPerSec = float64(t.Records) / s
				t.MiBPerSec = float64(t.Bytes) / s / (1024 * 1024)
			}
			prevRecords, prevBytes, prevJoined, prev = records, byts, joined, el
			tick(t)
		}
	}
}

// leaveTimeout bounds leaving the group at the end: a broker that does not answer must not
// hold a stopped run (the group coordinator then expires the members by their session
// timeout instead).
const leaveTimeout = 2 * time.Second

// closeConsumers leaves the group and closes every client, all at once and within
// leaveTimeout.
func closeConsumers(workers []*consumerWorker) {
	ctx, cancel := context.WithTimeout(context.Background(), leaveTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Leaving first with a bounded context makes Close immediate (kgo's Close would
			// wait for the leave without a bound).
			_ = w.cl.LeaveGroupContext(ctx)
			w.cl.Close()
		}()
	}
	wg.Wait()
}
