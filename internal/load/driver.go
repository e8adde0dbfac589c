package load

import (
	"context"
	"fmt"
)

// Driver runs producer trials, on this host (Producers) or split over remote agents
// (agent.Producers): a caller that holds a Driver never asks where the load runs, and
// every trial comes back as one ProduceResult, merged across hosts when there are several.
type Driver interface {
	// Trial sends s and returns its accounting: every record handed over is acknowledged,
	// failed or unsent when it returns.
	Trial(ctx context.Context, s Schedule, tick func(Tick)) (*ProduceResult, error)
	// Close releases the driver's clients.
	Close()
}

var _ Driver = (*Producers)(nil)

// Schedule is cfg's own schedule (rate, records, duration, warm-up), defaults applied: what
// a one-shot run sends through a Driver.
func (c ProducerConfig) Schedule() Schedule {
	d := c.withDefaults()
	return d.schedule()
}

// Validate checks cfg as Produce does before opening anything.
func (c ProducerConfig) Validate() error {
	d := c.withDefaults()
	if err := d.validate(); err != nil {
		return fmt.Errorf("invalid producer configuration: %w", err)
	}
	return nil
}
