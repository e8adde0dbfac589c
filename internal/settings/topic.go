package settings

import "math"

// createdWith is how kbench applies a topic config: in the CreateTopics request of a topic
// it creates (kafka.Owned.CreateTopic), which the broker checks and keeps.
const createdWith = "the topic's creation"

// Reasons a study may not set a topic config.
const (
	noStudyTiered   = "kbench's runs do not cover tiered storage (its embedded cluster has none)"
	noStudyThrottle = "replication throttles name the partitions and brokers of a topic kbench creates afresh in every repeat"
)

// maxInt64 is Java's Long.MAX_VALUE, the bound (and often the default) of long-typed configs.
const maxInt64 = math.MaxInt64

// topicConfigs are Kafka 4.1's topic configs (LogConfig, names from TopicConfig), with
// LogConfig's defaults and ranges. A study may set those kbench's runs can use; a name not
// here is an unknown topic config (among them the message format and down-conversion
// configs Kafka 4.0 removed).
var topicConfigs = []Property{
	// Retention and cleanup.
	{Name: "cleanup.policy", Role: Topic, Kind: List, Default: "delete", Choices: []string{"delete", "compact"},
		Applies: createdWith, Example: "compact"},
	{Name: "retention.ms", Role: Topic, Kind: Int, Default: "604800000", Min: -1, Max: maxInt64,
		Applies: createdWith, Example: "60000"},
	// Java takes any negative retention.bytes as no limit; kbench asks for its one spelling.
	{Name: "retention.bytes", Role: Topic, Kind: Size, Default: "-1", Min: 0, Max: maxInt64, Choices: []string{"-1"},
		Applies: createdWith, Example: "1073741824"},
	{Name: "delete.retention.ms", Role: Topic, Kind: Int, Default: "86400000", Min: 0, Max: maxInt64,
		Applies: createdWith, Example: "60000"},
	{Name: "file.delete.delay.ms", Role: Topic, Kind: Int, Default: "60000", Min: 0, Max: maxInt64,
		Applies: createdWith, Example: "1000"},
	{Name: "min.cleanable.dirty.ratio", Role: Topic, Kind: Double, Default: "0.5", Min: 0, Max: 1,
		Applies: createdWith, Example: "0.1"},
	{Name: "min.compaction.lag.ms", Role: Topic, Kind: Int, Default: "0", Min: 0, Max: maxInt64,
		Applies: createdWith, Example: "1000"},
	{Name: "max.compaction.lag.ms", Role: Topic, Kind: Int, Default: "9223372036854775807", Min: 1, Max: maxInt64,
		Applies: createdWith, Example: "60000"},

	// Segments and indexes.
	{Name: "segment.bytes", Role: Topic, Kind: Size, Default: "1073741824", Min: 1 << 20, Max: maxInt32,
		Applies: createdWith, Example: "16777216"},
	{Name: "segment.ms", Role: Topic, Kind: Int, Default: "604800000", Min: 1, Max: maxInt64,
		Applies: createdWith, Example: "60000"},
	{Name: "segment.jitter.ms", Role: Topic, Kind: Int, Default: "0", Min: 0, Max: maxInt64,
		Applies: createdWith, Example: "1000"},
	{Name: "segment.index.bytes", Role: Topic, Kind: Size, Default: "10485760", Min: 4, Max: maxInt32,
		Applies: createdWith, Example: "1048576"},
	{Name: "index.interval.bytes", Role: Topic, Kind: Size, Default: "4096", Min: 0, Max: maxInt32,
		Applies: createdWith, Example: "8192"},
	{Name: "preallocate", Role: Topic, Kind: Bool, Default: "false", Applies: createdWith, Example: "true"},

	// Flushing: by default the broker leaves it to the operating system.
	{Name: "flush.messages", Role: Topic, Kind: Int, Default: "9223372036854775807", Min: 1, Max: maxInt64,
		Applies: createdWith, Example: "1"},
	{Name: "flush.ms", Role: Topic, Kind: Int, Default: "9223372036854775807", Min: 0, Max: maxInt64,
		Applies: createdWith, Example: "1000"},

	// Records.
	{Name: "max.message.bytes", Role: Topic, Kind: Size, Default: "1048588", Min: 0, Max: maxInt32,
		Applies: createdWith, Example: "2097152"},
	{Name: "compression.type", Role: Topic, Kind: Enum, Default: "producer",
		Choices: []string{"producer", "uncompressed", "gzip", "snappy", "lz4", "zstd"},
		Applies: createdWith, Example: "lz4"},
	{Name: "compression.gzip.level", Role: Topic, Kind: Int, Default: "-1", Min: 1, Max: 9, Choices: []string{"-1"},
		Applies: createdWith, Example: "1"},
	{Name: "compression.lz4.level", Role: Topic, Kind: Int, Default: "9", Min: 1, Max: 17,
		Applies: createdWith, Example: "1"},
	{Name: "compression.zstd.level", Role: Topic, Kind: Int, Default: "3", Min: -131072, Max: 22,
		Applies: createdWith, Example: "1"},
	{Name: "message.timestamp.type", Role: Topic, Kind: Enum, Default: "CreateTime",
		Choices: []string{"CreateTime", "LogAppendTime"}, Applies: createdWith, Example: "LogAppendTime"},
	{Name: "message.timestamp.before.max.ms", Role: Topic, Kind: Int, Default: "9223372036854775807", Min: 0, Max: maxInt64,
		Applies: createdWith, Example: "60000"},
	{Name: "message.timestamp.after.max.ms", Role: Topic, Kind: Int, Default: "3600000", Min: 0, Max: maxInt64,
		Applies: createdWith, Example: "60000"},

	// Replication.
	{Name: "min.insync.replicas", Role: Topic, Kind: Int, Default: "1", Min: 1, Max: maxInt32,
		Applies: createdWith, Example: "2"},
	{Name: "unclean.leader.election.enable", Role: Topic, Kind: Bool, Default: "false",
		Applies: createdWith, Example: "true"},
	{Name: "leader.replication.throttled.replicas", Role: Topic, Kind: String,
		Applies: createdWith, NoStudy: noStudyThrottle},
	{Name: "follower.replication.throttled.replicas", Role: Topic, Kind: String,
		Applies: createdWith, NoStudy: noStudyThrottle},

	// Tiered storage. The local retentions are inert without it (-2: retention.ms and
	// retention.bytes), so a study written for a cluster that has it runs here too.
	{Name: "local.retention.ms", Role: Topic, Kind: Int, Default: "-2", Min: -2, Max: maxInt64,
		Applies: createdWith, Example: "60000"},
	{Name: "local.retention.bytes", Role: Topic, Kind: Size, Default: "-2", Min: 0, Max: maxInt64, Choices: []string{"-2", "-1"},
		Applies: createdWith, Example: "1073741824"},
	{Name: "remote.storage.enable", Role: Topic, Kind: Bool, Default: "false",
		Applies: createdWith, NoStudy: noStudyTiered},
	{Name: "remote.log.copy.disable", Role: Topic, Kind: Bool, Default: "false",
		Applies: createdWith, NoStudy: noStudyTiered},
	{Name: "remote.log.delete.on.disable", Role: Topic, Kind: Bool, Default: "false",
		Applies: createdWith, NoStudy: noStudyTiered},
}
