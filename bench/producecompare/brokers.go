package main

import (
	"context"
	"os"
	"time"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/metrics"
)

// brokerTime is the brokers' own Produce request time (Kafka's RequestMetrics TotalTimeMs,
// from the JMX exporter) during one run: the slowest broker's.
type brokerTime struct {
	// meanMs is the exact mean over the run's seconds (from the lifetime count and mean).
	meanMs float64
	// p50Ms and p99Ms are Kafka's own percentiles at the run's end; Kafka computes them over
	// an exponentially decaying reservoir weighted to the last few minutes, so they lean
	// on the runs just before as well.
	p50Ms, p99Ms float64
	ok           bool
}

// sampleBrokers samples c's brokers every second until the returned function is called,
// which returns their Produce request time over that stretch.
func sampleBrokers(ctx context.Context, c *cluster.Cluster) (func() brokerTime, error) {
	var targets []metrics.BrokerTarget
	for _, b := range c.Brokers() {
		targets = append(targets, metrics.BrokerTarget{ID: b.ID, PID: b.PID, MetricsURL: b.MetricsURL, Combined: b.Controller})
	}
	s, err := metrics.NewSampler(metrics.SamplerConfig{Proc: os.DirFS("/proc"), Brokers: targets, Interval: time.Second})
	if err != nil {
		return nil, err
	}
	s.Start(ctx)
	return func() brokerTime { return produceTime(s.Stop()) }, nil
}

// produceTime is the slowest broker's Produce time in series.
func produceTime(series metrics.Series) brokerTime {
	var bt brokerTime
	for _, b := range series.Brokers {
		var sum float64
		var n int
		var last metrics.Row
		for _, r := range b.Rows {
			if v, ok := r.Values[metrics.FieldProduceTimeMean]; ok {
				sum += v
				n++
			}
			if _, ok := r.Values[metrics.FieldProduceTimeP50]; ok {
				last = r
			}
		}
		if n == 0 {
			continue
		}
		bt.ok = true
		bt.meanMs = max(bt.meanMs, sum/float64(n))
		bt.p50Ms = max(bt.p50Ms, last.Values[metrics.FieldProduceTimeP50])
		bt.p99Ms = max(bt.p99Ms, last.Values[metrics.FieldProduceTimeP99])
	}
	return bt
}
