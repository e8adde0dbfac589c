package rebalance

import (
	"math"
	"slices"
	"time"
)

// DefaultWindow is how long before and after an event the end-to-end p99 is taken over.
const DefaultWindow = 5 * time.Second

// Figures is what the application felt at one event, from the event until the next one
// (or the end of consumption).
type Figures struct {
	Event   string  `json:"event"`
	Kind    Kind    `json:"kind"`
	AtS     float64 `json:"at_s"` // since the consumers started
	Member  int     `json:"member"`
	Skipped string  `json:"skipped,omitempty"`
	// StableS is the time from the event until every partition had exactly one owner and
	// kept it until the next event or the end; nil when that never happened.
	StableS *float64 `json:"time_to_stable_s"`
	// PauseS is the longest pause of any partition with backlog that ended in the event's
	// span: the time between two deliveries of new records of the partition during which a
	// record was waiting (from the later of the earlier delivery and the production of the
	// first new record delivered next). PausePartition is that partition (-1 if none).
	PauseS         float64 `json:"longest_pause_s"`
	PausePartition int32   `json:"pause_partition"`
	// Redelivered counts records delivered in the event's span that had been delivered
	// before (a new owner resuming at the last committed offset).
	Redelivered int64 `json:"redelivered"`
	// P99BeforeMs and P99AfterMs are the end-to-end p99 of the records consumed in the
	// window before the event and the window after it; the counts say over how many.
	P99BeforeMs   float64 `json:"e2e_p99_before_ms"`
	P99AfterMs    float64 `json:"e2e_p99_after_ms"`
	RecordsBefore int     `json:"records_before"`
	RecordsAfter  int     `json:"records_after"`
}

// Analyze computes the figures of every event of log; window is the span of the
// before/after p99 on each side of an event.
func Analyze(log Log, window time.Duration) []Figures {
	if len(log.Events) == 0 {
		return nil
	}
	order := recordOrder(log.Records)
	out := make([]Figures, len(log.Events))
	for i, ev := range log.Events {
		out[i] = Figures{Event: ev.Spec, Kind: ev.Kind, AtS: seconds(ev.AtUs), Member: ev.Member, Skipped: ev.Skipped, PausePartition: -1}
	}
	spanEnd := func(i int) int64 {
		if i+1 < len(log.Events) {
			return log.Events[i+1].AtUs
		}
		return math.MaxInt64
	}
	stability(log, out, spanEnd)
	pauses(log.Records, order, log.Events, out, spanEnd)
	redeliveries(log.Records, order, log.Events, out, spanEnd)
	tails(log.Records, log.Events, out, window.Microseconds())
	return out
}

func seconds(us int64) float64 { return float64(us) / 1e6 }

// recordOrder is the records' indexes in consumption order, by partition and offset within
// a moment, so that each delivery (a partition's records consumed at one moment) is a run.
func recordOrder(r Records) []int {
	order := make([]int, r.Len())
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmpInt(r.ConsumedUs[a], r.ConsumedUs[b]); c != 0 {
			return c
		}
		if c := cmpInt(int64(r.Partition[a]), int64(r.Partition[b])); c != 0 {
			return c
		}
		return cmpInt(r.Offset[a], r.Offset[b])
	})
	return order
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// eventIndex is the event whose span [at, next event) holds t, or -1 before the first.
func eventIndex(events []Event, t int64) int {
	i, found := slices.BinarySearchFunc(events, t, func(e Event, t int64) int { return cmpInt(e.AtUs, t) })
	if found {
		return i
	}
	return i - 1
}

