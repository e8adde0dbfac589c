// Package load drives Kafka producers and consumers for measurement, on franz-go (kgo).
//
// Produce runs N independent producer clients at an optional total rate, paced by a pure
// Pacer, and records every acknowledgement's latency twice, in microseconds: from the moment
// the record was due (its slot under a rate limit) and from the moment it was handed to the
// client. Under a rate limit the two differ exactly by the time the producer fell behind its
// schedule, so coordinated omission is visible rather than hidden. Consume runs N consumers in
// one group and measures end-to-end latency from the produce timestamp kbench writes into
// each record.
//
// Client settings are given by their Java client names (acks, linger.ms, ...) and default to
// the Java client's values, not franz-go's (see ParseProperties), so results compare setting
// for setting with Kafka's own kafka-producer-perf-test and kafka-consumer-perf-test.
//
// The package never prints: progress is delivered as Ticks to a callback, and the outcome as a
// ProduceResult or ConsumeResult.
package load
