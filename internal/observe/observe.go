// Package observe keeps a run's live figures in process: where the run stands, counters,
// rates and latency histograms per stream, broker CPU as sampled, and a capacity search's
// trials. It is fed by the progress path (the ticks the load already delivers) and read by
// both the live page and Prometheus (Registry), so the two never disagree.
//
// A nil *Series accepts every call and does nothing: callers feed it unconditionally.
package observe

import (
	"fmt"
	"maps"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/results"
)

// maxPoints bounds the points kept for the page: two hours of one-second ticks per role.
const maxPoints = 4 * 3600

// Roles of a stream.
const (
	RoleProducer = "producer"
	RoleConsumer = "consumer"
	// RoleAgent marks the page's points of one agent's own producers.
	RoleAgent = "agent"
)

// Key names one stream of figures; its fields are the Prometheus labels.
type Key struct {
	Study, Scenario, Repeat, Role, Agent string
}

func (k Key) values() []string { return []string{k.Study, k.Scenario, k.Repeat, k.Role, k.Agent} }

// Scenario is what Begin announces: the repeat about to run and where it stands in the run.
type Scenario struct {
	Study string
	// Index is 0-based, of Scenarios.
	Index, Scenarios int
	ID               string
	// Repeat is 1-based, of Repeats.
	Repeat, Repeats int
	// Expected is the repeat's planned length (warm-up included), for its ETA.
	Expected time.Duration
	// Offered is the target rate in records/s, 0 when unthrottled.
	Offered float64
	// Agent names this process's load among several hosts' ("" alone).
	Agent string
}

// Series is a run's live figures. Its methods are safe for concurrent use.
type Series struct {
	mu       sync.Mutex
	start    time.Time
	status   Status
	scenario Scenario
	began    time.Time
	streams  map[Key]*stream
	order    []Key
	brokers  []Broker
	points   []Point
	seq      int
	trials   []Trial
	marks    []Mark
	faults   int
	// faulted counts the faults applied and not yet healed: the phase stays "fault".
	faulted  int
	verified map[string]int64
	registry *prometheus.Registry
}

// New returns an empty Series whose run starts now, with its Prometheus registry (kbench's
// series plus the Go runtime's and the process's).
func New() *Series {
	s := &Series{start: time.Now(), streams: map[Key]*stream{}, status: Status{Phase: "starting", ScenarioLeftSeconds: -1}}
	s.registry = prometheus.NewRegistry()
	s.registry.MustRegister(collector{s}, collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return s
}

// Registry is the Prometheus registry over s.
func (s *Series) Registry() *prometheus.Registry { return s.registry }

// Begin announces a repeat (or a produce/consume/verify run: one scenario, one repeat).
func (s *Series) Begin(sc Scenario) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scenario, s.began = sc, time.Now()
	s.status.Study, s.status.Scenario = sc.Study, sc.ID
	s.status.Index, s.status.Scenarios = sc.Index+1, max(sc.Scenarios, 1)
	s.status.Repeat, s.status.Repeats = sc.Repeat, max(sc.Repeats, 1)
	s.status.Phase = "starting"
}

// Phase says what the run is doing now: warm-up, measured, drain, settle, fault...
func (s *Series) Phase(phase string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.status.Phase = phase
	s.mu.Unlock()
}

// ClusterGroup names the cluster the study's next repeats run on ("2 of 3: 3 brokers...").
func (s *Series) ClusterGroup(group string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.status.Group = group
	s.mu.Unlock()
}

// StudyLeft is the estimate of the time left in the study, as the terminal prints it.
func (s *Series) StudyLeft(left string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.status.StudyLeft = left
	s.mu.Unlock()
}

// key is the current scenario's key for role; s.mu is held.
func (s *Series) key(role string) Key {
	sc := s.scenario
	repeat := ""
	if sc.Repeat > 0 {
		repeat = strconv.Itoa(sc.Repeat)
	}
	return Key{Study: sc.Study, Scenario: sc.ID, Repeat: repeat, Role: role, Agent: sc.Agent}
}

