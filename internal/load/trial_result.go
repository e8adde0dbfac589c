package load

import (
	"context"
	"time"

	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/metrics"
)

// collect sums the workers' counts and merges their histograms into the trial's result.
func (t *trial) collect(ctx context.Context, settings *kafka.ClientSettings) *ProduceResult {
	cfg := &t.cfg
	cpuEnd := ProcessCPU()
	res := &ProduceResult{Topic: cfg.Topic, Producers: cfg.Producers, Rate: cfg.Rate,
		Errors: map[string]int64{}, Settings: settings.Effective, Warnings: settings.Warnings,
		Interrupted: ctx.Err() != nil}
	var acked, failed, unsent, drained, byts, sAcked, sFailed, sBytes, lastAck, inWindow int64
	firstSteady := int64(-1)
	for _, w := range t.workers {
		acked += w.acked.Load()
		failed += w.failed.Load()
		unsent += w.unsent.Load()
		drained += w.drained.Load()
		byts += w.bytes.Load()
		sAcked += w.steadyAcked.Load()
		sFailed += w.steadyFailed.Load()
		sBytes += w.sbyts.Load()
		lastAck = max(lastAck, w.lastAck.Load())
		inWindow += w.inWindow.Load()
		if f := w.firstSteady.Load(); f >= 0 && (firstSteady < 0 || f < firstSteady) {
			firstSteady = f
		}
		for k, v := range w.errs {
			res.Errors[k] += v
		}
		res.BlockedSends += w.blocked
		res.MaxSendLagMs = max(res.MaxSendLagMs, float64(w.maxLag)/float64(time.Millisecond))
	}
	// The last tick drains what the periodic ticks have not: the mergers' cumulative
	// histograms then hold every acknowledgement of the trial.
	_, due := t.dueM.Tick()
	_, send := t.sendM.Tick()
	end := time.Duration(lastAck)
	if end == 0 {
		end = time.Since(t.start)
	}
	res.Sent = acked + failed
	res.Unsent, res.Drained = unsent, drained
	if window := cfg.Duration - cfg.Warmup; cfg.Rate > 0 && cfg.Duration > 0 && window > 0 && !res.Interrupted {
		res.WindowRecordsPerSec = float64(inWindow) / window.Seconds()
	}
	res.Total = newProduceStats(acked, failed, byts, end, due.Clone(), send.Clone())
	if cfg.WarmupRecords > 0 || cfg.Warmup > 0 {
		_, sd := shardMergers(t.shards, func(r *latencyRecorders) *metrics.Recorder { return r.steadyDue }).Tick()
		_, ss := shardMergers(t.shards, func(r *latencyRecorders) *metrics.Recorder { return r.steadySend }).Tick()
		el := time.Duration(0)
		switch {
		case cfg.Warmup > 0 && end > cfg.Warmup:
			el = end - cfg.Warmup
		case cfg.Warmup == 0 && firstSteady >= 0:
			el = end - time.Duration(firstSteady)
		}
		st := newProduceStats(sAcked, sFailed, sBytes, el, sd.Clone(), ss.Clone())
		res.Steady = &st
	}
	if t.txns != nil {
		res.Transactions = t.txns.result()
	}
	res.CPU = clientCPU(cpuEnd.sub(t.cpu0), acked)
	if res.Steady != nil {
		t.steadyOnce.Do(func() {}) // no steady state began: nothing more to record
		if !t.steadyAt.IsZero() {
			c := clientCPU(cpuEnd.sub(t.steadyCPU0), res.Steady.Acked)
			res.SteadyCPU, res.SteadyStart = &c, t.steadyAt
		}
	}
	return res
}
