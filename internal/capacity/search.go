package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// search is the state of one Search: every trial, and per rate the trial time that passed
// and failed each SLO.
type search struct {
	cfg    Config
	trials []Trial
	rates  map[float64]*evidence
	// max is the unthrottled trial's achieved rate, where the search starts.
	max float64
}

// evidence is the trial time spent at one rate, how much of it failed each SLO, and its
// full-length trials: how many ran and, per SLO, how many failed.
type evidence struct {
	total      time.Duration
	failed     []time.Duration
	full       int
	fullFailed []int
}

// Search finds, for every SLO of cfg, the bracket [highest passing, lowest failing] rate,
// running trials through run. It returns what it has with the error of a trial that could
// not run, or of a cancelled ctx.
func Search(ctx context.Context, cfg Config, run TrialFunc) (*Result, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s := &search{cfg: cfg, rates: map[float64]*evidence{}}
	o, err := run(ctx, 0, cfg.Short)
	if err != nil {
		return s.result(), fmt.Errorf("unthrottled trial: %w", err)
	}
	s.record(0, cfg.Short, o)
	if o.Achieved <= 0 {
		return s.result(), errors.New("the unthrottled trial acknowledged no record: there is no rate to search from")
	}
	s.max = o.Achieved
	for len(s.trials) < cfg.MaxTrials {
		rate, d, ok := s.next()
		if !ok {
			break
		}
		if err := ctx.Err(); err != nil {
			return s.result(), err
		}
		o, err := run(ctx, rate, d)
		if err != nil {
			return s.result(), fmt.Errorf("trial at %.0f records/s: %w", rate, err)
		}
		s.record(rate, d, o)
	}
	return s.result(), nil
}

func (c Config) validate() error {
	var errs []error
	if len(c.SLOs) == 0 {
		errs = append(errs, errors.New("at least one slo is required"))
	}
	if c.Precision <= 0 || c.Precision >= 1 {
		errs = append(errs, fmt.Errorf("precision %v is not between 0 and 1", c.Precision))
	}
	if c.Trial <= 0 || c.Short <= 0 || c.Short > c.Trial {
		errs = append(errs, fmt.Errorf("trial %v and short trial %v must be above zero, the short one not longer", c.Trial, c.Short))
	}
	if c.MinRate <= 0 || c.MaxTrials < 2 {
		errs = append(errs, fmt.Errorf("min rate %v must be above zero and max trials %d at least 2", c.MinRate, c.MaxTrials))
	}
	return errors.Join(errs...)
}

// record judges o against every SLO and adds it to the trials and, for a paced trial, to
// its rate's evidence.
func (s *search) record(rate float64, d time.Duration, o Outcome) {
	t := Trial{N: len(s.trials) + 1, Offered: rate, Duration: d, Achieved: o.Achieved, outcome: o}
	if o.Acked > 0 && o.Achieved > 0 {
		t.MiBPerSec = o.Achieved * float64(o.Bytes) / float64(o.Acked) / (1 << 20)
	}
	if o.Latency != nil {
		t.P50, t.P99, t.P999 = o.Latency.Quantile(0.50), o.Latency.Quantile(0.99), o.Latency.Quantile(0.999)
		t.P50Ms, t.P99Ms, t.P999Ms = msf(t.P50), msf(t.P99), msf(t.P999)
	}
	if h := o.SendLatency; h != nil && h.Count() > 0 {
		t.SendP50Ms, t.SendP99Ms, t.SendP999Ms = msf(h.Quantile(0.50)), msf(h.Quantile(0.99)), msf(h.Quantile(0.999))
	}
	var common []string
	if rate > 0 {
		common = judgeCommon(o, rate)
	} else {
		common = []string{"unthrottled: buffer-bound, bounds the search only"}
	}
	ev := s.rates[rate]
	if ev == nil && rate > 0 {
		ev = &evidence{failed: make([]time.Duration, len(s.cfg.SLOs)), fullFailed: make([]int, len(s.cfg.SLOs))}
		s.rates[rate] = ev
	}
	for i, slo := range s.cfg.SLOs {
		why := append([]string(nil), common...)
		if r := judgeSLO(o, slo); r != "" {
			why = append(why, r)
		}
		t.Pass = append(t.Pass, len(why) == 0)
		t.Reasons = append(t.Reasons, why)
		if ev != nil && len(why) > 0 {
			ev.failed[i] += d
			if d >= s.cfg.Trial {
				ev.fullFailed[i]++
			}
		}
	}
	if ev != nil {
		ev.total += d
		if d >= s.cfg.Trial {
			ev.full++
		}
	}
	s.trials = append(s.trials, t)
	if s.cfg.Progress != nil {
		s.cfg.Progress(t)
	}
}

// fails says whether rate is an upper bound for SLO i: the majority of its trial time
// failed, so a short trial that failed by a hiccup is outweighed by a full one that passed;
// or one of its full-length trials failed once it had the Confirm full-length trials a
// lower end needs, so the lower end reported passed every full-length trial run at it.
func (s *search) fails(i int, rate float64) bool {
	ev := s.rates[rate]
	return 2*ev.failed[i] > ev.total || (ev.full >= s.cfg.Confirm && ev.fullFailed[i] > 0)
}

// bracket returns SLO i's lowest failing rate and highest passing rate below it; 0 for none.
func (s *search) bracket(i int) (lower, upper float64) {
	for r := range s.rates {
		if s.fails(i, r) && (upper == 0 || r < upper) {
			upper = r
		}
	}
	for r := range s.rates {
		if !s.fails(i, r) && r > lower && (upper == 0 || r < upper) {
			lower = r
		}
	}
	return lower, upper
}

// next returns the next trial: the first SLO whose bracket is not done decides it.
func (s *search) next() (rate float64, d time.Duration, ok bool) {
	for i := range s.cfg.SLOs {
		if rate, d, ok := s.step(i); ok {
			return rate, d, true
		}
	}
	return 0, 0, false
}

// step returns SLO i's next trial, or !ok when its bracket is done (or cannot narrow).
func (s *search) step(i int) (rate float64, d time.Duration, ok bool) {
	c := s.cfg
	lower, upper := s.bracket(i)
	switch {
	case lower == 0 && upper == 0: // only the unthrottled trial so far: try its rate
		return roundRate(s.max), c.Short, true
	case upper == 0: // every rate tried passed
		return roundRate(2 * lower), c.Short, true
	case lower == 0: // every rate tried failed
		r := max(roundRate(upper/2), c.MinRate)
		return r, c.Short, r < upper
	}
	ratio := upper / lower
	if ratio <= 1+c.Precision {
		// Near the boundary: the lower end is confirmed by Confirm full-length trials (one
		// that fails makes it an upper bound, and the search goes on below it), the upper
		// end measured at full length, before they count.
		if s.rates[lower].full < c.Confirm {
			return lower, c.Trial, true
		}
		if s.rates[upper].full < 1 {
			return upper, c.Trial, true
		}
		return 0, 0, false
	}
	mid := roundRate(math.Sqrt(lower * upper))
	if mid <= lower || mid >= upper {
		return 0, 0, false
	}
	d = c.Short
	if ratio <= (1+c.Precision)*(1+c.Precision) {
		d = c.Trial // the last halvings are full-length
	}
	return mid, d, true
}

// roundRate rounds to a whole record/s, at least 1.
func roundRate(r float64) float64 { return max(1, math.Round(r)) }

func msf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
