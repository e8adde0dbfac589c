package main

import (
	"bufio"
	"context"
	"net/http"
	"strconv"
	"strings"
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
	// requests is the Produce requests all brokers served during the run (0 when a broker's
	// count could not be read): records / requests is how many records each carried.
	requests float64
}

// sampleBrokers samples c's brokers every second until the returned function is called,
// which returns their Produce request time over that stretch.
func sampleBrokers(ctx context.Context, c *cluster.Cluster) (func() brokerTime, error) {
	var targets []metrics.BrokerTarget
	for _, b := range c.Brokers() {
		targets = append(targets, metrics.BrokerTarget{ID: b.ID, PID: b.PID, MetricsURL: b.MetricsURL, Combined: b.Controller})
	}
	s, err := metrics.NewSampler(metrics.SamplerConfig{Proc: "/proc", Brokers: targets, Interval: time.Second})
	if err != nil {
		return nil, err
	}
	before, okBefore := produceRequests(ctx, c)
	s.Start(ctx)
	return func() brokerTime {
		bt := produceTime(s.Stop())
		if after, ok := produceRequests(ctx, c); ok && okBefore {
			bt.requests = after - before
		}
		return bt
	}, nil
}

// produceRequestsKey is Kafka's lifetime count of Produce requests in the exporter's text.
const produceRequestsKey = `kafka_network_requests_total{request="Produce"`

// produceRequests is the Produce requests c's brokers served so far, summed; false when a
// broker's count could not be read.
func produceRequests(ctx context.Context, c *cluster.Cluster) (float64, bool) {
	var sum float64
	for _, b := range c.Brokers() {
		if b.MetricsURL == "" {
			return 0, false
		}
		n, ok := scrapeCount(ctx, b.MetricsURL, produceRequestsKey)
		if !ok {
			return 0, false
		}
		sum += n
	}
	return sum, true
}

// scrapeCount reads the value of the first sample whose name and labels start with key.
func scrapeCount(ctx context.Context, url, key string) (float64, bool) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, false
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for sc.Scan() {
		l := sc.Text()
		if !strings.HasPrefix(l, key) {
			continue
		}
		f := strings.Fields(l)
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		return v, err == nil
	}
	return 0, false
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
