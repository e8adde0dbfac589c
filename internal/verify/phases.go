package verify

import "time"

// Row is one second of the load, for the availability timeline.
type Row struct {
	// At is the end of the interval, seconds since the load began; Seconds its length.
	At      float64 `json:"at"`
	Seconds float64 `json:"seconds"`
	// Acked and Failed records in the interval.
	Acked  int64 `json:"acked"`
	Failed int64 `json:"failed"`
	// Due-time latency of the interval's acknowledgements, milliseconds.
	P50Ms float64 `json:"p50_ms"`
	P99Ms float64 `json:"p99_ms"`
}

// The phases of a run under faults, as chaos harnesses name them.
const (
	PhaseSteady  = "steady"  // no fault active, writes at the offered rate
	PhaseImpact  = "impact"  // from a fault's injection until writes resumed
	PhaseHeal    = "heal"    // writes resumed, the fault not yet healed (a broker still down)
	PhaseRecover = "recover" // healed, until writes are back near the offered rate
)

// resumedShare of the offered rate acknowledged in a second means writes resumed after a
// fault; recoveredShare means the run is back to its steady state.
const (
	resumedShare   = 0.5
	recoveredShare = 0.9
)

// PhaseStats sums the rows of one phase.
type PhaseStats struct {
	Phase   string  `json:"phase"`
	Seconds float64 `json:"seconds"`
	Acked   int64   `json:"acked"`
	Failed  int64   `json:"failed"`
}

// Recovery is what one fault did to the writes.
type Recovery struct {
	Fault FaultEvent `json:"fault"`
	// InjectedAt is seconds since the load began. ResumedAfter is the seconds from the
	// injection to the start of the first second (the injection's own included, then 0) in
	// which acknowledgements reached half the offered rate; -1 when they never did. It is
	// as fine as the rows: a second.
	InjectedAt   float64 `json:"injected_at"`
	ResumedAfter float64 `json:"resumed_after"`
}

// Availability splits rows into phases around the faults and says how long after each
// fault the writes resumed. rate is the offered rate in records/s, start the load's start.
// Each row belongs to the phase of its middle; impact wins over heal over recover.
func Availability(rows []Row, rate float64, start time.Time, faults []FaultEvent) ([]PhaseStats, []Recovery) {
	type span struct {
		phase    string
		from, to float64
	}
	var spans []span
	var recs []Recovery
	end := 0.0
	if len(rows) > 0 {
		end = rows[len(rows)-1].At
	}
	for _, f := range faults {
		at := f.At.Sub(start).Seconds()
		rec := Recovery{Fault: f, InjectedAt: at, ResumedAfter: -1}
		resumed := end
		for _, r := range rows {
			if r.At > at && perSecond(r) >= resumedShare*rate {
				resumed = max(r.At-r.Seconds, at)
				rec.ResumedAfter = resumed - at
				break
			}
		}
		recs = append(recs, rec)
		spans = append(spans, span{PhaseImpact, at, resumed})
		healed := end
		if !f.Healed.IsZero() {
			healed = max(f.Healed.Sub(start).Seconds(), resumed)
		}
		spans = append(spans, span{PhaseHeal, resumed, healed})
		recovered := end
		for _, r := range rows {
			if r.At-r.Seconds >= healed && perSecond(r) >= recoveredShare*rate {
				recovered = r.At - r.Seconds
				break
			}
		}
		spans = append(spans, span{PhaseRecover, healed, recovered})
	}
	order := []string{PhaseSteady, PhaseImpact, PhaseHeal, PhaseRecover}
	rank := map[string]int{PhaseSteady: 0, PhaseRecover: 1, PhaseHeal: 2, PhaseImpact: 3}
	sums := map[string]*PhaseStats{}
	for _, r := range rows {
		mid := r.At - r.Seconds/2
		phase := PhaseSteady
		for _, s := range spans {
			if mid >= s.from && mid < s.to && rank[s.phase] > rank[phase] {
				phase = s.phase
			}
		}
		ps := sums[phase]
		if ps == nil {
			ps = &PhaseStats{Phase: phase}
			sums[phase] = ps
		}
		ps.Seconds += r.Seconds
		ps.Acked += r.Acked
		ps.Failed += r.Failed
	}
	var out []PhaseStats
	for _, p := range order {
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
