package observe

import (
	"context"

	"github.com/kbench/kbench/internal/load"
)

// Driver returns d with its trials fed to s: each trial's ticks, then its result. A
// capacity search runs many trials on one driver, and its own code passes no tick; this is
// how its load reaches the page and /metrics. Settle probes are the trials without warm-up
// (every search trial has one), shown as the phase "settle". A nil s returns d itself.
func (s *Series) Driver(d load.Driver) load.Driver {
	if s == nil {
		return d
	}
	return &observedDriver{Driver: d, s: s}
}

type observedDriver struct {
	load.Driver
	s *Series
}

func (o *observedDriver) Trial(ctx context.Context, sch load.Schedule, tick func(load.Tick)) (*load.ProduceResult, error) {
	probe := sch.Warmup == 0
	if probe {
		o.s.Phase("settle")
	}
	res, err := o.Driver.Trial(ctx, sch, func(t load.Tick) {
		phase := "measured"
		switch {
		case probe:
			phase = "settle"
		case t.Warmup:
			phase = "warm-up"
		}
		o.s.produceTick(t, nil, phase)
		if tick != nil {
			tick(t)
		}
	})
	o.s.Produced(res)
	return res, err
}
