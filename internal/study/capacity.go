package study

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/stats"
)

// Defaults of a scenario's capacity search: kbench capacity's, taken from the search.
const (
	DefaultCapacityPrecision   = capacity.DefaultPrecision
	DefaultCapacityTrial       = capacity.DefaultTrial
	DefaultCapacityExceedRatio = capacity.DefaultExceedRatio
	DefaultCapacityConfirm     = capacity.DefaultConfirm
	DefaultCapacityMaxDuration = capacity.DefaultMaxDuration
	MinCapacityTrial           = capacity.MinTrial
)

// parseSLO checks one capacity.slo entry: a percentile name (p50, p99, p999 = 99.9,
// p99.9) and a latency limit above zero. It returns the name as written.
func parseSLO(name, value string) (string, time.Duration, error) {
	if _, err := Percentile(name); err != nil {
		return "", 0, err
	}
	d, err := time.ParseDuration(value)
	if err != nil || d <= 0 {
		return "", 0, fmt.Errorf("slo %s: %q is not a latency above zero such as 50ms", name, value)
	}
	return name, d, nil
}

// Percentile reads p99, p999 (99.9), p99.9 (see stats.ParsePercentile).
func Percentile(name string) (float64, error) {
	p, ok := stats.ParsePercentile(name)
	if !ok {
		return 0, fmt.Errorf("%q is not a percentile such as p50, p99, p999 or p99.9", name)
	}
	return p, nil
}

// parsePrecision reads "5%" or "0.05".
func parsePrecision(s string) (float64, error) {
	v, ok := stats.ParseFraction(s)
	if !ok {
		return 0, fmt.Errorf("%q is not a precision between 0 and 1, such as 5%% or 0.05", s)
	}
	return v, nil
}

// SLOString is the scenario's SLOs as kbench capacity's --slo takes them, percentiles in
// increasing order: "p99=50ms,p999=200ms".
func (c Capacity) SLOString() string {
	type slo struct {
		name string
		p    float64
	}
	var list []slo
	for name := range c.SLO {
		p, _ := Percentile(name)
		list = append(list, slo{name, p})
	}
	slices.SortFunc(list, func(a, b slo) int { return cmp.Compare(a.p, b.p) })
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = s.name + "=" + c.SLO[s.name].String()
	}
	return strings.Join(parts, ",")
}

// SearchDuration is a capacity search's typical time per repeat, at most its budget: the
// two unthrottled trials and four coarse ones (a quarter of a trial, at least 2 s), four
// full-length ones and the confirmation, each after its warm-up and a 1 s settle probe.
// Noise adds re-tests; the budget bounds them.
func (c Capacity) SearchDuration(warmup time.Duration) time.Duration {
	if !c.Enabled() {
		return 0
	}
	short := capacity.Config{Trial: c.Trial}.Filled().Short // the search's own default
	typical := 6*short + 4*c.Trial + c.Confirm + 11*(warmup+time.Second)
	return min(typical, c.MaxDuration)
}

// parseExceedRatio reads "50%" or "0.5", or 0.
func parseExceedRatio(s string) (float64, error) {
	if v, ok := stats.ParseFraction(s); ok {
		return v, nil
	}
	if t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")); t == "0" {
		return 0, nil
	}
	return 0, fmt.Errorf("%q is not an exceed ratio from 0 to below 1, such as 50%% or 0.5", s)
}

// validate checks the search's durations against each other.
func (c Capacity) validate() error {
	switch {
	case !c.Enabled():
		return nil
	case c.DurationSum > 0 && c.DurationSum < c.Trial:
		return fmt.Errorf("capacity.duration_sum %v is shorter than capacity.trial %v", c.DurationSum, c.Trial)
	case c.Confirm < c.Trial:
		return fmt.Errorf("capacity.confirm %v is shorter than capacity.trial %v", c.Confirm, c.Trial)
	case c.MaxDuration <= 0:
		return fmt.Errorf("capacity.max_duration %v must be above zero", c.MaxDuration)
	}
	return nil
}
