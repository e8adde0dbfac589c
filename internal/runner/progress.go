package runner

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/observe"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
)

// plainEvery is how often progress lines are printed when output is not a terminal.
const plainEvery = 5 * time.Second

// progress shows scenario i of N with its ID, the current records/s, p99 and broker CPU,
// and ETAs for the scenario and the study: one rewritten line on a terminal, plain periodic
// lines otherwise.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	plan     *study.Plan
	total    int // repeats in the study
	// clustersLeft counts the shape groups whose cluster is still to start.
	clustersLeft int
	done         int
	spent        time.Duration // time of the repeats run now
	ran          int
	index        int
	repeat       int
	id           string
	started      time.Time
	expected     time.Duration
	lastPrint    time.Time
	// obs receives the same progress for the live page and /metrics (nil: none).
	obs *observe.Series
}

func newProgress(w io.Writer, terminal bool, plan *study.Plan) *progress {
	return &progress{w: w, terminal: terminal, plan: plan, total: len(plan.Scenarios) * plan.Repeats}
}

func (p *progress) skip() {
	p.mu.Lock()
	p.done++
	p.mu.Unlock()
}

func (p *progress) begin(index int, sc study.Scenario, repeat int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.index, p.repeat, p.id, p.started = index, repeat, sc.ID, time.Now()
	p.expected = p.plan.Warmup + sc.Producers.Duration + sc.Consumers.Duration
	p.obs.Begin(observe.Scenario{Study: p.plan.Name, Index: index, Scenarios: len(p.plan.Scenarios), ID: sc.ID,
		Repeat: repeat, Repeats: p.plan.Repeats, Expected: p.expected, Offered: float64(sc.Producers.PacedRate())})
	if !p.terminal {
		fmt.Fprintf(p.w, "scenario %d/%d %s (repeat %d/%d)\n", index+1, len(p.plan.Scenarios), sc.ID, repeat, p.plan.Repeats)
	}
}

// studyETA estimates the time left in the study from the repeats run so far, plus the
// estimated stop, start and warm-up of each cluster still to start (one per shape group).
func (p *progress) studyETA() string {
	left := p.total - p.done
	if p.ran == 0 || left <= 0 {
		return "?"
	}
	restarts := time.Duration(p.clustersLeft) * (study.EstimateClusterStop + study.EstimateClusterStart + p.plan.Cluster.JITWarmup)
	return roundDur(p.spent/time.Duration(p.ran)*time.Duration(left) + restarts)
}

// setClustersLeft says how many clusters are still to be started after the running one.
func (p *progress) setClustersLeft(n int) {
	p.mu.Lock()
	p.clustersLeft = n
	p.mu.Unlock()
}

// clusterStarted counts off one of the clusters left.
func (p *progress) clusterStarted() {
	p.mu.Lock()
	p.clustersLeft = max(p.clustersLeft-1, 0)
	p.mu.Unlock()
}

func (p *progress) line(rate float64, unit string, p99 float64, cpu string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	elapsed := time.Since(p.started)
	scenarioETA := "?"
	if p.expected > elapsed {
		scenarioETA = roundDur(p.expected - elapsed)
	}
	text := fmt.Sprintf("[%d/%d] %s r%d  %.0f %s  p99 %.1f ms  broker CPU %s  ETA %s (study %s)",
		p.index+1, len(p.plan.Scenarios), p.id, p.repeat, rate, unit, p99, cpu, scenarioETA, p.studyETA())
	p.obs.StudyLeft(p.studyETA())
	if p.terminal {
		fmt.Fprintf(p.w, "\r\033[K%s", text)
		return
	}
	if time.Since(p.lastPrint) >= plainEvery {
		p.lastPrint = time.Now()
		fmt.Fprintln(p.w, "  "+text)
	}
}

func (p *progress) produceTick(t load.Tick, s *metrics.Sampler) {
	brokers := s.Snapshot()
	p.obs.ProduceTick(t, &brokers)
	unit := "records/s"
	if t.Warmup {
		unit = "records/s (warm-up)"
	}
	p.line(t.RecordsPerSec, unit, float64(t.DueLatency.P99Us)/1000, brokerCPU(brokers))
}

func (p *progress) consumeTick(t load.ConsumeTick, s *metrics.Sampler) {
	brokers := s.Snapshot()
	p.obs.ConsumeTick(t, &brokers)
	p.line(t.RecordsPerSec, "records/s consumed", float64(t.EndToEnd.P99Us)/1000, brokerCPU(brokers))
}

// end closes a repeat with its summary line (rep is nil when interrupted).
func (p *progress) end(rep *results.Repeat) {
	p.obs.Repeated(rep)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal {
		fmt.Fprint(p.w, "\r\033[K")
	}
	if rep == nil {
		fmt.Fprintln(p.w, "interrupted")
		return
	}
	p.done++
	p.ran++
	p.spent += time.Since(p.started)
	s := rep.Summary
	status := "valid"
	if !rep.Validity.Valid {
		status = "INVALID: " + strings.Join(rep.Validity.Reasons, "; ")
	}
	fmt.Fprintf(p.w, "[%d/%d] %s r%d: %.0f records/s, %.2f MB/s, p99 %.1f ms, client CPU %.1f s/M records; %s\n",
		p.index+1, len(p.plan.Scenarios), rep.Scenario, rep.Repeat, s.RecordsPerSec, s.MiBPerSec, s.Latency.P99Ms,
		s.ClientCPUPerMillion, status)
}

// brokerCPU sums the brokers' CPU (cores) in the latest sample.
// brokerCPU is the brokers' latest CPU in cores, "-" when no broker's CPU is known (a
// cluster without metrics endpoints): 0.00 would read as idle brokers.
func brokerCPU(s metrics.Series) string {
	total, known := 0.0, false
	for _, b := range s.Brokers {
		if n := len(b.Rows); n > 0 {
			if v, ok := b.Rows[n-1].Values[metrics.FieldCPUCores]; ok {
				total, known = total+v, true
			}
		}
	}
	if !known {
		return "-"
	}
	return fmt.Sprintf("%.2f cores", total)
}

func roundDur(d time.Duration) string {
	return d.Round(time.Second).String()
}
