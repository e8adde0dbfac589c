// The documented field names of a Series row.

package metrics

// Broker fields measured through /proc/<pid>, for brokers on this machine. When a broker has
// no PID, FieldCPUCores and FieldRSSBytes come from its Prometheus endpoint instead
// (process_cpu_seconds_total, process_resident_memory_bytes), so the same columns exist for
// external clusters.
const (
	FieldCPUCores          = "cpu_cores"                // CPU time per wall second: utime+stime delta over the interval
	FieldCPUPercent        = "cpu_pct"                  // FieldCPUCores as % of the broker's CPU allotment
	FieldRSSBytes          = "rss_bytes"                // resident set size at the end of the interval
	FieldThreads           = "threads"                  // threads of the broker process
	FieldDiskReadBytesSec  = "disk_read_bytes_per_sec"  // /proc/<pid>/io read_bytes delta per second
	FieldDiskWriteBytesSec = "disk_write_bytes_per_sec" // /proc/<pid>/io write_bytes delta per second
)

// Broker fields from Kafka's own metrics (the Prometheus JMX exporter rules in
// internal/cluster/jmx-exporter.yaml). Rates are deltas of Kafka's cumulative counts over the
// interval, not Kafka's exponentially weighted rates. Request times are Kafka's own decaying
// percentiles (weighted to the last few minutes), except the *_mean fields, which are exact over
// the interval.
const (
	FieldBytesInSec              = "bytes_in_per_sec"             // BytesInPerSec: bytes produced by clients to this broker
	FieldBytesOutSec             = "bytes_out_per_sec"            // BytesOutPerSec: bytes fetched by consumers
	FieldMessagesInSec           = "messages_in_per_sec"          // MessagesInPerSec
	FieldReplicationBytesInSec   = "replication_bytes_in_per_sec" // ReplicationBytesInPerSec: bytes fetched from leaders
	FieldReplicationBytesOutSec  = "replication_bytes_out_per_sec"
	FieldProduceRequestsSec      = "produce_requests_per_sec"
	FieldProduceTimeMean         = "produce_total_time_ms_mean"
	FieldProduceTimeP50          = "produce_total_time_ms_p50"
	FieldProduceTimeP99          = "produce_total_time_ms_p99"
	FieldFetchConsumerSec        = "fetch_consumer_requests_per_sec"
	FieldFetchConsumerTimeMean   = "fetch_consumer_total_time_ms_mean"
	FieldFetchConsumerTimeP50    = "fetch_consumer_total_time_ms_p50"
	FieldFetchConsumerTimeP99    = "fetch_consumer_total_time_ms_p99"
	FieldFetchFollowerSec        = "fetch_follower_requests_per_sec"
	FieldFetchFollowerTimeMean   = "fetch_follower_total_time_ms_mean"
	FieldFetchFollowerTimeP50    = "fetch_follower_total_time_ms_p50"
	FieldFetchFollowerTimeP99    = "fetch_follower_total_time_ms_p99"
	FieldRequestHandlerIdlePct   = "request_handler_avg_idle_pct"
	FieldNetworkProcessorIdlePct = "network_processor_avg_idle_pct"
	FieldUnderReplicated         = "under_replicated_partitions"
	FieldIsrShrinksSec           = "isr_shrinks_per_sec"
	FieldIsrExpandsSec           = "isr_expands_per_sec"
	FieldLeaderCount             = "leader_count"
	FieldPartitionCount          = "partition_count"
	FieldLogFlushesSec           = "log_flushes_per_sec"
	// The group coordinator's rebalances per second (group-coordinator-metrics, Kafka 4.x;
	// classic groups: completed rebalances; consumer protocol: epoch bumps from members'
	// heartbeats, not those from a member leaving or being fenced).
	FieldGroupRebalancesSec = "group_rebalances_per_sec"
	FieldLogFlushTimeMean   = "log_flush_time_ms_mean"
	FieldLogFlushTimeP99    = "log_flush_time_ms_p99"
	FieldGCTimeMsSec        = "gc_time_ms_per_sec"
	FieldGCCollectionsSec   = "gc_collections_per_sec"
	FieldJVMCPUCores        = "jvm_cpu_cores"
)

