package verify

import (
	"time"

	"github.com/kbench/kbench/internal/faults"
)

// Row is one second of the load, for the availability timeline.
type Row struct {
	// At is the end of the interval, seconds since the load began; Seconds its length.
	At      float64
	Seconds float64
	// Acked and Failed records in the interval.
	Acked  int64
	Failed int64
	// Due-time latency of the interval's acknowledgements, milliseconds.
	P50Ms float64
	P99Ms float64
}

// resumedShare of the offered rate acknowledged in a second means writes resumed after a
// fault.
const resumedShare = 0.5

// PhaseStats sums the rows of one kind of phase (steady, inject, impact, heal, recover;
// see internal/faults) over the whole run.
type PhaseStats struct {
	Phase   string
	Seconds float64
	Acked   int64
	Failed  int64
}

// Recovery is what one fault did to the writes.
type Recovery struct {
	Fault faults.Event
	// InjectedAt and AppliedAt are seconds since the load began: when the fault began and
	// when it took effect (a SIGTERM's controlled shutdown takes a while). ResumedAfter is
	// the seconds from AppliedAt to the start of the first second (the one it took effect
	// in included, then 0) in which acknowledgements reached half the offered rate; -1 when
	// they never did. It is as fine as the rows: a second.
	InjectedAt   float64
	AppliedAt    float64
	ResumedAfter float64
}

// phaseOrder is the order phases are listed in.
var phaseOrder = []string{faults.PhaseSteady, faults.PhaseInject, faults.PhaseImpact, faults.PhaseHeal, faults.PhaseRecover}

// Availability sums the rows by phase and says how long after each fault the writes
// resumed. rate is the offered rate in records/s, start the load's start; phases are the
// time ranges of internal/faults (faults.Phases). A row belongs to the phase holding its
// middle, steady when none does.
func Availability(rows []Row, rate float64, start time.Time, events []faults.Event, phases []faults.Phase) ([]PhaseStats, []Recovery) {
	var recs []Recovery
	for _, e := range events {
		applied := e.Applied
		if applied.IsZero() {
			applied = e.At
		}
		at := applied.Sub(start).Seconds()
		rec := Recovery{Fault: e, InjectedAt: e.At.Sub(start).Seconds(), AppliedAt: at, ResumedAfter: -1}
		for _, r := range rows {
			if r.At > at && perSecond(r) >= resumedShare*rate {
				rec.ResumedAfter = max(r.At-r.Seconds, at) - at
				break
			}
		}
		recs = append(recs, rec)
	}
	sums := map[string]*PhaseStats{}
	for _, r := range rows {
		mid := start.Add(time.Duration((r.At - r.Seconds/2) * float64(time.Second)))
		name := faults.PhaseSteady
		for _, p := range phases {
			if !mid.Before(p.Start) && mid.Before(p.End) {
				name = p.Name
				break
			}
		}
		ps := sums[name]
		if ps == nil {
			ps = &PhaseStats{Phase: name}
			sums[name] = ps
		}
		ps.Seconds += r.Seconds
		ps.Acked += r.Acked
		ps.Failed += r.Failed
	}
	var out []PhaseStats
	for _, p := range phaseOrder {
		if s := sums[p]; s != nil {
			out = append(out, *s)
		}
	}
	return out, recs
}

func perSecond(r Row) float64 {
	if r.Seconds <= 0 {
		return 0
	}
	return float64(r.Acked) / r.Seconds
}
