package faults

import (
	"context"
	"fmt"
	"time"
)

// healTimeout bounds a heal that runs after Run's context is done: a restart must finish
// even when the run is being cut short, so that no broker is left down or stopped.
const healTimeout = 3 * time.Minute

// Run applies the plan's steps to t in order, each when due (from the call) and after the
// previous one is healed, and heals each after its Hold. onEvent (may be nil) is called
// when a fault has taken effect and again when it is healed, with the same Step. It
// returns the events; on error or when ctx ends it still heals what it injected, and
// returns the events so far with an error that says how far the plan got.
func Run(ctx context.Context, p Plan, t Target, onEvent func(Event)) ([]Event, error) {
	if err := t.Check(ctx, p); err != nil {
		return nil, err
	}
	emit := func(e Event) {
		if onEvent != nil {
			onEvent(e)
		}
	}
	start := time.Now()
	var events []Event
	for i, s := range p.Steps {
		if err := sleep(ctx, time.Until(start.Add(s.At))); err != nil {
			return events, fmt.Errorf("fault plan stopped before fault %d of %d (%s): %w", i+1, len(p.Steps), s.Kind(), err)
		}
		e := Event{Step: i, Kind: s.Kind(), At: time.Now()}
		inj, err := t.Inject(ctx, s)
		e.Broker, e.Partition, e.Detail, e.Applied = inj.Broker, inj.Partition, inj.Detail, time.Now()
		if err != nil {
			if inj.Heal != nil {
				// Half applied (signalled, but not yet exited): still undone.
				events = append(events, heal(ctx, e, inj, emit))
			}
			return events, fmt.Errorf("fault %d of %d (%s): %w", i+1, len(p.Steps), s.Kind(), err)
		}
		events = append(events, e)
		emit(e)
		held := sleep(ctx, s.Hold)
		e = heal(ctx, e, inj, emit)
		events[len(events)-1] = e
		if e.HealedAt.IsZero() && inj.Heal != nil {
			return events, fmt.Errorf("heal fault %d of %d (%s): %s", i+1, len(p.Steps), s.Kind(), e.HealDetail)
		}
		if held != nil {
			return events, fmt.Errorf("fault plan stopped during fault %d of %d (%s), healed: %w", i+1, len(p.Steps), s.Kind(), held)
		}
	}
	return events, nil
}

// heal undoes inj, with a context that outlives ctx by at most healTimeout, and records
// the outcome in e; a failed heal leaves HealedAt zero and the error in HealDetail.
func heal(ctx context.Context, e Event, inj Injection, emit func(Event)) Event {
	if inj.Heal == nil {
		return e
	}
	hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), healTimeout)
	defer cancel()
	e.HealAt = time.Now()
	detail, err := inj.Heal(hctx)
	if err != nil {
		e.HealDetail = err.Error()
		return e
	}
	e.HealedAt, e.HealDetail = time.Now(), detail
	emit(e)
	return e
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
