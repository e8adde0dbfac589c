package load

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/metrics"
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
// load for the cores. The rule ends it once the brokers are warm, so the bound only lets it
// go on: on a host of SHA-256 at 1,282-1,457 MB/s a core, three brokers still had their JIT
// compilers at 0.4 cores when a minute ended, and the first capacity search found 39,047
// records/s where the second found 60,433; given up to 5 minutes they were warm after 1 m
// 40 s, and the first search found 56,533 among 54,117 and 62,383. Studies have their own
// bound (cluster.jit_warmup), counted in their estimate.
const MaxClusterWarmup = 3 * time.Minute

// warmSlice is how long each measured slice of a warm-up runs; warmClimb and warmPatience
// are the rule that ends it (stats.Warming).
const (
	warmSlice    = 5 * time.Second
	warmClimb    = 0.10
	warmPatience = 2
)

// warmBuffer is each slice's producer buffer (buffer.memory), 1 MiB: a slice ends by waiting
// for every record it buffered, and Java's 32 MiB made the quick study's 15 s warm-up take
// 36.7 s on a host where its slices ran 2,900-6,300 records/s (32,768 records of 1 KiB to
// drain after each); one producer's pipeline needs far less (5 requests in flight per broker
// of at most one 16 KiB batch each: 240 KiB on three brokers).
const warmBuffer = "1048576"

// Warmed is what a warm-up did: how long it ran and each slice's acknowledged records/s.
type Warmed struct {
	Took  time.Duration
	Rates []float64
	// JITCores is the CPU the brokers' JIT compiler threads used in each slice, summed over
	// the brokers, in cores; nil when their processes could not be read (not on this host).
	JITCores []float64
	// Climbing and Compiling say why a warm-up its bound ended was not warm yet: the rate
	// still climbed by the rule (stats.Warming), or the compilers still used more than
	// jitBusy in the last slice. Brokers under a CPU quota compile for minutes while the
	// quota holds the warm-up's rate flat (three at 0.3 core: a plateau at 5,511 records/s
	// after 35 s, and a search right after climbed from 14,799 to 89,381 unthrottled).
	Climbing, Compiling bool
}

// String says it in one line: "warm after 45s: 5,624, 9,810, ... records/s in its 5 s
// slices[; the brokers' JIT compilers used ... cores in them]", or, when the bound came
// first, "still warming when its 1m0s ended (...): ...".
func (w Warmed) String() string {
	parts := make([]string, len(w.Rates))
	for i, r := range w.Rates {
		parts[i] = numfmt.Whole(r)
	}
	rates := fmt.Sprintf("%s records/s in its %d s slices", strings.Join(parts, ", "), int(warmSlice.Seconds()))
	if len(w.JITCores) > 0 {
		jit := make([]string, len(w.JITCores))
		for i, c := range w.JITCores {
			jit[i] = fmt.Sprintf("%.2f", c)
		}
		rates += fmt.Sprintf("; the brokers' JIT compilers used %s cores in them", strings.Join(jit, ", "))
	}
	var why []string
	if w.Climbing {
		why = append(why, "its rate still climbing")
	}
	if w.Compiling {
		why = append(why, "the brokers' JIT compilers still busy")
	}
	if len(why) > 0 {
		return fmt.Sprintf("still warming when its %s ended (%s): %s; what is measured first meets a colder cluster", w.Took, strings.Join(why, ", "), rates)
	}
	return fmt.Sprintf("warm after %s: %s", w.Took, rates)
}

// jitBusy is the compilers' CPU, summed over the brokers, above which a warm-up goes on:
// three brokers without a quota ended their warm-up's climb with the compilers at 0.17-0.40
// cores; through two capacity searches right after (19 minutes in 5 s samples), once the
// first trial had compiled its paths, they used a median 0.01, above 0.1 in 2 of 228.
const jitBusy = 0.1

// compiling reports whether the last slice's compilers used more than jitBusy.
func compiling(jitCores []float64) bool {
	return len(jitCores) > 0 && jitCores[len(jitCores)-1] > jitBusy
}

// WarmUp produces 1 KiB records unthrottled with acks=all to topic, measuring nothing but
// its own rate: for atLeast, then on while the rate still climbs (stats.Warming, slices of
// 5 s, patience 2) or the brokers' JIT compilers are busy (jitBusy), up to atMost. The
// caller creates the topic and deletes it after.
// props are the connection's client properties; pids are the brokers' processes when they
// run on this host (else nil), whose JIT compiler threads' CPU each slice records.
// WarmCluster loads its topics (warmParts) through it in turn.
func WarmUp(ctx context.Context, bootstrap string, props map[string]string, topic string, atLeast, atMost time.Duration, pids []int) (Warmed, error) {
	p := map[string]string{"acks": "all", "linger.ms": "5", "buffer.memory": warmBuffer}
	for k, v := range props {
		p[k] = v
	}
	var w Warmed
	jit, readJIT := brokersJIT(pids)
	read := time.Now()
	for w.Took < atLeast || (w.Took < atMost && (stats.Warming(w.Rates, warmClimb, warmPatience) || compiling(w.JITCores))) {
		d := min(warmSlice, max(atLeast, atMost)-w.Took)
		res, err := Produce(ctx, ProducerConfig{Bootstrap: bootstrap, Topic: topic, Properties: p,
			Producers: 1, RecordSize: 1024, Duration: d, Keys: KeysNone}, nil)
		if err != nil {
			return w, err
		}
		w.Took += d
		w.Rates = append(w.Rates, res.Total.RecordsPerSec)
		if readJIT {
			// Over the time between the readings, not the slice's d: a slice's producer
			// also starts and drains. A compiler thread that exited took its time with
			// it (metrics.JITCPU): a negative difference is none.
			var now time.Duration
			if now, readJIT = brokersJIT(pids); readJIT {
				w.JITCores = append(w.JITCores, max(0, (now-jit).Seconds()/time.Since(read).Seconds()))
				jit, read = now, time.Now()
			} else {
				w.JITCores = nil
			}
		}
	}
	w.Climbing, w.Compiling = stillClimbing(w.Rates), compiling(w.JITCores)
	return w, nil
}

