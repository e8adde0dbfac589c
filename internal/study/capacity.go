package study

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/stats"
)

// Defaults of a scenario's capacity search, the same as kbench capacity's.
const (
	DefaultCapacityPrecision = 0.05
	DefaultCapacityTrial     = 20 * time.Second
	DefaultCapacityMaxTrials = 20
	// MinCapacityTrial is the shortest trial: its short trials last a quarter of it, and
	// below a second they hold too few acknowledgements for a p99.
	MinCapacityTrial = 4 * time.Second
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

// SearchDuration bounds a capacity search's time per repeat: every trial at full length,
// each after its warm-up.
func (c Capacity) SearchDuration(warmup time.Duration) time.Duration {
	if !c.Enabled() {
		return 0
	}
	return time.Duration(c.MaxTrials) * (warmup + c.Trial)
}