// Host fields, from /proc of the machine the sampler runs on.
const (
	FieldHostCPUBusyPct        = "host_cpu_busy_pct"
	FieldHostCPUIOWaitPct      = "host_cpu_iowait_pct"
	FieldHostCPUStealPct       = "host_cpu_steal_pct"
	FieldHostDiskReadBytesSec  = "host_disk_read_bytes_per_sec"
	FieldHostDiskWriteBytesSec = "host_disk_write_bytes_per_sec"
	FieldHostDiskUtilPct       = "host_disk_util_pct"
	FieldHostNetRxBytesSec     = "host_net_rx_bytes_per_sec"
	FieldHostNetTxBytesSec     = "host_net_tx_bytes_per_sec"
	FieldHostLoopbackBytesSec  = "host_net_loopback_bytes_per_sec"
	FieldHostPageCacheBytes    = "host_page_cache_bytes"
	FieldHostDirtyBytes        = "host_dirty_bytes"
	FieldHostMemAvailableBytes = "host_mem_available_bytes"
	FieldHostLoad1             = "host_load1"
	FieldHostLoad5             = "host_load5"
	FieldHostLoad15            = "host_load15"
	// When kbench runs in a cgroup with a CPU quota (a container's limit), the host's
	// /proc/stat counts the whole machine; these count the cgroup against its quota.
	FieldHostCgroupCPUCores   = "host_cgroup_cpu_cores"
	FieldHostCgroupCPUBusyPct = "host_cgroup_cpu_busy_pct"
	FieldHostCgroupCPUQuota   = "host_cgroup_cpu_quota_cores"
)

// FieldInfo documents one field of a Series row.
type FieldInfo struct {
	// Name is the key in Row.Values and in the JSON form.
	Name string `json:"name"`
	// Scope is "broker" or "host".
	Scope string `json:"scope"`
	// Unit is what the value counts: "cores", "%", "bytes", "bytes/s", "1/s", "ms", "ms/s", or
	// "" for a plain count.
	Unit string `json:"unit"`
	// Source says where the value comes from: "proc" or "prometheus".
	Source string `json:"source"`
	// Help is one sentence for a report's legend.
	Help string `json:"help"`
}

