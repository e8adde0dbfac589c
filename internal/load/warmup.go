package load

import (
	"context"
	"math"
	"time"

	"github.com/kbench/kbench/internal/stats"
)

// ClusterWarmup is the unmeasured load put on a freshly started cluster: a cold Kafka runs
// 2-5x slower until its JIT has compiled the hot paths (a capacity search on a cluster just
// started measured 23,703 records/s unthrottled, and 121,815 90 s later), which would
// penalise whatever is measured first.
const ClusterWarmup = 15 * time.Second

// MaxClusterWarmup bounds a warm-up that goes on while the cluster still speeds up: after
// `kbench cluster up`'s 15 s, 5 s unthrottled runs in a row still reached 17,270, 28,180,
// 36,124, 59,577 and 53,392 records/s on this 2-core host, where the JIT competes with the
// load for the cores.
const MaxClusterWarmup = time.Minute

// warmSlice is how long each measured slice of a warm-up runs; warmClimb and warmPatience
// are the rule that ends it (stats.Warming).
const (
	warmSlice    = 5 * time.Second
	warmClimb    = 0.10
	warmPatience = 2
)

// Warmed is what a warm-up did: how long it ran and each slice's acknowledged records/s.
type Warmed struct {
	Took  time.Duration
	Rates []float64
}

// WarmUp produces 1 KiB records unthrottled with acks=all to topic, measuring nothing but
// its own rate: for atLeast, then on while the rate still climbs (stats.Warming, slices of
// 5 s, patience 2), up to atMost. The caller creates the topic (replicated, a few
// partitions per broker) and deletes it after. props are the connection's client
// properties.
func WarmUp(ctx context.Context, bootstrap string, props map[string]string, topic string, atLeast, atMost time.Duration) (Warmed, error) {
	p := map[string]string{"acks": "all", "linger.ms": "5"}
	for k, v := range props {
		p[k] = v
	}
	var w Warmed
	for w.Took < atLeast || (w.Took < atMost && stats.Warming(w.Rates, warmClimb, warmPatience)) {
		d := min(warmSlice, max(atLeast, atMost)-w.Took)
		res, err := Produce(ctx, ProducerConfig{Bootstrap: bootstrap, Topic: topic, Properties: p,
			Producers: 1, RecordSize: 1024, Duration: d, Keys: KeysNone}, nil)
		if err != nil {
			return w, err
		}
		w.Took += d
		w.Rates = append(w.Rates, res.Total.RecordsPerSec)
	}
	return w, nil
}

// The settling phase: after the unthrottled one, a paced rate held while its latency still
// falls. The cluster's latency at a rate it carries goes on falling for minutes after its
// unthrottled rate stopped climbing: on three brokers here, right after that warm-up,
// 60,000 records/s averaged 10.2, 4.2, 2.4 and 1.7 ms in 30 s windows, then 1.7-2.7 ms; in
// another run 12.3, 7.2, 4.8, 2.8 and 8.5 ms over three minutes, then 1.6-3.7 ms. A search
// that met such a cluster first would fail rates it passes minutes later.
const (
	// MaxClusterSettle bounds the settling phase.
	MaxClusterSettle = 3 * time.Minute
	// SettleShare is the share of the warm-up's best unthrottled slice that the settling
	// phase offers: a rate the cluster carries with room to spare, so that its latency
	// shows the cluster settling rather than a backlog. The capacity searches' lower ends
	// lay at 0.13-0.86 of their unthrottled rate (median 0.54); at 0.7 a fresh 3-broker
	// cluster's latency on the warm-up's topic (three replicas) rose, 11.9, 25.6, 188.0,
	// 45.1 and 36.8 ms a slice at 35,078 records/s: past its knee.
	SettleShare = 0.4
	settleSlice = 15 * time.Second
	// settleFall and settlePatience are the rule's climb on the inverse of the mean latency
	// and how many slices it looks back: the phase goes on while one of the last four
	// slices' mean latency fell more than 9% (1/1.1) below the lowest before it. A slice's
	// mean is noisy (settled 30 s windows read 1.6-3.7 ms, and a stall of 0.4 s triples a
	// slice): looking back two slices, the rule stopped while the latency was still falling
	// in half the simulated clusters (TestSettleStopsOnceLatencySettled), four, in 4.5%.
	settleFall     = 0.10
	settlePatience = 4
)

// Settled is what a settling phase did: how long it ran, the rate it offered, and each
// slice's mean latency in ms.
type Settled struct {
	Took  time.Duration
	Rate  float64
	AvgMs []float64
}

// Settle produces 1 KiB records with acks=all to topic at rate records/s, in slices of
// 15 s, while the mean latency still falls (stats.Warming on its inverse: one of the last
// four slices 9% below the lowest before it; five slices at least), up to atMost.
// A rate the cluster cannot carry builds a backlog whose latency rises: that ends it too.
func Settle(ctx context.Context, bootstrap string, props map[string]string, topic string, rate float64, atMost time.Duration) (Settled, error) {
	p := map[string]string{"acks": "all", "linger.ms": "5"}
	for k, v := range props {
		p[k] = v
	}
	s := Settled{Rate: rate}
	var speeds []float64
	for s.Took < atMost && stats.Warming(speeds, settleFall, settlePatience) {
		d := min(settleSlice, atMost-s.Took)
		res, err := Produce(ctx, ProducerConfig{Bootstrap: bootstrap, Topic: topic, Properties: p,
			Producers: 1, RecordSize: 1024, Duration: d, Rate: rate, Keys: KeysNone}, nil)
		if err != nil {
			return s, err
		}
		s.Took += d
		// From each record's due time: a backlog shows as latency.
		avg := res.Total.DueLatency.AvgUs / 1000
		s.AvgMs = append(s.AvgMs, avg)
		// A slice under a microsecond on average reads as one: the rule compares ratios.
		speeds = append(speeds, 1/math.Max(avg, 0.001))
	}
	return s, nil
}
