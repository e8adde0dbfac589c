package load

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/metrics"
)

// slot is one record in flight with what its acknowledgement needs. Slots are reused, so
// producing allocates nothing per record.
//
// Subtleness ahead: the slot is the record's Context. kgo only calls Done() on it (nil for a
// background context: never cancelled), and the promise gets the slot back from the record
// with a type assertion instead of a map lookup or a closure allocated per record.
type slot struct {
	context.Context
	rec       kgo.Record
	n         int64         // the record's number in its producer's sequence
	due, sent time.Duration // since the run's start
	steady    bool
	hdr       [1]kgo.RecordHeader
	ts        [8]byte
	scratch   [20]byte
}

// producerWorker is one client and the state its promise updates.
type producerWorker struct {
	id     int
	cl     *kgo.Client
	start  time.Time
	slots  sync.Pool
	active sync.WaitGroup // records produced whose promise has not run

	acked, failed, bytes atomic.Int64
	// unsent were aborted when the run stopped waiting for them: neither acknowledged nor
	// failed by the cluster (see ProduceResult.Unsent).
	unsent atomic.Int64
	// drained were acknowledged after a timed run's end, while it waited for them.
	drained                          atomic.Int64
	end                              time.Duration // a timed run's end since start, 0 untimed
	steadyAcked, steadyFailed, sbyts atomic.Int64
	lastAck                          atomic.Int64 // ns since start
	firstSteady                      atomic.Int64 // ns since start of the first steady record's due time (its send, unpaced), -1 none
	// warmupEnd is the end of a warm-up given as a duration (see afterWarmup).
	warmupEnd time.Duration
	// steadyBegins is called when the first steady record is sent (warm-up by records).
	steadyBegins func()
	// paced is true when records have due times of their own (a rate was offered).
	// inWindow counts the paced records both due and acknowledged between warmupEnd and
	// end: the rate a timed trial sustained (see ProduceResult.WindowRecordsPerSec).
	paced    bool
	inWindow atomic.Int64
	// source makes the records and hears their outcomes when set (ProducerConfig.Source).
	source RecordSource
	// txns tallies the trial's transactions (transactional producers only).
	txns *transactions

	// The latency recorders this producer shares with others (see latencyShards).
	*latencyRecorders

	errMu sync.Mutex
	errs  map[string]int64

	// blocked and maxLag are written by run's goroutine only and read after it ends (see
	// ProduceResult.BlockedSends and MaxSendLagMs).
	blocked int64
	maxLag  time.Duration
}

// blockedSend is how long handing a record to the client may take before the send counts as
// blocked: kgo's Produce returns in microseconds unless the buffer (buffer.memory, or
// max.in.flight with the batches behind it) is full and it waits for space.
const blockedSend = time.Millisecond

func (w *producerWorker) promise(r *kgo.Record, err error) {
	s := r.Context.(*slot)
	now := time.Since(w.start)
	steady := s.steady || w.afterWarmup(s, now)
	if w.source != nil {
		w.source.Outcome(w.id, s.n, r, err, isUnsent(err))
	}
	if isUnsent(err) {
		w.unsent.Add(1)
	} else if err != nil {
		w.failed.Add(1)
		if steady {
			w.steadyFailed.Add(1)
		}
		w.errMu.Lock()
		w.errs[err.Error()]++
		w.errMu.Unlock()
	} else {
		n := int64(len(r.Value) + len(r.Key))
		w.acked.Add(1)
		w.bytes.Add(n)
		w.due.Record(now - s.due)
		w.send.Record(now - s.sent)
		if steady {
			w.steadyAcked.Add(1)
			w.sbyts.Add(n)
			w.steadyDue.Record(now - s.due)
			w.steadySend.Record(now - s.sent)
		}
		if w.end > 0 && now >= w.end {
			w.drained.Add(1)
		} else if w.paced && w.end > 0 && s.due >= w.warmupEnd {
			w.inWindow.Add(1)
		}
		if int64(now) > w.lastAck.Load() {
			w.lastAck.Store(int64(now))
		}
	}
	s.rec = kgo.Record{}
	w.slots.Put(s)
	w.active.Done()
}

