package claim

import (
	"fmt"
	"slices"
	"strings"
)

// Canonical metric names, the keys of [Repeat.Values].
const (
	RecordsPerSec = "records_per_sec"
	MBPerSec      = "mb_per_sec"
	P50           = "p50"
	P95           = "p95"
	P99           = "p99"
	P999          = "p999"
	MaxLatency    = "max"
	AvgLatency    = "avg"
	BrokerCPU     = "broker_cpu"
	ClientCPU     = "client_cpu"
	// Capacity is a capacity search's answer in one repeat: the lower end of the bracket
	// (the highest offered rate that met the SLO) of the scenario's first SLO, the lowest
	// percentile, in records/s.
	Capacity = "capacity"
	// Pause, TimeToStable and Redelivered are a repeat's membership events' figures (the
	// longest pause and time to stable of any event, the re-deliveries of all).
	Pause        = "pause"
	TimeToStable = "time_to_stable"
	Redelivered  = "redelivered"
	// PauseJoin, PauseLeave and PauseKill are the longest pause at the events of one kind.
	PauseJoin  = "pause_join"
	PauseLeave = "pause_leave"
	PauseKill  = "pause_kill"
)

// metricAliases maps every accepted spelling to its canonical name.
var metricAliases = map[string]string{
	"records_per_sec": RecordsPerSec,
	"throughput":      RecordsPerSec,
	"rps":             RecordsPerSec,
	"mb_per_sec":      MBPerSec,
	"mbps":            MBPerSec,
	"p50":             P50,
	"p95":             P95,
	"p99":             P99,
	"p999":            P999,
	"p99.9":           P999,
	"max":             MaxLatency,
	"avg":             AvgLatency,
	"broker_cpu":      BrokerCPU,
	"cpu":             BrokerCPU,
	"client_cpu":      ClientCPU,
	"capacity":        Capacity,
	"pause":           Pause,
	"time_to_stable":  TimeToStable,
	"redelivered":     Redelivered,
	"pause_join":      PauseJoin,
	"pause_leave":     PauseLeave,
	"pause_kill":      PauseKill,
}

// metricUnits gives the unit each canonical metric is compared in, for verdict sentences.
var metricUnits = map[string]string{
	RecordsPerSec: "records/s",
	MBPerSec:      "MiB/s",
	P50:           "ms",
	P95:           "ms",
	P99:           "ms",
	P999:          "ms",
	MaxLatency:    "ms",
	AvgLatency:    "ms",
	BrokerCPU:     "cores",
	ClientCPU:     "cores",
	Capacity:      "records/s",
	Pause:         "s",
	TimeToStable:  "s",
	Redelivered:   "records",
	PauseJoin:     "s",
	PauseLeave:    "s",
	PauseKill:     "s",
}

// Metrics returns the canonical metric names, sorted.
func Metrics() []string {
	out := make([]string, 0, len(metricUnits))
	for m := range metricUnits {
		out = append(out, m)
	}
	slices.Sort(out)
	return out
}

// Unit returns the unit a canonical metric is compared in ("" if unknown).
func Unit(metric string) string { return metricUnits[metric] }

// canonicalMetric resolves an alias, or explains the valid choices.
func canonicalMetric(name string) (string, error) {
	if m, ok := metricAliases[strings.ToLower(name)]; ok {
		return m, nil
	}
	names := make([]string, 0, len(metricAliases))
	for a := range metricAliases {
		names = append(names, a)
	}
	slices.Sort(names)
	return "", fmt.Errorf("unknown metric %q (valid: %s)", name, strings.Join(names, ", "))
}

// The aggregates a side may apply to several scenarios.
const (
	Mean = "mean"
	Min  = "min"
	Max  = "max"
)

func isAggregate(name string) bool { return name == Mean || name == Min || name == Max }

// IsLatency reports whether a canonical metric is a latency figure, which is a statistic
// of one scenario's records and does not average across scenarios.
func IsLatency(metric string) bool { return Unit(metric) == "ms" }

// checkAggregate refuses a mean of latency figures: the mean of several scenarios' p99s is
// not the p99 of their records together (a scenario with a long tail is diluted by calm
// ones), and a mean of means weighs scenarios with few records like those with many.
func checkAggregate(agg, metric string) error {
	if agg == Mean && IsLatency(metric) {
		return fmt.Errorf("mean(%s(...)) is refused: a mean of several scenarios' %s is not the %s of their records together; "+
			"name one scenario, or compare the worst or the best with max(%s(...)) or min(%s(...))", metric, metric, metric, metric, metric)
	}
	return nil
}
