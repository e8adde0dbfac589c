package observe

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/kbench/kbench/internal/metrics"
)

// figures are the counts and latency histograms of one run, or of several added up.
type figures struct {
	acked, failed, bytes, unsent, consumed, consumedBytes int64
	due, send, e2e                                        *metrics.Histogram
}

func newFigures() figures {
	return figures{due: metrics.NewHistogram(), send: metrics.NewHistogram(), e2e: metrics.NewHistogram()}
}

// add adds o's counts and histograms to f.
func (f *figures) add(o figures) {
	f.addCounts(o)
	f.due.Merge(o.due)
	f.send.Merge(o.send)
	f.e2e.Merge(o.e2e)
}

func (f *figures) addCounts(o figures) {
	f.acked, f.failed, f.bytes, f.unsent = f.acked+o.acked, f.failed+o.failed, f.bytes+o.bytes, f.unsent+o.unsent
	f.consumed, f.consumedBytes = f.consumed+o.consumed, f.consumedBytes+o.consumedBytes
}

// stream holds one Key's figures: those of the runs that finished (a capacity search's
// earlier trials) and of the one running, whose counts are the load's own running totals
// until its result replaces them, so the stream's counters only grow.
type stream struct {
	done, run         figures
	offered, achieved float64
	// buffered and bufferedBytes are the producers' records waiting in their clients at the
	// last tick (gauges: 0 once the run has ended).
	buffered, bufferedBytes int64
	// version counts the changes to the histograms; latencies, converted for Prometheus at
	// version cachedAt, are reused until it moves (a study's finished repeats cost nothing).
	version, cachedAt int
	cached            []prometheus.Metric
	cachedOK          bool
}

// total is done plus run.
func (st *stream) total() figures {
	if st.done.due.Count()+st.done.send.Count()+st.done.e2e.Count() == 0 {
		t := st.run // done has no latencies: run's histograms are the total's
		t.addCounts(st.done)
		return t
	}
	t := newFigures()
	t.add(st.done)
	t.add(st.run)
	return t
}

// counts is done plus run without the histograms.
func (st *stream) counts() figures {
	t := st.run
	t.addCounts(st.done)
	return t
}

// finish closes the running run into done.
func (st *stream) finish() {
	st.done.add(st.run)
	st.run = newFigures()
	st.version++
}
