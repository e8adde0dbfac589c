package agent

import (
	"fmt"
	"maps"
	"slices"
	"time"
)

// detector finds an agent that went silent: every message from an agent (heartbeats
// included) is proof of life, and one silent for longer than the limit is dead or
// stopped (killed, paused, cut off from the brokers). It reads no clock: the caller passes
// the time, so tests drive it with literal instants.
type detector struct {
	limit time.Duration
	last  map[string]time.Time
}

// newDetector watches agents, each last seen at now.
func newDetector(agents []string, now time.Time, limit time.Duration) *detector {
	d := &detector{limit: limit, last: map[string]time.Time{}}
	for _, a := range agents {
		d.last[a] = now
	}
	return d
}

// seen records a message from agent at now; agents not watched are ignored.
func (d *detector) seen(agent string, now time.Time) {
	if _, ok := d.last[agent]; ok && now.After(d.last[agent]) {
		d.last[agent] = now
	}
}

// check returns an error naming the agent silent longest, if any is past the limit.
func (d *detector) check(now time.Time) error {
	worst, silent := "", time.Duration(0)
	for _, a := range slices.Sorted(maps.Keys(d.last)) {
		if s := now.Sub(d.last[a]); s > d.limit && s > silent {
			worst, silent = a, s
		}
	}
	if worst == "" {
		return nil
	}
	return fmt.Errorf("agent %s silent for %.1f s (no heartbeat; the limit is %v)", worst, silent.Seconds(), d.limit)
}
