package verify

import (
	"testing"
	"time"

	"github.com/kbench/kbench/internal/faults"
)

// rows makes one-second rows from per-second acknowledged and failed counts.
func rows(acked, failed []int64) []Row {
	out := make([]Row, len(acked))
	for i := range acked {
		out[i] = Row{At: float64(i + 1), Seconds: 1, Acked: acked[i], Failed: failed[i]}
	}
	return out
}

func TestAvailability(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return start.Add(time.Duration(s * float64(time.Second))) }
	span := func(name string, from, to float64) faults.Phase {
		return faults.Phase{Name: name, Start: at(from), End: at(to)}
	}
	tests := []struct {
		name        string
		acked       []int64
		failed      []int64
		events      []faults.Event
		phases      []faults.Phase
		wantPhases  []PhaseStats
		wantResumed []float64
	}{
		{
			name:       "no fault: all steady",
			acked:      []int64{100, 100, 100},
			failed:     []int64{0, 0, 0},
			wantPhases: []PhaseStats{{Phase: faults.PhaseSteady, Seconds: 3, Acked: 300}},
		},
		{
			// Rate 100/s, a leader killed at 2.5 s, restarted from 5.0 to 6.0 s. Rows
			// (interval: acked): [0,1) 100, [1,2) 100, [2,3) 20 (injected in it), [3,4) 10,
			// [4,5) 80 (>= 50: resumed at its start, 4.0 - 2.5 = 1.5 s), [5,6) 80, [6,7)
			// 95, [7,8) 100. Middles: 0.5 1.5 steady; 2.5 3.5 4.5 impact [2.5, 5); 5.5 heal
			// [5, 6); 6.5 7.5 recover [6, 8).
			name:   "one leader kill",
			acked:  []int64{100, 100, 20, 10, 80, 80, 95, 100},
			failed: []int64{0, 0, 5, 7, 0, 0, 0, 0},
			events: []faults.Event{{Kind: "leader-kill", At: at(2.5), Applied: at(2.5), HealAt: at(5), HealedAt: at(6)}},
			phases: []faults.Phase{span(faults.PhaseSteady, 0, 2.5), span(faults.PhaseImpact, 2.5, 5),
				span(faults.PhaseHeal, 5, 6), span(faults.PhaseRecover, 6, 8)},
			wantResumed: []float64{1.5},
			wantPhases: []PhaseStats{
				{Phase: faults.PhaseSteady, Seconds: 2, Acked: 200},
				{Phase: faults.PhaseImpact, Seconds: 3, Acked: 20 + 10 + 80, Failed: 5 + 7},
				{Phase: faults.PhaseHeal, Seconds: 1, Acked: 80},
				{Phase: faults.PhaseRecover, Seconds: 2, Acked: 95 + 100},
			},
		},
		{
			// A controlled shutdown: inject [1, 2.2) while leadership moves, writes dip in
			// [2,3) 30 and [3,4) 40, back at [4,5) 60 (>= 50: resumed 4.0 - 2.2 = 1.8 s
			// after the fault took effect). Middles: 0.5 steady, 1.5 inject, 2.5 3.5 4.5
			// impact [2.2, 5).
			name:   "term: inject then impact",
			acked:  []int64{100, 100, 30, 40, 60},
			failed: []int64{0, 0, 0, 2, 0},
			events: []faults.Event{{Kind: "leader-term", At: at(1), Applied: at(2.2)}},
			phases: []faults.Phase{span(faults.PhaseSteady, 0, 1), span(faults.PhaseInject, 1, 2.2),
				span(faults.PhaseImpact, 2.2, 5)},
			wantResumed: []float64{1.8},
			wantPhases: []PhaseStats{
				{Phase: faults.PhaseSteady, Seconds: 1, Acked: 100},
				{Phase: faults.PhaseInject, Seconds: 1, Acked: 100},
				{Phase: faults.PhaseImpact, Seconds: 3, Acked: 30 + 40 + 60, Failed: 2},
			},
		},
		{
			// The injection's own second [2,3) has 70 >= 50: resumed at once, 0 s.
			name:        "no visible impact",
			acked:       []int64{100, 100, 70, 100},
			failed:      []int64{0, 0, 0, 0},
			events:      []faults.Event{{Kind: "follower-kill", At: at(2.0)}},
			wantResumed: []float64{0},
			wantPhases:  []PhaseStats{{Phase: faults.PhaseSteady, Seconds: 4, Acked: 370}},
		},
		{
			// Writes never resume after the fault at 1.0: -1.
			name:        "never resumed",
			acked:       []int64{100, 0, 0},
			failed:      []int64{0, 3, 4},
			events:      []faults.Event{{Kind: "pause", At: at(1.0)}},
			phases:      []faults.Phase{span(faults.PhaseSteady, 0, 1), span(faults.PhaseImpact, 1, 3)},
			wantResumed: []float64{-1},
			wantPhases: []PhaseStats{
				{Phase: faults.PhaseSteady, Seconds: 1, Acked: 100},
				{Phase: faults.PhaseImpact, Seconds: 2, Failed: 7},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phases, recs := Availability(rows(tt.acked, tt.failed), 100, start, tt.events, tt.phases)
			if len(phases) != len(tt.wantPhases) {
				t.Fatalf("phases = %+v, want %+v", phases, tt.wantPhases)
			}
			for i := range phases {
				if phases[i] != tt.wantPhases[i] {
					t.Errorf("phase %d = %+v, want %+v", i, phases[i], tt.wantPhases[i])
				}
			}
			if len(recs) != len(tt.wantResumed) {
				t.Fatalf("recoveries = %+v, want %d", recs, len(tt.wantResumed))
			}
			for i, r := range recs {
				if d := r.ResumedAfter - tt.wantResumed[i]; d > 1e-9 || d < -1e-9 {
					t.Errorf("fault %d resumed after %v, want %v", i, r.ResumedAfter, tt.wantResumed[i])
				}
			}
		})
	}
}
