package agent

import (
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

// tickMerger turns the agents' per-interval stats into one load.Tick per interval, as a
// local run's: tick n is complete when every agent sent its n-th interval. Counts add and
// histograms merge; the interval is the longest of the agents'.
type tickMerger struct {
	agents  []string
	pending map[int]map[string]*Stats // seq -> agent -> stats
	next    int                       // the next seq to emit
	// Running totals over the emitted ticks.
	acked, failed, byts int64
	due                 *metrics.Histogram
}

func newTickMerger(agents []string) *tickMerger {
	return &tickMerger{agents: agents, pending: map[int]map[string]*Stats{}, next: 1, due: metrics.NewHistogram()}
}

// add records one agent's stats and returns the ticks it completed, in order.
func (m *tickMerger) add(agent string, s *Stats) []load.Tick {
	if s.Seq < m.next {
		return nil
	}
	if m.pending[s.Seq] == nil {
		m.pending[s.Seq] = map[string]*Stats{}
	}
	m.pending[s.Seq][agent] = s
	var out []load.Tick
	for len(m.pending[m.next]) == len(m.agents) {
		out = append(out, m.merge(m.pending[m.next]))
		delete(m.pending, m.next)
		m.next++
	}
	return out
}

// merge is one complete interval.
func (m *tickMerger) merge(byAgent map[string]*Stats) load.Tick {
	due, send := metrics.NewHistogram(), metrics.NewHistogram()
	var t load.Tick
	for _, a := range m.agents {
		s := byAgent[a]
		t.Elapsed, t.Interval = max(t.Elapsed, s.Elapsed), max(t.Interval, s.Interval)
		t.Warmup = t.Warmup || s.Warmup
		t.Acked += s.Acked
		t.Failed += s.Failed
		t.Bytes += s.Bytes
		t.Buffered += s.Buffered
		t.BufferedBytes += s.BufferedBytes
		if s.Due != nil {
			due.Merge(s.Due)
		}
		if s.Send != nil {
			send.Merge(s.Send)
		}
	}
	m.acked += t.Acked
	m.failed += t.Failed
	m.byts += t.Bytes
	m.due.Merge(due)
	t.DueLatency, t.SendLatency = due.Summary(), send.Summary()
	t.DueHistogram, t.SendHistogram = due, send
	t.TotalAcked, t.TotalFailed, t.TotalBytes = m.acked, m.failed, m.byts
	t.TotalDueLatency = m.due.Summary()
	if sec := t.Interval.Seconds(); sec > 0 {
		t.RecordsPerSec = float64(t.Acked) / sec
		t.MiBPerSec = float64(t.Bytes) / sec / (1024 * 1024)
	}
	return t
}
