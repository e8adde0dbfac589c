package verify

import (
	"testing"
	"time"
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
	tests := []struct {
		name        string
		acked       []int64
		failed      []int64
		faults      []FaultEvent
		wantPhases  []PhaseStats
		wantResumed []float64
	}{
		{
			name:       "no fault: all steady",
			acked:      []int64{100, 100, 100},
			failed:     []int64{0, 0, 0},
			wantPhases: []PhaseStats{{Phase: PhaseSteady, Seconds: 3, Acked: 300}},
		},
		{
			// Rate 100/s. Fault at 2.5 s, healed at 6.0 s. Rows (interval: acked):
			// [0,1) 100, [1,2) 100, [2,3) 20 (injected in it), [3,4) 10, [4,5) 80 (>= 50:
			// resumed at its start, 4.0 - 2.5 = 1.5 s), [5,6) 80, [6,7) 95 (>= 90 and
			// starts at healed 6.0: recovered at 6.0, so recover is empty), [7,8) 100.
			// Middles: 0.5 1.5 steady; 2.5 3.5 impact [2.5, 4.0); 4.5 5.5 heal [4.0, 6.0);
			// 6.5 7.5 steady.
			name:        "one leader kill",
			acked:       []int64{100, 100, 20, 10, 80, 80, 95, 100},
			failed:      []int64{0, 0, 5, 7, 0, 0, 0, 0},
			faults:      []FaultEvent{{At: at(2.5), Kind: "leader-kill", Healed: at(6.0)}},
			wantResumed: []float64{1.5},
			wantPhases: []PhaseStats{
				{Phase: PhaseSteady, Seconds: 4, Acked: 100 + 100 + 95 + 100},
				{Phase: PhaseImpact, Seconds: 2, Acked: 20 + 10, Failed: 5 + 7},
				{Phase: PhaseHeal, Seconds: 2, Acked: 80 + 80},
			},
		},
		{
			// Fault at 1.0 healed at 3.0, but writes come back slowly: [1,2) 0, [2,3) 0,
			// [3,4) 40, [4,5) 60 (>= 50: resumed at 4.0, 3 s after the fault), [5,6) 85,
			// [6,7) 100 (>= 90, starts after healed = max(3.0, resumed 4.0): recovered
			// at 6.0). Middles: 0.5 steady; 1.5 2.5 3.5 impact [1, 4); heal [4, 4) is
			// empty; 4.5 5.5 recover [4, 6); 6.5 steady.
			name:        "slow recovery after heal",
			acked:       []int64{100, 0, 0, 40, 60, 85, 100},
			failed:      []int64{0, 10, 10, 0, 0, 0, 0},
			faults:      []FaultEvent{{At: at(1.0), Kind: "leader-kill", Healed: at(3.0)}},
			wantResumed: []float64{3},
			wantPhases: []PhaseStats{
				{Phase: PhaseSteady, Seconds: 2, Acked: 100 + 100},
				{Phase: PhaseImpact, Seconds: 3, Acked: 0 + 0 + 40, Failed: 20},
				{Phase: PhaseRecover, Seconds: 2, Acked: 60 + 85},
			},
		},
		{
			// Writes barely dip: the injection's own second [2,3) has 70 >= 50, so they
			// resumed at once (0 s) and the impact span [2.0, 2.0) is empty; healed at
			// 3.0, [3,4) 100 recovers at once. Middle 2.5 lies in heal [2.0, 3.0).
			name:        "no visible impact",
			acked:       []int64{100, 100, 70, 100},
			failed:      []int64{0, 0, 0, 0},
			faults:      []FaultEvent{{At: at(2.0), Kind: "follower-kill", Healed: at(3.0)}},
			wantResumed: []float64{0},
			wantPhases: []PhaseStats{
				{Phase: PhaseSteady, Seconds: 3, Acked: 300},
				{Phase: PhaseHeal, Seconds: 1, Acked: 70},
			},
		},
		{
			// Writes never resume: -1, and impact runs to the end (rows 2 and 3).
			name:        "never resumed",
			acked:       []int64{100, 0, 0},
			failed:      []int64{0, 3, 4},
			faults:      []FaultEvent{{At: at(1.0), Kind: "pause"}},
			wantResumed: []float64{-1},
			wantPhases: []PhaseStats{
				{Phase: PhaseSteady, Seconds: 1, Acked: 100},
				{Phase: PhaseImpact, Seconds: 2, Failed: 7},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phases, recs := Availability(rows(tt.acked, tt.failed), 100, start, tt.faults)
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
				if r.ResumedAfter != tt.wantResumed[i] {
					t.Errorf("fault %d resumed after %v, want %v", i, r.ResumedAfter, tt.wantResumed[i])
				}
			}
		})
	}
}