// stability replays ownership: each event's time to stable is when every partition last
// came to have exactly one owner within its span. A member that left or was killed owns
// nothing from its event on, and its later callbacks (its own revocations) are ignored.
func stability(log Log, out []Figures, spanEnd func(int) int64) {
	owners := make([]map[int]bool, log.Partitions)
	for p := range owners {
		owners[p] = map[int]bool{}
	}
	stable := func() bool {
		for _, o := range owners {
			if len(o) != 1 {
				return false
			}
		}
		return len(owners) > 0
	}
	changes := slices.Clone(log.Changes)
	slices.SortStableFunc(changes, func(a, b Change) int { return cmpInt(a.AtUs, b.AtUs) })
	gone := map[int]bool{}
	c := 0
	apply := func(ch Change) {
		if gone[ch.Member] {
			return
		}
		for _, p := range ch.Partitions {
			if int(p) >= len(owners) || p < 0 {
				continue
			}
			if ch.Kind == Assigned {
				owners[p][ch.Member] = true
			} else {
				delete(owners[p], ch.Member)
			}
		}
	}
	for c < len(changes) && changes[c].AtUs < log.Events[0].AtUs {
		apply(changes[c])
		c++
	}
	for i, ev := range log.Events {
		if ev.Skipped == "" && (ev.Kind == Leave || ev.Kind == Kill) {
			gone[ev.Member] = true
			for _, o := range owners {
				delete(o, ev.Member)
			}
		}
		since := int64(-1)
		if stable() {
			since = ev.AtUs
		}
		for c < len(changes) && changes[c].AtUs < spanEnd(i) && changes[c].AtUs <= log.EndUs {
			apply(changes[c])
			switch {
			case !stable():
				since = -1
			case since < 0:
				since = changes[c].AtUs
			}
			c++
		}
		if since >= 0 {
			s := seconds(since - ev.AtUs)
			out[i].StableS = &s
		}
	}
}

// pauses finds, per partition, the gaps between deliveries of new records (records the
// partition had not delivered before, consumed at one moment) while a record was waiting,
// and keeps each event's longest of those that ended in its span. A delivery of re-read records only
// ends no pause: the application is still waiting for the records after them.
func pauses(r Records, order []int, events []Event, out []Figures, spanEnd func(int) int64) {
	type state struct {
		next, last int64 // the offset after the highest delivered; when new records last came
	}
	parts := map[int32]*state{}
	for k := 0; k < len(order); {
		i := order[k]
		p, at := r.Partition[i], r.ConsumedUs[i]
		st, seen := parts[p]
		if !seen {
			st = &state{next: -1}
			parts[p] = st
		}
		produced, next := int64(math.MaxInt64), st.next
		for ; k < len(order) && r.ConsumedUs[order[k]] == at && r.Partition[order[k]] == p; k++ {
			if j := order[k]; r.Offset[j] >= st.next {
				produced = min(produced, r.ProducedUs[j])
				next = max(next, r.Offset[j]+1)
			}
		}
		if next == st.next {
			continue // re-reads only
		}
		prev := st.last
		st.next, st.last = next, at
		if !seen {
			continue
		}
		start := max(prev, produced)
		if at <= start {
			continue
		}
		// The pause is the last event's that came before it ended: a pause caused by an
		// event starts a moment before it (the partition's last delivery).
		e := eventIndex(events, at-1)
		if e >= 0 && seconds(at-start) > out[e].PauseS {
			out[e].PauseS, out[e].PausePartition = seconds(at-start), p
		}
	}
}

// redeliveries counts, per event span, the records consumed at an offset below the highest
// one already consumed from their partition.
func redeliveries(r Records, order []int, events []Event, out []Figures, spanEnd func(int) int64) {
	next := map[int32]int64{}
	for _, i := range order {
		p, off := r.Partition[i], r.Offset[i]
		n, seen := next[p]
		if seen && off < n {
			if e := eventIndex(events, r.ConsumedUs[i]); e >= 0 && r.ConsumedUs[i] < spanEnd(e) {
				out[e].Redelivered++
			}
		}
		if !seen || off+1 > n {
			next[p] = off + 1
		}
	}
}

// tails takes the end-to-end p99 of the records consumed in the window before each event
// and in the window after it.
func tails(r Records, events []Event, out []Figures, windowUs int64) {
	for e, ev := range events {
		var before, after []int64
		for i := range r.Partition {
			at := r.ConsumedUs[i]
			switch {
			case at >= ev.AtUs-windowUs && at < ev.AtUs:
				before = append(before, at-r.ProducedUs[i])
			case at >= ev.AtUs && at < ev.AtUs+windowUs:
				after = append(after, at-r.ProducedUs[i])
			}
		}
		out[e].P99BeforeMs, out[e].RecordsBefore = p99Ms(before), len(before)
		out[e].P99AfterMs, out[e].RecordsAfter = p99Ms(after), len(after)
	}
}

// p99Ms is the nearest-rank 99th percentile of latencies in microseconds, in milliseconds.
func p99Ms(us []int64) float64 {
	if len(us) == 0 {
		return 0
	}
	slices.Sort(us)
	rank := int(math.Ceil(0.99*float64(len(us)))) - 1
	return float64(us[rank]) / 1e3
}