// stream returns role's stream of the current scenario, made on first use; s.mu is held.
func (s *Series) stream(role string) *stream {
	k := s.key(role)
	st, ok := s.streams[k]
	if !ok {
		st = &stream{done: newFigures(), run: newFigures()}
		s.streams[k] = st
		s.order = append(s.order, k)
	}
	return st
}

// ProduceTick adds a producers' tick; brokers, when not nil, is the sampler's latest series.
func (s *Series) ProduceTick(t load.Tick, brokers *metrics.Series) {
	phase := "measured"
	if t.Warmup {
		phase = "warm-up"
	}
	s.produceTick(t, brokers, phase)
}

func (s *Series) produceTick(t load.Tick, brokers *metrics.Series, phase string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stream(RoleProducer)
	st.run.acked, st.run.failed, st.run.bytes = t.TotalAcked, t.TotalFailed, t.TotalBytes
	st.offered, st.achieved = s.scenario.Offered, t.RecordsPerSec
	st.buffered, st.bufferedBytes = t.Buffered, t.BufferedBytes
	if t.DueHistogram != nil {
		st.run.due.Merge(t.DueHistogram)
	}
	if t.SendHistogram != nil {
		st.run.send.Merge(t.SendHistogram)
	}
	st.version++
	s.status.Phase = phase
	if s.faulted > 0 {
		s.status.Phase = "fault"
	}
	s.setBrokers(brokers)
	s.addPoint(Point{Role: RoleProducer, Offered: st.offered, Achieved: t.RecordsPerSec,
		P50: ms(t.DueLatency.P50Us), P99: ms(t.DueLatency.P99Us), P999: ms(t.DueLatency.P999Us),
		SendP99: ms(t.SendLatency.P99Us), Failed: st.done.failed + t.TotalFailed, Warmup: t.Warmup})
}

// AgentTick adds one agent's own tick (the load on agents delivers merged ticks too): its
// interval's counts, labelled with its name, so each agent's rate shows beside the merged one.
func (s *Series) AgentTick(agent string, acked, failed, bytes int64, interval time.Duration) {
	if s == nil || interval <= 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.key(RoleProducer)
	k.Agent = agent
	st, ok := s.streams[k]
	if !ok {
		st = &stream{done: newFigures(), run: newFigures()}
		s.streams[k] = st
		s.order = append(s.order, k)
	}
	st.run.acked, st.run.failed, st.run.bytes = st.run.acked+acked, st.run.failed+failed, st.run.bytes+bytes
	st.achieved = float64(acked) / interval.Seconds()
	s.addPoint(Point{Role: RoleAgent, Agent: agent, Achieved: st.achieved, Failed: st.run.failed})
}

// ConsumeTick adds a consumers' tick.
func (s *Series) ConsumeTick(t load.ConsumeTick, brokers *metrics.Series) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stream(RoleConsumer)
	st.run.consumed, st.run.consumedBytes, st.achieved = t.TotalRecords, t.TotalBytes, t.RecordsPerSec
	if s.status.Phase == "starting" {
		s.status.Phase = "measured"
	}
	s.setBrokers(brokers)
	p := Point{Role: RoleConsumer, Achieved: t.RecordsPerSec,
		P50: ms(t.EndToEnd.P50Us), P99: ms(t.EndToEnd.P99Us), P999: ms(t.EndToEnd.P999Us)}
	if prod, ok := s.streams[s.key(RoleProducer)]; ok {
		lag := max(prod.done.acked+prod.run.acked-st.done.consumed-st.run.consumed, 0)
		p.Lag = &lag
	}
	s.addPoint(p)
}

