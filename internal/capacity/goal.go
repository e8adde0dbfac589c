package capacity

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// Goal is a search goal in the sense of RFC 9971 (MLRsearch): what a load must show, over
// the sum of its trials, to count as sustained. A latency SLO maps onto it exactly: "p99 <=
// 50 ms" is a goal loss ratio of 1 % (at most 1 % of due records late, failed or unsent).
type Goal struct {
	// FinalTrial is the Goal Final Trial Duration: shorter trials are short trials, which
	// can make a load an upper bound but never a lower bound.
	FinalTrial time.Duration
	// DurationSum is the Goal Duration Sum: how much full-length trial time a load needs
	// before its classification stops depending on trials not yet run.
	DurationSum time.Duration
	// LossRatio is the Goal Loss Ratio: a trial whose loss ratio is above it is high-loss.
	LossRatio float64
	// ExceedRatio is the Goal Exceed Ratio: the share of the duration sum that may be
	// high-loss while the load still counts as a lower bound.
	ExceedRatio float64
}

// Code is the goal's dense code as RFC 9971 writes it: final trial seconds "f", duration
// sum seconds "d", loss ratio percent "l", exceed ratio percent "e": 20f40d1l50e.
func (g Goal) Code() string {
	// Rounded to a millionth: 1 - 99/100 is 0.010000000000000009 in binary.
	num := func(v float64) string { return strconv.FormatFloat(math.Round(v*1e6)/1e6, 'f', -1, 64) }
	return num(g.FinalTrial.Seconds()) + "f" + num(g.DurationSum.Seconds()) + "d" +
		num(100*g.LossRatio) + "l" + num(100*g.ExceedRatio) + "e"
}

func (g Goal) validate() error {
	switch {
	case g.FinalTrial <= 0 || g.DurationSum < g.FinalTrial:
		return fmt.Errorf("goal %s: the duration sum must be at least one final trial", g.Code())
	case g.LossRatio < 0 || g.LossRatio >= 1:
		return fmt.Errorf("goal %s: loss ratio must be in [0, 1)", g.Code())
	case g.ExceedRatio < 0 || g.ExceedRatio >= 1:
		return fmt.Errorf("goal %s: exceed ratio must be in [0, 1)", g.Code())
	}
	return nil
}

// Class is a load's classification against one goal.
type Class int

// The classes of a load.
const (
	Undecided Class = iota
	LowerBound
	UpperBound
)

func (c Class) String() string {
	return [...]string{"undecided", "lower bound", "upper bound"}[c]
}

// trialResult is what classification reads of one trial at a load: its length and loss
// ratio (RFC 9971's Trial Effective Duration equals the trial's duration here).
type trialResult struct {
	duration  time.Duration
	lossRatio float64
	// phase is what the trial was for: each goal of a search reads its own phases' trials.
	phase Phase
	// latency is the SLO's percentile of the trial's latency (0 with nothing measured).
	latency time.Duration
}

// sums are the four sums RFC 9971's Appendix A classifies a load from.
type sums struct {
	fullLow, fullHigh, shortLow, shortHigh float64 // seconds
}

func (g Goal) sums(trials []trialResult) sums {
	var s sums
	for _, t := range trials {
		sec := t.duration.Seconds()
		full, high := t.duration >= g.FinalTrial, t.lossRatio > g.LossRatio
		switch {
		case full && high:
			s.fullHigh += sec
		case full:
			s.fullLow += sec
		case high:
			s.shortHigh += sec
		default:
			s.shortLow += sec
		}
	}
	return s
}

// Classify is RFC 9971 Appendix A: a load is a lower bound when even the pessimistic
// reading (every trial second still missing from the duration sum high-loss) keeps the
// high-loss share within the exceed ratio, an upper bound when even the optimistic one
// (every missing second low-loss) does not, and undecided otherwise. Short low-loss trials
// only balance short high-loss ones; short high-loss time beyond that counts in full.
func (g Goal) Classify(trials []trialResult) Class {
	c := g.classify(trials)
	switch {
	case c.pessimisticLower && c.optimisticLower:
		return LowerBound
	case !c.pessimisticLower && !c.optimisticLower:
		return UpperBound
	}
	return Undecided
}

// classification holds Appendix A's results: the two readings, and the high-loss shares
// they rest on (RFC 9971's optimistic and pessimistic exceed ratios).
type classification struct {
	pessimisticLower, optimisticLower             bool
	optimisticExceedRatio, pessimisticExceedRatio float64
}

func (g Goal) classify(trials []trialResult) classification {
	s := g.sums(trials)
	exceedCoefficient := g.ExceedRatio / (1 - g.ExceedRatio)
	balancing := s.shortLow * exceedCoefficient
	positiveExcess := max(0, s.shortHigh-balancing)
	effectHigh := s.fullHigh + positiveExcess
	effectFull := s.fullLow + effectHigh
	effectWhole := max(effectFull, g.DurationSum.Seconds())
	quantile := effectWhole * g.ExceedRatio
	pessimisticHigh := effectWhole - s.fullLow
	return classification{
		pessimisticLower: pessimisticHigh <= quantile, optimisticLower: effectHigh <= quantile,
		optimisticExceedRatio: effectHigh / effectWhole, pessimisticExceedRatio: pessimisticHigh / effectWhole,
	}
}

// ConditionalThroughput is RFC 9971 Appendix B: the load times one minus the loss ratio
// at the goal's exceed quantile of its full-length trials (sorted by loss ratio): the rate
// the load delivered within the goal. 0 without a full-length trial.
func (g Goal) ConditionalThroughput(load float64, trials []trialResult) float64 {
	var full []trialResult
	for _, t := range trials {
		if t.duration >= g.FinalTrial {
			full = append(full, t)
		}
	}
	if len(full) == 0 {
		return 0
	}
	slices.SortStableFunc(full, func(a, b trialResult) int {
		switch {
		case a.lossRatio < b.lossRatio:
			return -1
		case a.lossRatio > b.lossRatio:
			return 1
		}
		return 0
	})
	s := g.sums(full)
	whole := max(g.DurationSum.Seconds(), s.fullLow+s.fullHigh)
	remaining := whole * (1 - g.ExceedRatio)
	quantileLoss, set := 0.0, false
	for _, t := range full {
		if set && remaining <= 0 {
			break
		}
		quantileLoss, set = t.lossRatio, true
		remaining -= t.duration.Seconds()
	}
	if remaining > 0 {
		quantileLoss = 1
	}
	return load * (1 - quantileLoss)
}
