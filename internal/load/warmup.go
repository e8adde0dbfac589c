package load

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/numfmt"
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
	// Climbing is true when its bound ended it while the rate still climbed by the rule
	// (stats.Warming): brokers under a CPU quota compile for minutes (three at 0.3 core
	// climbed from 1,300 to 11,923 records/s in a minute, and a search right after reached
	// 68,380 unthrottled), and what is measured first then meets a colder cluster.
	Climbing bool
}

// String says it in one line: "warm after 45s: 5,624, 9,810, ... records/s in its 5 s
// slices", or, when the bound came first, "still warming when its 1m0s ended: ...".
func (w Warmed) String() string {
	parts := make([]string, len(w.Rates))
	for i, r := range w.Rates {
		parts[i] = numfmt.Whole(r)
	}
	rates := fmt.Sprintf("%s records/s in its %d s slices", strings.Join(parts, ", "), int(warmSlice.Seconds()))
	if w.Climbing {
		return fmt.Sprintf("still warming when its %s ended: %s, still climbing: what is measured first meets a colder cluster", w.Took, rates)
	}
	return fmt.Sprintf("warm after %s: %s", w.Took, rates)
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
	w.Climbing = stillClimbing(w.Rates)
	return w, nil
}

// stillClimbing reports whether a warm-up's slices still climb by its rule. Fewer slices
// than the rule's patience cannot tell (stats.Warming says yes to them, to go on).
func stillClimbing(rates []float64) bool {
	return len(rates) > warmPatience && stats.Warming(rates, warmClimb, warmPatience)
}

// WarmRule says how long a warm-up bounded by atMost runs, as WarmCluster runs it.
func WarmRule(atMost time.Duration) string {
	if atLeast := min(ClusterWarmup, atMost); atLeast < atMost {
		return fmt.Sprintf("%s, and on while one of its last two %d s slices beat every earlier one by more than %.0f%%, up to %s",
			atLeast, int(warmSlice.Seconds()), warmClimb*100, atMost)
	}
	return atMost.String()
}

// WarmTarget is a cluster just started, to be warmed: where to produce, how many brokers it
// has, and how the caller creates and deletes the warm-up topic, through its own record of
// what kbench made.
type WarmTarget struct {
	Bootstrap string
	Props     map[string]string
	Brokers   int
	Topic     string
	Create    func(ctx context.Context, topic string, partitions, replicas int) error
	Delete    func(ctx context.Context, topic string) error
}

// WarmCluster puts unmeasured load on a cluster just started, as WarmRule(atMost) says, on a
// replicated topic of three partitions per broker that it deletes after, and logs the rule
// (with skip, how the user turns it off) and what it did. A cold Kafka runs 2-5x slower
// until its JIT has compiled the hot paths: whatever is measured first would pay for it.
func WarmCluster(ctx context.Context, t WarmTarget, atMost time.Duration, skip string, log io.Writer) error {
	fmt.Fprintf(log, "warming up the cluster's JIT for %s (unmeasured; %s)\n", WarmRule(atMost), skip)
	if err := t.Create(ctx, t.Topic, 3*t.Brokers, min(3, t.Brokers)); err != nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	warmed, err := WarmUp(ctx, t.Bootstrap, t.Props, t.Topic, min(ClusterWarmup, atMost), atMost)
	if err == nil {
		fmt.Fprintln(log, warmed)
	}
	if derr := t.Delete(ctx, t.Topic); err == nil {
		err = derr
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("warm-up: %w", err)
	}
	return ctx.Err()
}
