package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/kbench/kbench/internal/load"
)

// handle acts on a message of the run joined.
func (w *worker) handle(ctx context.Context, m received) {
	rs := w.runs[w.topic]
	switch m.Kind {
	case KindAdmit:
		if m.To == w.cfg.Name && !w.admitted {
			w.admitted = true
			w.cfg.Log(fmt.Sprintf("joined run %s on topic %s", rs.run, w.topic))
		}
	case KindRefuse:
		if m.To == w.cfg.Name {
			w.cfg.Log(fmt.Sprintf("refused by run %s: %s", rs.run, m.Reason))
			w.leave(w.topic)
		}
	case KindPlan:
		w.onPlan(ctx, m)
	case KindStart:
		if m.Epoch == w.epoch && w.prod != nil && w.trial == nil {
			w.startTrial(m.Start)
		}
	case KindAbort:
		if m.Epoch == w.epoch && w.plan != nil {
			w.stopTrial()
			w.closeProducers()
			w.cfg.Log(fmt.Sprintf("scenario %s aborted: %s", w.plan.Scenario, m.Reason))
		}
	case KindClose:
		w.cfg.Log(fmt.Sprintf("run %s closed", rs.run))
		w.leave(w.topic)
	}
}

// onPlan opens the clients for this agent's share and says it is ready (or why not).
func (w *worker) onPlan(ctx context.Context, m received) {
	rs := w.runs[w.topic]
	if !w.admitted {
		w.cfg.Log(fmt.Sprintf("not joining run %s: it is in progress (a late or restarted agent cannot join a run in progress)", rs.run))
		w.leave(w.topic)
		return
	}
	w.stopTrial()
	w.closeProducers()
	w.epoch, w.plan = m.Epoch, m.Plan
	w.beatEpoch.Store(int64(m.Epoch))
	var share *Share
	for i := range m.Plan.Shares {
		if m.Plan.Shares[i].Agent == w.cfg.Name {
			share = &m.Plan.Shares[i]
		}
	}
	if share == nil {
		w.cfg.Log(fmt.Sprintf("left run %s: its plan has no share for this agent", rs.run))
		w.leave(w.topic)
		return
	}
	cfg, sch := share.config(m.Plan, w.cfg.Bootstrap, connection(w.cfg.Properties))
	prod, err := load.OpenProducers(cfg)
	if err != nil {
		_ = w.send(ctx, Message{Kind: KindError, Epoch: w.epoch, Reason: err.Error()})
		w.cfg.Log(fmt.Sprintf("scenario %s: %v", m.Plan.Scenario, err))
		return
	}
	w.prod, w.sch, w.share = prod, sch, *share
	w.cfg.Log(fmt.Sprintf("scenario %s: %d producers from #%d, %s, %s", m.Plan.Scenario, share.Producers, share.FirstProducer, rateText(share.Rate), countText(sch)))
	if err := w.send(ctx, Message{Kind: KindReady, Epoch: w.epoch}); err != nil {
		w.cfg.Log(err.Error())
	}
}

func rateText(r float64) string {
	if r <= 0 {
		return "unlimited rate"
	}
	return fmt.Sprintf("%.0f records/s", r)
}

func countText(s load.Schedule) string {
	if s.Records > 0 {
		return fmt.Sprintf("%d records", s.Records)
	}
	return fmt.Sprintf("for %v", s.Duration)
}

// startTrial runs the trial in its own goroutine from start (the barrier), reporting its
// actual start, its ticks and its result on the control topic.
func (w *worker) startTrial(start time.Time) {
	tctx, cancel := context.WithCancel(context.Background())
	tr := &trialRun{cancel: cancel, done: make(chan struct{})}
	w.trial = tr
	topic, run, epoch, prod, sch, scenario := w.topic, w.runs[w.topic].run, w.epoch, w.prod, w.sch, w.plan.Scenario
	var ccfg *load.ConsumerConfig
	if w.plan.Consumers != nil {
		c := w.share.consumerConfig(w.plan, w.cfg.Bootstrap, connection(w.cfg.Properties))
		ccfg = &c
	}
	send := func(m Message) {
		m.Run, m.Epoch = run, epoch
		w.ctl.sendAsync(topic, m)
	}
	go func() {
		defer close(tr.done)
		select {
		case <-tctx.Done():
			return
		case <-time.After(time.Until(start)):
		}
		send(Message{Kind: KindStarted, Start: time.Now().UTC()})
		var cons *load.ConsumerRun
		if ccfg != nil {
			cfg := *ccfg
			cfg.TickInterval = consumeTick
			cons = load.StartConsume(tctx, cfg, nil)
		}
		seq := 0
		res, err := prod.Trial(tctx, sch, func(t load.Tick) {
			if w.cfg.Tick != nil {
				w.cfg.Tick(scenario, t)
			}
			seq++
			send(Message{Kind: KindStats, Stats: &Stats{Seq: seq, Elapsed: t.Elapsed, Interval: t.Interval, Warmup: t.Warmup,
				Acked: t.Acked, Failed: t.Failed, Bytes: t.Bytes, Buffered: t.Buffered, BufferedBytes: t.BufferedBytes,
				Due: t.DueHistogram, Send: t.SendHistogram}})
		})
		var consumed *load.ConsumeResult
		if cons != nil {
			var want int64
			if res != nil {
				want = res.Total.Acked
			}
			var cerr error
			// Read what this agent's producers had acknowledged, or until idle.
			consumed, cerr = cons.Drain(tctx, func() int64 { return want }, drainIdle)
			if err == nil && cerr != nil {
				err = fmt.Errorf("consume: %w", cerr)
			}
		}
		if tctx.Err() != nil {
			return // aborted: the coordinator no longer waits for this trial
		}
		if err != nil {
			send(Message{Kind: KindError, Reason: err.Error()})
			w.cfg.Log(fmt.Sprintf("scenario %s failed: %v", scenario, err))
			return
		}
		// done is sent and checked, not fire-and-forget as stats are: the coordinator waits
		// for it, and a message that cannot be encoded or produced must become an error it
		// sees rather than a silent wait.
		if err := w.ctl.send(tctx, topic, Message{Run: run, Epoch: epoch, Kind: KindDone, Result: res, Consumed: consumed}); err != nil {
			w.cfg.Log(fmt.Sprintf("scenario %s: %v", scenario, err))
			send(Message{Kind: KindError, Reason: fmt.Sprintf("unable to report the result: %v", err)})
			return
		}
		if w.cfg.Result != nil {
			w.cfg.Result(scenario, res)
		}
		line := fmt.Sprintf("scenario %s done: %d records acknowledged, %d failed, %d unsent", scenario, res.Total.Acked, res.Total.Failed, res.Unsent)
		if consumed != nil {
			line += fmt.Sprintf(", %d consumed", consumed.Records)
		}
		w.cfg.Log(line)
	}()
}
