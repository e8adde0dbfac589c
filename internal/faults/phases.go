package faults

import (
	"slices"
	"time"
)

// The phases of a run under faults, as chaos harnesses name them.
const (
	// PhaseSteady has no fault in effect and none being recovered from.
	PhaseSteady = "steady"
	// PhaseInject runs from a fault's start until it has taken effect (a SIGTERM's
	// controlled shutdown; an instant for SIGKILL, SIGSTOP and a cut).
	PhaseInject = "inject"
	// PhaseImpact has the fault in effect: the broker down, stopped or cut.
	PhaseImpact = "impact"
	// PhaseHeal runs while the fault is undone: a broker restarting until it is registered
	// again.
	PhaseHeal = "heal"
	// PhaseRecover follows a heal until the next fault or the run's end: the broker
	// catching up and rejoining the ISR, clients finding the leaders again.
	PhaseRecover = "recover"
)

// Phase is a time range of the run.
type Phase struct {
	Name  string
	Start time.Time
	End   time.Time
	// Fault is the index in the events of the fault the phase belongs to, -1 for steady.
	Fault int
}

// Phases cuts [start, end) into phases from the events (as Run returns them; faults do not
// overlap): steady until the first fault, then for each fault inject, impact, heal and
// recover, recover lasting until the next fault or end. A fault never healed stays in
// impact until end. Empty phases are left out, and every phase is clipped to [start, end).
func Phases(events []Event, start, end time.Time) []Phase {
	events = slices.Clone(events)
	slices.SortStableFunc(events, func(a, b Event) int { return a.At.Compare(b.At) })
	var out []Phase
	add := func(name string, from, to time.Time, fault int) {
		from, to = clip(from, start, end), clip(to, start, end)
		if to.After(from) {
			out = append(out, Phase{Name: name, Start: from, End: to, Fault: fault})
		}
	}
	add(PhaseSteady, start, firstAt(events, end), -1)
	for i, e := range events {
		next := end
		if i+1 < len(events) {
			next = events[i+1].At
		}
		applied := orElse(e.Applied, e.At)
		add(PhaseInject, e.At, applied, i)
		if e.HealedAt.IsZero() {
			add(PhaseImpact, applied, next, i)
			continue
		}
		healAt := orElse(e.HealAt, e.HealedAt)
		add(PhaseImpact, applied, healAt, i)
		add(PhaseHeal, healAt, e.HealedAt, i)
		add(PhaseRecover, e.HealedAt, next, i)
	}
	return out
}

func firstAt(events []Event, end time.Time) time.Time {
	if len(events) == 0 {
		return end
	}
	return events[0].At
}

func orElse(t, other time.Time) time.Time {
	if t.IsZero() {
		return other
	}
	return t
}

func clip(t, lo, hi time.Time) time.Time {
	if t.Before(lo) {
		return lo
	}
	if t.After(hi) {
		return hi
	}
	return t
}
