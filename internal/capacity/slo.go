package capacity

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/stats"
)

// SLO is one latency bound on due-time latency: the Percentile (99 for p99, 99.9 for p999)
// must be at most Limit.
type SLO struct {
	Percentile float64
	Limit      time.Duration
}

// LossRatio is the SLO as a goal loss ratio: the share of due records that may be late
// (0.01 for p99).
func (s SLO) LossRatio() float64 { return 1 - s.Percentile/100 }

// Name is the percentile's short name: p99, p999, p9999, p50.
func (s SLO) Name() string { return s.record().Name() }

// String is "p99 <= 50 ms", as the run directory's SLO says it.
func (s SLO) String() string { return s.record().String() }

// record is the SLO as the run directory keeps it.
func (s SLO) record() results.CapacitySLO {
	return results.CapacitySLO{Percentile: s.Percentile, LimitMs: msf(s.Limit)}
}

// ParseSLOs reads "p99=50ms" or several, comma-separated: "p99=50ms,p999=200ms". A percentile
// is p followed by its digits (p50, p99, p999 = 99.9, p9999 = 99.99) or written with its
// point (p99.9); a limit is a Go duration above zero.
func ParseSLOs(s string) ([]SLO, error) {
	var slos []SLO
	seen := map[float64]bool{}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		name, limit, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("slo %q is not percentile=limit (for example p99=50ms)", part)
		}
		p, err := parsePercentile(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		d, err := time.ParseDuration(strings.TrimSpace(limit))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("slo %q: limit %q is not a duration above zero (for example 50ms)", part, limit)
		}
		if seen[p] {
			return nil, fmt.Errorf("slo %q: percentile given twice", part)
		}
		seen[p] = true
		slos = append(slos, SLO{Percentile: p, Limit: d})
	}
	return slos, nil
}

// parsePercentile reads p99, p999, p99.9 in either case (see stats.ParsePercentile).
func parsePercentile(name string) (float64, error) {
	p, ok := stats.ParsePercentile(strings.ToLower(name))
	if !ok {
		return 0, fmt.Errorf("slo percentile %q is not p50, p99, p999, p9999 or p99.9 (a percentile below 100)", name)
	}
	return p, nil
}

// ParsePrecision reads "5%" or "0.05": the largest width of the final bracket, as a fraction
// of its lower end.
func ParsePrecision(s string) (float64, error) {
	v, ok := stats.ParseFraction(s)
	if !ok {
		return 0, errors.New("--precision " + strconv.Quote(s) + " is not a fraction between 0 and 1 (for example 5% or 0.05)")
	}
	return v, nil
}

// ParseExceedRatio reads "50%" or "0.5": the share of a rate's trial time that may miss
// the SLO while the rate still counts as sustained, from 0 (none) to below 1.
func ParseExceedRatio(s string) (float64, error) {
	v, ok := stats.ParseFraction(s)
	if !ok && strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%")) == "0" {
		return 0, nil
	}
	if !ok {
		return 0, errors.New("--exceed-ratio " + strconv.Quote(s) + " is not a fraction from 0 to below 1 (for example 50% or 0.5)")
	}
	return v, nil
}
