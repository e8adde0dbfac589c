package faults

import (
	"testing"
	"time"
)

func TestPhases(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	at := func(sec float64) time.Time { return t0.Add(time.Duration(sec * float64(time.Second))) }
	type ph struct {
		name     string
		from, to float64
		fault    int
	}
	for _, tc := range []struct {
		name       string
		events     []Event
		start, end float64
		want       []ph
	}{
		{"no faults", nil, 0, 60, []ph{{PhaseSteady, 0, 60, -1}}},
		// A SIGTERM at 10 s takes 2 s to shut down, is restarted at 15 s, listens at 25 s.
		{"one term", []Event{{At: at(10), Applied: at(12), HealAt: at(15), HealedAt: at(25)}}, 0, 60, []ph{
			{PhaseSteady, 0, 10, -1}, {PhaseInject, 10, 12, 0}, {PhaseImpact, 12, 15, 0},
			{PhaseHeal, 15, 25, 0}, {PhaseRecover, 25, 60, 0}}},
		// Two SIGKILLs (inject takes no time: no inject phase); the first's recover ends at
		// the second's start.
		{"two kills", []Event{
			{At: at(5), Applied: at(5), HealAt: at(10), HealedAt: at(12)},
			{At: at(20), Applied: at(20), HealAt: at(25), HealedAt: at(30)},
		}, 0, 40, []ph{
			{PhaseSteady, 0, 5, -1}, {PhaseImpact, 5, 10, 0}, {PhaseHeal, 10, 12, 0}, {PhaseRecover, 12, 20, 0},
			{PhaseImpact, 20, 25, 1}, {PhaseHeal, 25, 30, 1}, {PhaseRecover, 30, 40, 1}}},
		// Never healed (the run was cut short): impact until the end.
		{"not healed", []Event{{At: at(5), Applied: at(6)}}, 0, 20, []ph{
			{PhaseSteady, 0, 5, -1}, {PhaseInject, 5, 6, 0}, {PhaseImpact, 6, 20, 0}}},
		// The run's window starts after the fault began and ends during the heal: clipped.
		{"clipped", []Event{{At: at(5), Applied: at(6), HealAt: at(10), HealedAt: at(15)}}, 8, 12, []ph{
			{PhaseImpact, 8, 10, 0}, {PhaseHeal, 10, 12, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Phases(tc.events, at(tc.start), at(tc.end))
			if len(got) != len(tc.want) {
				t.Fatalf("got %d phases %+v, want %d", len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Name != w.name || !g.Start.Equal(at(w.from)) || !g.End.Equal(at(w.to)) || g.Fault != w.fault {
					t.Errorf("phase %d = %s %s..%s fault %d, want %s %gs..%gs fault %d", i, g.Name,
						g.Start.Sub(t0), g.End.Sub(t0), g.Fault, w.name, w.from, w.to, w.fault)
				}
			}
		})
	}
}