// brokersJIT returns the CPU time the JIT compiler threads of the processes pids have used
// together; false when there are none or one could not be read.
func brokersJIT(pids []int) (time.Duration, bool) {
	var total time.Duration
	for _, pid := range pids {
		d, err := metrics.JITCPU("/proc", pid)
		if err != nil {
			return 0, false
		}
		total += d
	}
	return total, len(pids) > 0
}

// stillClimbing reports whether a warm-up's slices still climb by its rule. Fewer slices
// than the rule's patience cannot tell (stats.Warming says yes to them, to go on).
func stillClimbing(rates []float64) bool {
	return len(rates) > warmPatience && stats.Warming(rates, warmClimb, warmPatience)
}

// warmParts are the topics a warm-up loads in turn, each by the rule on its own: a replicated
// topic of three partitions per broker, and then an unreplicated one of one partition per
// broker, the shape a capacity search loads. Brokers that warmed on the replicated topic
// alone compiled again under the first heavier load on one replica: three new clusters of
// three brokers at 0.3 core, each warmed 65-75 s on the replicated topic, ran 45,000
// records/s for 60 s on an unreplicated topic at p99 1,756, 7,397 and 4,198 ms the first
// time (their compilers at 0.13 cores, a seventh of the quota) and 50-77 ms in six of the
// nine runs after; with 30 s on the unreplicated topic first, the first such run's p99 was
// 15.0 ms, its compilers at 0.03 (docs/cluster.md).
var warmParts = []struct {
	name      string
	suffix    string
	perBroker int
	replicas  int // at most the brokers
}{
	{"replicated", "", 3, 3},
	{"unreplicated", "-unreplicated", 1, 1},
}

// twoParts reports whether a warm-up bounded by atMost loads both topics: each part's rule
// needs ClusterWarmup, so a shorter bound is one part, on the replicated topic.
func twoParts(atMost time.Duration) bool { return atMost >= 2*ClusterWarmup }

// WarmRule says how long a warm-up bounded by atMost runs, as WarmCluster runs it.
func WarmRule(atMost time.Duration) string {
	rule := fmt.Sprintf("on while one of its last two %d s slices beat every earlier one by more than %.0f%% or the brokers' JIT compilers used more than %.1f cores in the last",
		int(warmSlice.Seconds()), warmClimb*100, jitBusy)
	switch {
	case twoParts(atMost):
		return fmt.Sprintf("%s on a replicated topic, then %s on an unreplicated one, each %s, up to %s in all", ClusterWarmup, ClusterWarmup, rule, atMost)
	case atMost > ClusterWarmup:
		return fmt.Sprintf("%s, and %s, up to %s", ClusterWarmup, rule, atMost)
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
	// PIDs are the brokers' processes when they run on this host (else nil).
	PIDs   []int
	Topic  string
	Create func(ctx context.Context, topic string, partitions, replicas int) error
	Delete func(ctx context.Context, topic string) error
}

// WarmCluster puts unmeasured load on a cluster just started, as WarmRule(atMost) says, on
// topics of its own (warmParts) that it deletes after each part, and logs the rule (with
// skip, how the user turns it off) and what each part did. A cold Kafka runs 2-5x slower
// until its JIT has compiled the hot paths: whatever is measured first would pay for it.
func WarmCluster(ctx context.Context, t WarmTarget, atMost time.Duration, skip string, log io.Writer) error {
	fmt.Fprintf(log, "warming up the cluster's JIT for %s (unmeasured; %s)\n", WarmRule(atMost), skip)
	parts := warmParts
	if !twoParts(atMost) {
		parts = parts[:1]
	}
	var took time.Duration
	for i, part := range parts {
		bound := partBound(atMost, took, len(parts)-1-i)
		warmed, err := warmPart(ctx, t, t.Topic+part.suffix, part.perBroker*t.Brokers, min(part.replicas, t.Brokers), min(ClusterWarmup, bound), bound)
		if err != nil {
			return err
		}
		if len(parts) > 1 {
			fmt.Fprintf(log, "%s topic: ", part.name)
		}
		fmt.Fprintln(log, warmed)
		took += warmed.Took
	}
	return nil
}

// partBound is the longest a part may run when the parts before it took took and after left
// more parts follow: what the bound leaves, less each later part's minimum.
func partBound(atMost, took time.Duration, left int) time.Duration {
	return atMost - took - time.Duration(left)*ClusterWarmup
}

// warmPart runs one part of a warm-up on a topic it creates and deletes.
func warmPart(ctx context.Context, t WarmTarget, topic string, partitions, replicas int, atLeast, atMost time.Duration) (Warmed, error) {
	if err := t.Create(ctx, topic, partitions, replicas); err != nil {
		return Warmed{}, fmt.Errorf("warm-up: %w", err)
	}
	warmed, err := WarmUp(ctx, t.Bootstrap, t.Props, topic, atLeast, atMost, t.PIDs)
	if derr := t.Delete(ctx, topic); err == nil {
		err = derr
	}
	if err != nil && ctx.Err() == nil {
		return warmed, fmt.Errorf("warm-up: %w", err)
	}
	return warmed, ctx.Err()
}
