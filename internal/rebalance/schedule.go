// Package rebalance measures what a consumer group's members feel when membership changes:
// a schedule of events (a consumer joins, leaves, is killed, stalls), the log a consume run
// records of them (assignments and every record's consumption time), and the figures per
// event computed from that log alone, so a run directory can recompute them.
package rebalance

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Kind is what happens to the group at an event.
type Kind string

// The event kinds.
const (
	// Join starts one more consumer in the group.
	Join Kind = "join"
	// Leave stops a consumer gracefully: it leaves the group (LeaveGroup, or a final
	// heartbeat with epoch -1 under the consumer protocol).
	Leave Kind = "leave"
	// Kill stops a consumer as a crash does: its connections drop and it never leaves, so
	// the coordinator notices only when its session times out.
	Kill Kind = "kill"
	// Stall stops a consumer from processing for a while (a slow handler); it stays in the
	// group.
	Stall Kind = "stall"
)

// Kinds are the event kinds, in the order the docs list them.
var Kinds = []Kind{Join, Leave, Kill, Stall}

// Scheduled is one event of a schedule.
type Scheduled struct {
	Kind Kind
	// At is the event's time from the start of the measured window.
	At time.Duration
	// For is a stall's length (0 for the other kinds).
	For time.Duration
}

// String writes the event as the schedule spells it: "kill@20s", "stall@10s/2s".
func (s Scheduled) String() string {
	if s.Kind == Stall {
		return fmt.Sprintf("%s@%v/%v", s.Kind, s.At, s.For)
	}
	return fmt.Sprintf("%s@%v", s.Kind, s.At)
}

// ScheduleSyntax describes a schedule, for errors and docs.
const ScheduleSyntax = "events such as \"join@20s, leave@40s, kill@60s, stall@80s/2s\" (kind@time from the window's start; a stall's length after /)"

// ParseSchedule parses a comma-separated schedule. Events come in time order, at distinct
// times, so that each one's figures cover the time until the next.
func ParseSchedule(text string) ([]Scheduled, error) {
	var out []Scheduled
	for part := range strings.SplitSeq(text, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		ev, err := parseEvent(part)
		if err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && ev.At <= out[n-1].At {
			return nil, fmt.Errorf("event %q is not after %q: list events in time order", part, out[n-1])
		}
		out = append(out, ev)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%q holds no event; want %s", text, ScheduleSyntax)
	}
	return out, nil
}

func parseEvent(part string) (Scheduled, error) {
	kind, when, ok := strings.Cut(part, "@")
	ev := Scheduled{Kind: Kind(strings.TrimSpace(kind))}
	if !ok {
		return ev, fmt.Errorf("%q is not kind@time; want %s", part, ScheduleSyntax)
	}
	if !slices.Contains(Kinds, ev.Kind) {
		return ev, fmt.Errorf("%q: event kind %q is not join, leave, kill or stall", part, ev.Kind)
	}
	at, length, hasLength := strings.Cut(strings.TrimSpace(when), "/")
	var err error
	if ev.At, err = time.ParseDuration(at); err != nil || ev.At <= 0 {
		return ev, fmt.Errorf("%q: %q is not a positive time such as 20s", part, at)
	}
	switch {
	case ev.Kind == Stall && !hasLength:
		return ev, fmt.Errorf("%q: a stall needs its length, as in stall@%s/2s", part, at)
	case ev.Kind != Stall && hasLength:
		return ev, fmt.Errorf("%q: only a stall takes a length", part)
	case hasLength:
		if ev.For, err = time.ParseDuration(length); err != nil || ev.For <= 0 {
			return ev, fmt.Errorf("%q: %q is not a positive length such as 2s", part, length)
		}
	}
	return ev, nil
}

// FormatSchedule writes a schedule back in its own syntax.
func FormatSchedule(s []Scheduled) string {
	parts := make([]string, len(s))
	for i, ev := range s {
		parts[i] = ev.String()
	}
	return strings.Join(parts, ", ")
}
