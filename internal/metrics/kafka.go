// Kafka's own metrics: from two scrapes of a broker's Prometheus endpoint to row fields.

package metrics

// The Prometheus names below are those that internal/cluster/jmx-exporter.yaml gives Kafka's
// MBeans, plus the JVM collectors' names that the JMX exporter adds. A key with labels picks
// one series; a bare name adds up all of its series (every GC collector, for example).

// promRate is a field that is the per-second increase of a cumulative value, times scale.
type promRate struct {
	field, key string
	scale      float64
}

var kafkaRates = []promRate{
	{FieldBytesInSec, "kafka_server_bytes_in_total", 1},
	{FieldBytesOutSec, "kafka_server_bytes_out_total", 1},
	{FieldMessagesInSec, "kafka_server_messages_in_total", 1},
	{FieldReplicationBytesInSec, "kafka_server_replication_bytes_in_total", 1},
	{FieldReplicationBytesOutSec, "kafka_server_replication_bytes_out_total", 1},
	{FieldProduceRequestsSec, `kafka_network_requests_total{request="Produce"}`, 1},
	{FieldFetchConsumerSec, `kafka_network_requests_total{request="FetchConsumer"}`, 1},
	{FieldFetchFollowerSec, `kafka_network_requests_total{request="FetchFollower"}`, 1},
	{FieldIsrShrinksSec, "kafka_server_isr_shrinks_total", 1},
	{FieldIsrExpandsSec, "kafka_server_isr_expands_total", 1},
	{FieldLogFlushesSec, "kafka_log_flush_total", 1},
	{FieldGCTimeMsSec, "jvm_gc_collection_seconds_sum", 1000},
	{FieldGCCollectionsSec, "jvm_gc_collection_seconds_count", 1},
	{FieldJVMCPUCores, "process_cpu_seconds_total", 1},
	{FieldGroupRebalancesSec, "kafka_group_coordinator_rebalances_total", 1},
}

// promGauge is a field that is the latest value of a gauge, times scale.
type promGauge struct {
	field, key string
	scale      float64
}

var kafkaGauges = []promGauge{
	{FieldProduceTimeP50, `kafka_network_request_total_time_ms_p50{request="Produce"}`, 1},
	{FieldProduceTimeP99, `kafka_network_request_total_time_ms_p99{request="Produce"}`, 1},
	{FieldFetchConsumerTimeP50, `kafka_network_request_total_time_ms_p50{request="FetchConsumer"}`, 1},
	{FieldFetchConsumerTimeP99, `kafka_network_request_total_time_ms_p99{request="FetchConsumer"}`, 1},
	{FieldFetchFollowerTimeP50, `kafka_network_request_total_time_ms_p50{request="FetchFollower"}`, 1},
	{FieldFetchFollowerTimeP99, `kafka_network_request_total_time_ms_p99{request="FetchFollower"}`, 1},
	{FieldNetworkProcessorIdlePct, "kafka_network_processor_avg_idle_ratio", 100},
	{FieldUnderReplicated, "kafka_server_under_replicated_partitions", 1},
	{FieldLeaderCount, "kafka_server_leader_count", 1},
	{FieldPartitionCount, "kafka_server_partition_count", 1},
	{FieldLogFlushTimeP99, "kafka_log_flush_time_ms_p99", 1},
}

// promMean is a field that is the mean over the interval of a Kafka histogram, from its
// lifetime count and lifetime mean: the interval's sum is mean2*count2 - mean1*count1.
type promMean struct {
	field, count, mean string
}

var kafkaMeans = []promMean{
	{FieldProduceTimeMean, `kafka_network_requests_total{request="Produce"}`, `kafka_network_request_total_time_ms_mean{request="Produce"}`},
	{FieldFetchConsumerTimeMean, `kafka_network_requests_total{request="FetchConsumer"}`, `kafka_network_request_total_time_ms_mean{request="FetchConsumer"}`},
	{FieldFetchFollowerTimeMean, `kafka_network_requests_total{request="FetchFollower"}`, `kafka_network_request_total_time_ms_mean{request="FetchFollower"}`},
	{FieldLogFlushTimeMean, "kafka_log_flush_total", "kafka_log_flush_time_ms_mean"},
}

// The request handler meter: Kafka marks it with each handler's idle nanoseconds divided by
// the pool's thread count, so its increase per second is the idle fraction of the pool. A
// KRaft node running broker and controller in one process marks the same meter from both of
// its request handler pools, so there the increase runs up to 2 and is halved.
const requestHandlerIdleKey = "kafka_server_request_handler_idle_seconds_total"

// Process figures that stand in for /proc when a broker has no PID on this machine.
const (
	promCPUSecondsKey = "process_cpu_seconds_total"
	promRSSKey        = "process_resident_memory_bytes"
)

// kafkaFields sets the fields that two scrapes, dt seconds apart, yield. pools is the number
// of request handler pools marking the idle meter (1, or 2 on a combined node). A cumulative
// value that went down (the broker restarted) yields no field for this interval.
func kafkaFields(prev, cur promValues, dt float64, pools int, r Row) {
	if dt <= 0 {
		return
	}
	delta := func(key string) (float64, bool) {
		a, ok1 := prev.sum(key)
		b, ok2 := cur.sum(key)
		if !ok1 || !ok2 || b < a {
			return 0, false
		}
		return b - a, true
	}
	for _, m := range kafkaRates {
		if d, ok := delta(m.key); ok {
			r.set(m.field, d/dt*m.scale)
		}
	}
	for _, m := range kafkaGauges {
		if v, ok := cur.sum(m.key); ok {
			r.set(m.field, v*m.scale)
		}
	}
	for _, m := range kafkaMeans {
		c1, ok1 := prev.sum(m.count)
		c2, ok2 := cur.sum(m.count)
		m1, ok3 := prev.sum(m.mean)
		m2, ok4 := cur.sum(m.mean)
		if !ok1 || !ok2 || !ok3 || !ok4 || c2 <= c1 {
			continue // no requests in the interval: no mean
		}
		if mean := (m2*c2 - m1*c1) / (c2 - c1); mean >= 0 {
			r.set(m.field, mean)
		}
	}
	if d, ok := delta(requestHandlerIdleKey); ok {
		r.set(FieldRequestHandlerIdlePct, d/dt/float64(max(pools, 1))*100)
	}
}