// Produce runs cfg once and returns its result: it opens the clients, runs one trial with
// cfg's schedule and closes them (see Producers for several trials on the same clients).
// tick, if not nil, is called every cfg.TickInterval from one goroutine. Per-record failures
// are counted in the result, not returned as errors; the error is for a run that could not
// start. Cancelling ctx stops sending and finishes with what was sent (Interrupted is then
// true).
func Produce(ctx context.Context, cfg ProducerConfig, tick func(Tick)) (*ProduceResult, error) {
	d := cfg.withDefaults()
	if err := d.validate(); err != nil {
		return nil, fmt.Errorf("invalid producer configuration: %w", err)
	}
	p, err := OpenProducers(cfg)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Trial(ctx, d.schedule(), tick)
}

// afterWarmup says whether a record belongs to the steady state of a warm-up by time. An
// unpaced producer's is what the cluster acknowledges after the warm-up: its records wait
// behind a full buffer (seconds of it), so counting only those sent after the warm-up
// would measure nothing in a short window. A paced producer's is the records due after it,
// whenever they were sent or acknowledged: one that fell behind in the warm-up (a stall, a
// slow start) would otherwise count the warm-up's backlog in the window and report more
// than the rate offered (measured: 1,940 records/s in a window of 1,000 offered, after a
// start-up stall), with the backlog's latencies in the window's.
func (w *producerWorker) afterWarmup(s *slot, acked time.Duration) bool {
	switch {
	case w.warmupEnd <= 0:
		return false
	case w.paced:
		return s.due >= w.warmupEnd
	default:
		return acked >= w.warmupEnd
	}
}

// run sends worker i's share of the records, paced, until ctx ends, and waits for their
// acknowledgements until recCtx ends (see Produce).
func (w *producerWorker) run(ctx, recCtx context.Context, cfg *ProducerConfig, i int, pl *payloads, keys *keySpace, inWarmup *atomic.Bool) error {
	limit := int64(-1)
	if cfg.Records > 0 {
		limit = share(cfg.Records, cfg.Producers, i)
	}
	warmupN := share(cfg.WarmupRecords, cfg.Producers, i)
	pacer := Pacer{Rate: cfg.Rate / float64(cfg.Producers)}
	rng := rand.New(rand.NewPCG(cfg.Seed+uint64(i), uint64(i)*0x9e3779b97f4a7c15+1))
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	txn := cfg.TransactionalID != ""
	var tx openTransaction
	abortRNG := txnRNG(cfg.Seed, i)
	var err error
	for n := int64(0); limit < 0 || n < limit; n++ {
		if ctx.Err() != nil {
			break
		}
		if txn && !tx.open {
			steady := (warmupN == 0 || n >= warmupN) && time.Since(w.start) >= w.warmupEnd
			if err = w.beginTransaction(&tx, n, steady); err != nil {
				break
			}
		}
		due := pacer.Due(n)
		if pacer.Rate > 0 {
			if cfg.Duration > 0 && due >= cfg.Duration {
				break
			}
			if wait := pacer.Wait(time.Since(w.start), n); wait > 0 {
				timer.Reset(wait)
				select {
				case <-timer.C:
				case <-ctx.Done():
				}
				if ctx.Err() != nil {
					break
				}
			}
		}
		now := time.Now()
		sent := now.Sub(w.start)
		if pacer.Rate <= 0 {
			due = sent
		}
		s := w.slots.Get().(*slot)
		s.due, s.sent, s.n = due, sent, n
		s.steady = warmupN > 0 && n >= warmupN
		if s.steady {
			if inWarmup.Load() {
				inWarmup.Store(false)
			}
			if w.firstSteady.Load() < 0 {
				// Its due time, not its send: a producer behind its schedule sends the
				// steady records in a burst, and a window timed from that burst would be
				// shorter than the schedule it ran and its rate above the one offered.
				w.firstSteady.Store(int64(due))
				w.steadyBegins()
			}
		}
		if cfg.Source != nil {
			s.rec = kgo.Record{Topic: cfg.Topic, Timestamp: now, Context: s}
			cfg.Source.Fill(i, n, &s.rec)
		} else {
			s.rec = kgo.Record{
				Topic:     cfg.Topic,
				Key:       keys.next(rng, n),
				Value:     pl.next(rng, n, s.scratch[:]),
				Timestamp: now,
				Context:   s,
			}
		}
		if cfg.TimestampHeader {
			binary.BigEndian.PutUint64(s.ts[:], uint64(now.UnixMicro()))
			s.hdr[0] = kgo.RecordHeader{Key: TimestampHeaderKey, Value: s.ts[:]}
			s.rec.Headers = s.hdr[:]
		}
		w.active.Add(1)
		// Not the run's context: a record handed over finishes on its own (acknowledged, or
		// failed by delivery.timeout.ms) while recCtx lives, so that a timed run's last
		// records are drained and counted instead of dropped at the deadline.
		w.cl.Produce(recCtx, &s.rec, w.promise)
		if time.Since(w.start)-sent > blockedSend {
			w.blocked++
		}
		w.maxLag = max(w.maxLag, sent-due)

		tx.records++
		if txn && tx.full(cfg) {
			if err = w.endTransaction(&tx, recCtx, abortRNG.Float64() < cfg.AbortShare); err != nil {
				break
			}
		}
	}
	if txn && tx.open && err == nil {
		return w.endTransaction(&tx, recCtx, abortRNG.Float64() < cfg.AbortShare)
	}
	// A record count waits for every record (delivery.timeout.ms bounds each); a timed run
	// waits DrainTimeout past its end and a cancelled one StopGrace past the cancellation
	// (recCtx); what is left then is aborted and counted as unsent.
	finishRecords(w.cl, recCtx)
	return err
}