// Fields documents every field a Series row may hold, in report order.
var Fields = []FieldInfo{
	{FieldCPUCores, "broker", "cores", "proc", "CPU time used per second of wall time (utime+stime), or process_cpu_seconds_total when the broker has no PID here."},
	{FieldCPUPercent, "broker", "%", "proc", "CPU cores used as a percentage of the broker's CPU allotment."},
	{FieldRSSBytes, "broker", "bytes", "proc", "Resident set size of the broker process."},
	{FieldThreads, "broker", "", "proc", "Threads of the broker process."},
	{FieldDiskReadBytesSec, "broker", "bytes/s", "proc", "Bytes the broker process caused to be read from storage (page-cache hits excluded)."},
	{FieldDiskWriteBytesSec, "broker", "bytes/s", "proc", "Bytes the broker process caused to be written to storage."},
	{FieldBytesInSec, "broker", "bytes/s", "prometheus", "BytesInPerSec: bytes produced to this broker by clients; replication excluded."},
	{FieldBytesOutSec, "broker", "bytes/s", "prometheus", "BytesOutPerSec: bytes fetched from this broker by consumers; replication excluded."},
	{FieldMessagesInSec, "broker", "1/s", "prometheus", "MessagesInPerSec: records produced to this broker."},
	{FieldReplicationBytesInSec, "broker", "bytes/s", "prometheus", "ReplicationBytesInPerSec: bytes this broker fetched from leaders as a follower."},
	{FieldReplicationBytesOutSec, "broker", "bytes/s", "prometheus", "ReplicationBytesOutPerSec: bytes followers fetched from this broker."},
	{FieldProduceRequestsSec, "broker", "1/s", "prometheus", "Produce requests completed."},
	{FieldProduceTimeMean, "broker", "ms", "prometheus", "Mean Produce request TotalTimeMs over the interval."},
	{FieldProduceTimeP50, "broker", "ms", "prometheus", "Produce request TotalTimeMs p50 (Kafka's decaying reservoir)."},
	{FieldProduceTimeP99, "broker", "ms", "prometheus", "Produce request TotalTimeMs p99 (Kafka's decaying reservoir)."},
	{FieldFetchConsumerSec, "broker", "1/s", "prometheus", "Consumer Fetch requests completed."},
	{FieldFetchConsumerTimeMean, "broker", "ms", "prometheus", "Mean consumer Fetch request TotalTimeMs over the interval."},
	{FieldFetchConsumerTimeP50, "broker", "ms", "prometheus", "Consumer Fetch request TotalTimeMs p50 (Kafka's decaying reservoir)."},
	{FieldFetchConsumerTimeP99, "broker", "ms", "prometheus", "Consumer Fetch request TotalTimeMs p99 (Kafka's decaying reservoir)."},
	{FieldFetchFollowerSec, "broker", "1/s", "prometheus", "Follower (replication) Fetch requests completed."},
	{FieldFetchFollowerTimeMean, "broker", "ms", "prometheus", "Mean follower Fetch request TotalTimeMs over the interval."},
	{FieldFetchFollowerTimeP50, "broker", "ms", "prometheus", "Follower Fetch request TotalTimeMs p50 (Kafka's decaying reservoir)."},
	{FieldFetchFollowerTimeP99, "broker", "ms", "prometheus", "Follower Fetch request TotalTimeMs p99 (Kafka's decaying reservoir)."},
	{FieldRequestHandlerIdlePct, "broker", "%", "prometheus", "RequestHandlerAvgIdlePercent over the interval: share of time the request handler threads were idle."},
	{FieldNetworkProcessorIdlePct, "broker", "%", "prometheus", "NetworkProcessorAvgIdlePercent: share of time the network threads were idle."},
	{FieldUnderReplicated, "broker", "", "prometheus", "UnderReplicatedPartitions led by this broker."},
	{FieldIsrShrinksSec, "broker", "1/s", "prometheus", "IsrShrinksPerSec: followers dropped from an ISR."},
	{FieldIsrExpandsSec, "broker", "1/s", "prometheus", "IsrExpandsPerSec: followers added back to an ISR."},
	{FieldLeaderCount, "broker", "", "prometheus", "Partitions this broker leads."},
	{FieldPartitionCount, "broker", "", "prometheus", "Partition replicas on this broker."},
	{FieldGroupRebalancesSec, "broker", "1/s", "prometheus", "Rebalances of the groups this broker coordinates (classic: completed; consumer protocol: epoch bumps from members' heartbeats)."},
	{FieldLogFlushesSec, "broker", "1/s", "prometheus", "LogFlushRateAndTimeMs count: log flushes (fsync) per second."},
	{FieldLogFlushTimeMean, "broker", "ms", "prometheus", "Mean log flush time over the interval."},
	{FieldLogFlushTimeP99, "broker", "ms", "prometheus", "Log flush time p99 (Kafka's decaying reservoir)."},
	{FieldGCTimeMsSec, "broker", "ms/s", "prometheus", "JVM garbage collection time per second, all collectors."},
	{FieldGCCollectionsSec, "broker", "1/s", "prometheus", "JVM garbage collections per second, all collectors."},
	{FieldJVMCPUCores, "broker", "cores", "prometheus", "Process CPU as the JVM reports it (process_cpu_seconds_total)."},
	{FieldHostCPUBusyPct, "host", "%", "proc", "Host CPU busy: all CPUs, time neither idle, waiting for I/O nor stolen."},
	{FieldHostCPUIOWaitPct, "host", "%", "proc", "Host CPU time idle while waiting for I/O."},
	{FieldHostCPUStealPct, "host", "%", "proc", "Host CPU time stolen: a virtual machine's CPUs ready to run while the hypervisor ran other machines."},
	{FieldHostDiskReadBytesSec, "host", "bytes/s", "proc", "Bytes read from the host's disks (/proc/diskstats, whole disks)."},
	{FieldHostDiskWriteBytesSec, "host", "bytes/s", "proc", "Bytes written to the host's disks (/proc/diskstats, whole disks)."},
	{FieldHostDiskUtilPct, "host", "%", "proc", "Utilisation of the busiest disk: share of time it had I/O in flight."},
	{FieldHostNetRxBytesSec, "host", "bytes/s", "proc", "Bytes received on all interfaces but loopback."},
	{FieldHostNetTxBytesSec, "host", "bytes/s", "proc", "Bytes sent on all interfaces but loopback."},
	{FieldHostLoopbackBytesSec, "host", "bytes/s", "proc", "Bytes through loopback, where an embedded cluster's traffic flows."},
	{FieldHostPageCacheBytes, "host", "bytes", "proc", "Page cache size (Cached in /proc/meminfo)."},
	{FieldHostDirtyBytes, "host", "bytes", "proc", "Page cache waiting to be written back (Dirty)."},
	{FieldHostMemAvailableBytes, "host", "bytes", "proc", "Memory available without swapping (MemAvailable)."},
	{FieldHostLoad1, "host", "", "proc", "1-minute load average."},
	{FieldHostLoad5, "host", "", "proc", "5-minute load average."},
	{FieldHostLoad15, "host", "", "proc", "15-minute load average."},
	{FieldHostCgroupCPUCores, "host", "cores", "cgroup", "CPU used by kbench's cgroup (its container: kbench, and an embedded cluster's brokers) when it has a CPU quota."},
	{FieldHostCgroupCPUBusyPct, "host", "%", "cgroup", "host_cgroup_cpu_cores as % of the cgroup's CPU quota: how busy the host is from the container's view."},
	{FieldHostCgroupCPUQuota, "host", "cores", "cgroup", "The CPU quota of kbench's cgroup (cpu.max, or cpu.cfs_quota_us / cpu.cfs_period_us)."},
}

// FieldByName returns the documentation of the named field.
func FieldByName(name string) (FieldInfo, bool) {
	for _, f := range Fields {
		if f.Name == name {
			return f, true
		}
	}
	return FieldInfo{}, false
}
