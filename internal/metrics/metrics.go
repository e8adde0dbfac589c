// Package metrics measures a benchmark from both ends: what the clients see and what the
// brokers pay.
//
// On the client side, Histogram and Recorder keep latency distributions in microseconds, one
// per worker, merged on a tick.
//
// On the broker side, a Sampler records once a second, per broker and for the host:
//
//   - from /proc, read with github.com/prometheus/procfs from a mount point that tests point
//     at a directory of fixtures: a broker process's CPU
//     (cores used and % of its CPU allotment), RSS and disk bytes (by PID, for brokers on this
//     machine), and the host's CPU busy %, disk utilisation and bytes, network bytes, page cache
//     and load average;
//   - from each broker's Prometheus endpoint (the JMX exporter that embedded brokers start
//     with, or the URL an external cluster gives): Kafka's own metrics, such as BytesInPerSec,
//     request times, idle ratios, replication health, log flushes, GC and process CPU.
//
// Both paths write the same Series: one Row per interval per broker, plus host rows, each a
// map from a documented field name (see Fields) to a value. A field that a path cannot
// provide is absent, never zero. Series.Summarize reduces a window to mean, max and p95 per
// field, and FormatBrokerLines renders a summary as one line per broker.
//
// The package imports no Kafka client: it reads /proc (procfs), the cgroup file system and
// the Prometheus text format (expfmt) only.
package metrics