// producerTicks calls tick every interval with the workers' counts and latencies until stop
// is closed. Ticks drain the workers' recorders into the mergers, whose cumulative
// histograms the final result takes.
func producerTicks(workers []*producerWorker, due, send *metrics.Merger, interval time.Duration, start time.Time, inWarmup *atomic.Bool, stop <-chan struct{}, tick func(Tick)) {
	if tick == nil {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	var prevAcked, prevFailed, prevBytes int64
	prev := time.Duration(0)
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			var acked, failed, byts, buffered, bufferedBytes int64
			for _, w := range workers {
				acked += w.acked.Load()
				failed += w.failed.Load()
				byts += w.bytes.Load()
				buffered += w.cl.BufferedProduceRecords()
				bufferedBytes += w.cl.BufferedProduceBytes()
			}
			// Taken after the counts, so that every record counted was sent by Elapsed.
			el := time.Since(start)
			di, dc := due.Tick()
			si, _ := send.Tick()
			iv := el - prev
			tk := Tick{
				Elapsed: el, Interval: iv, Warmup: inWarmup.Load(),
				Acked: acked - prevAcked, Failed: failed - prevFailed, Bytes: byts - prevBytes,
				DueLatency: di.Summary(), SendLatency: si.Summary(),
				DueHistogram: di.Clone(), SendHistogram: si.Clone(),
				TotalAcked: acked, TotalFailed: failed, TotalBytes: byts, TotalDueLatency: dc.Summary(),
				Buffered: buffered, BufferedBytes: bufferedBytes,
			}
			if s := iv.Seconds(); s > 0 {
				tk.RecordsPerSec = float64(tk.Acked) / s
				tk.MiBPerSec = float64(tk.Bytes) / s / (1024 * 1024)
			}
			prevAcked, prevFailed, prevBytes, prev = acked, failed, byts, el
			tick(tk)
		}
	}
}

// recordSizes returns the smallest and largest record value cfg sends, from the
// configuration alone (nothing is allocated yet).
func recordSizes(cfg *ProducerConfig) (smallest, largest int) {
	switch {
	case cfg.Source != nil:
		return cfg.Source.Sizes()
	case cfg.PayloadMonotonic:
		return 1, 20 // a decimal int64
	case cfg.Payloads != nil:
		smallest = math.MaxInt
		for _, p := range cfg.Payloads {
			smallest, largest = min(smallest, len(p)), max(largest, len(p))
		}
		return smallest, largest
	}
	return cfg.RecordSize, cfg.RecordSize
}

// batchSize is the batch.size in force.
func batchSize(s *kafka.ClientSettings) int32 {
	n, err := strconv.Atoi(s.Effective["batch.size"])
	if err != nil || n < 512 {
		return 512
	}
	return int32(n)
}