// Produced closes a producers' run with its result, which replaces the running totals and
// histograms: the last figures are exactly the ones kbench prints.
func (s *Series) Produced(r *load.ProduceResult) {
	if s == nil || r == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stream(RoleProducer)
	run := newFigures()
	run.acked, run.failed, run.bytes, run.unsent = r.Total.Acked, r.Total.Failed, r.Total.Bytes, r.Unsent
	if r.Total.DueHistogram != nil {
		run.due = r.Total.DueHistogram.Clone()
	}
	if r.Total.SendHistogram != nil {
		run.send = r.Total.SendHistogram.Clone()
	}
	st.run = run
	st.buffered, st.bufferedBytes = 0, 0
	st.finish()
}

// Consumed closes a consumers' run with its result.
func (s *Series) Consumed(r *load.ConsumeResult) {
	if s == nil || r == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stream(RoleConsumer)
	st.run.consumed, st.run.consumedBytes = r.Records, r.Bytes
	if r.EndToEndHistogram != nil {
		st.run.e2e = r.EndToEndHistogram.Clone()
	}
	st.finish()
}

// ShareConsumed closes a share consumers' run with its result: deliveries count as consumed
// records, as Kafka's share tool counts them.
func (s *Series) ShareConsumed(r *load.ShareResult) {
	if r == nil {
		return
	}
	s.Consumed(&load.ConsumeResult{Records: r.Delivered, Bytes: r.Bytes, EndToEndHistogram: r.EndToEndHistogram})
}

// Repeated closes a study's repeat with its recorded accounting of every record.
func (s *Series) Repeated(rep *results.Repeat) {
	if s == nil || rep == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec := rep.Summary.Records; rec != nil {
		if rec.Acked+rec.Failed+rec.Unsent > 0 {
			st := s.stream(RoleProducer)
			st.run.acked, st.run.failed, st.run.unsent = rec.Acked, rec.Failed, rec.Unsent
		}
		if rec.Consumed != nil {
			s.stream(RoleConsumer).run.consumed = *rec.Consumed + rec.Reread
		}
	}
	for _, k := range []Key{s.key(RoleProducer), s.key(RoleConsumer)} {
		if st, ok := s.streams[k]; ok {
			st.finish()
		}
	}
	s.status.Phase = "repeat done"
}

// Fault marks a fault injected (detail says which) on the time axis; Healed its healing.
func (s *Series) Fault(detail string) { s.mark("fault", detail) }

// Healed marks a fault healed.
func (s *Series) Healed(detail string) { s.mark("healed", detail) }

func (s *Series) mark(kind, detail string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.marks = append(s.marks, Mark{T: time.Since(s.start).Seconds(), Kind: kind, Detail: detail})
	if kind == "fault" {
		s.faults++
		s.faulted++
	} else {
		s.faulted = max(s.faulted-1, 0)
	}
	s.status.Phase = "measured"
	if s.faulted > 0 {
		s.status.Phase = "fault"
	}
}

// Verified records a verify run's records by outcome (acknowledged, read, lost,
// duplicated...), known once it has read the topic back.
func (s *Series) Verified(counts map[string]int64) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.verified = maps.Clone(counts)
}

// CapacityTrial adds a capacity search's trial to the ladder.
func (s *Series) CapacityTrial(t capacity.Trial) {
	if s == nil {
		return
	}
	pass := len(t.Pass) > 0
	for _, p := range t.Pass {
		pass = pass && p
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.trials = append(s.trials, Trial{N: t.N, Phase: string(t.Phase), Offered: t.Offered, Achieved: t.Achieved,
		P99: float64(t.P99) / float64(time.Millisecond), Pass: pass})
	s.status.Phase = fmt.Sprintf("capacity trial %d (%s)", t.N, t.Phase)
}

// End marks the run ended: outcome says how ("complete", "interrupted", an error), report is
// the path or link of its report ("" when none).
func (s *Series) End(outcome, report string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status.Ended, s.status.Outcome, s.status.Report = true, outcome, report
	s.status.Phase = "ended"
}

// Ended reports whether End was called.
func (s *Series) Ended() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status.Ended
}
