package agent

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/load"
)

// AgentConfig describes one agent.
type AgentConfig struct {
	// Bootstrap and Properties reach the cluster (Properties: connection settings such as
	// --command-config's; they are added to every plan's client properties).
	Bootstrap  string
	Properties map[string]string
	// Name identifies the agent in plans, results and errors; Host and Cores describe it.
	Name, Host string
	Cores      int
	// Version is this kbench's version; a coordinator of another version refuses the agent.
	Version string
	// Log receives one line per event: a run joined or refused, a scenario started or ended.
	Log func(string)
	// Tick and Result, when set, receive each trial's ticks and result with its scenario,
	// for this agent's own live figures (kbench agent --metrics-addr).
	Tick   func(scenario string, t load.Tick)
	Result func(scenario string, r *load.ProduceResult)
}

// Serve waits for runs on the cluster's control topics and takes part in them, one at a
// time, until ctx ends. It needs no inbound port: it only reads and writes control topics.
func Serve(ctx context.Context, cfg AgentConfig) error {
	if cfg.Name == "" {
		return fmt.Errorf("agent name is empty (--name)")
	}
	if cfg.Log == nil {
		cfg.Log = func(string) {}
	}
	ctl, err := openControl(cfg.Bootstrap, cfg.Properties, cfg.Name,
		kgo.ConsumeRegex(), kgo.ConsumeTopics(controlPattern.String()),
		// New control topics must be seen within a second or so, not the default 5 min.
		kgo.MetadataMaxAge(time.Second), kgo.MetadataMinAge(250*time.Millisecond))
	if err != nil {
		return err
	}
	defer ctl.close()
	w := &worker{cfg: cfg, ctl: ctl, runs: map[string]*runState{}}
	defer w.leave("")
	return w.loop(ctx)
}

// runState is what an agent knows of one control topic's run.
type runState struct {
	run        string
	open       bool
	planned    bool // a scenario began: the run is in progress
	closed     bool
	refused    bool // this agent was refused or left it: never join again
	noted      bool // the agent said once that it will not join
	lastCoord  time.Time
	coordAlive time.Time // local clock when the coordinator was last heard (while joined)
}

// worker is the agent's state; only loop's goroutine touches it, but the trial's.
type worker struct {
	cfg      AgentConfig
	ctl      *control
	runs     map[string]*runState
	topic    string // the run joined, "" when waiting
	admitted bool
	epoch    int
	plan     *Plan
	share    Share
	prod     *load.Producers
	sch      load.Schedule
	trial    *trialRun
	// beats sends the joined run's heartbeats from a goroutine of its own, so a loop busy
	// opening clients or stopping a trial never looks like a dead agent; beatEpoch is the
	// epoch it reports.
	stopBeats context.CancelFunc
	beatEpoch atomic.Int64
}

// trialRun is a trial running in its own goroutine.
type trialRun struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// pollWait bounds each poll so heartbeats and the coordinator check run in between.
const pollWait = 250 * time.Millisecond

func (w *worker) loop(ctx context.Context) error {
	for ctx.Err() == nil {
		pctx, cancel := context.WithTimeout(ctx, pollWait)
		ms, _ := w.ctl.poll(pctx) // a failed fetch (a deleted topic) is retried by the next poll
		cancel()
		for _, m := range ms {
			w.note(m)
			if m.topic == w.topic && m.From != w.cfg.Name {
				w.handle(ctx, m)
			}
		}
		w.maybeJoin(ctx)
		w.beatEpoch.Store(int64(w.epoch))
		w.checkCoordinator()
	}
	return nil
}

// note updates what is known of m's run.
func (w *worker) note(m received) {
	rs := w.runs[m.topic]
	if rs == nil {
		rs = &runState{}
		w.runs[m.topic] = rs
	}
	if m.From != CoordinatorName {
		return
	}
	if m.ts.After(rs.lastCoord) {
		rs.lastCoord = m.ts
	}
	if m.topic == w.topic {
		rs.coordAlive = time.Now()
	}
	switch m.Kind {
	case KindOpen:
		rs.open, rs.run = true, m.Run
	case KindPlan:
		rs.planned = true
	case KindClose:
		rs.closed = true
	}
}

// maybeJoin joins an open run whose coordinator was heard lately; a run in progress is
// refused (a late or restarted agent cannot take part in it).
func (w *worker) maybeJoin(ctx context.Context) {
	if w.topic != "" {
		return
	}
	for topic, rs := range w.runs {
		fresh := time.Since(rs.lastCoord) < CoordinatorSilence
		if !rs.open || rs.closed || rs.refused || !fresh {
			continue
		}
		if rs.planned {
			if !rs.noted {
				rs.noted = true
				w.cfg.Log(fmt.Sprintf("not joining run %s: it is in progress (a late or restarted agent cannot join a run in progress)", rs.run))
			}
			continue
		}
		j := &Join{Name: w.cfg.Name, Host: w.cfg.Host, Cores: w.cfg.Cores, Version: w.cfg.Version}
		if err := w.ctl.send(ctx, topic, Message{Kind: KindJoin, Run: rs.run, Join: j}); err != nil {
			w.cfg.Log(fmt.Sprintf("unable to join run %s: %v", rs.run, err))
			continue
		}
		w.topic, w.admitted, w.epoch = topic, false, 0
		w.beatEpoch.Store(0)
		w.stopBeats = w.beats(topic, rs.run)
		rs.coordAlive = time.Now()
		return
	}
}

// beats sends a heartbeat on topic each HeartbeatInterval until stopped.
func (w *worker) beats(topic, run string) context.CancelFunc {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		t := time.NewTicker(HeartbeatInterval)
		defer t.Stop()
		for {
			w.ctl.sendAsync(topic, Message{Kind: KindHeartbeat, Run: run, Epoch: int(w.beatEpoch.Load())})
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
		}
	}()
	return cancel
}

// checkCoordinator leaves a run whose coordinator has gone silent.
func (w *worker) checkCoordinator() {
	if w.topic == "" {
		return
	}
	if rs := w.runs[w.topic]; time.Since(rs.coordAlive) > CoordinatorSilence {
		w.cfg.Log(fmt.Sprintf("left run %s: no word from its coordinator for %v", rs.run, CoordinatorSilence))
		w.leave(w.topic)
	}
}

// leave stops any trial, closes the clients and forgets the run joined; refused marks the
// run so it is not joined again.
func (w *worker) leave(refused string) {
	if w.stopBeats != nil {
		w.stopBeats()
		w.stopBeats = nil
	}
	w.stopTrial()
	w.closeProducers()
	if rs := w.runs[refused]; rs != nil {
		rs.refused = true
	}
	w.topic, w.admitted, w.plan = "", false, nil
}

func (w *worker) stopTrial() {
	if w.trial != nil {
		w.trial.cancel()
		<-w.trial.done
		w.trial = nil
	}
}

func (w *worker) closeProducers() {
	if w.prod != nil {
		w.prod.Close()
		w.prod = nil
	}
}

// send publishes m on the joined run's topic and waits for it.
func (w *worker) send(ctx context.Context, m Message) error {
	m.Run = w.runs[w.topic].run
	return w.ctl.send(ctx, w.topic, m)
}
