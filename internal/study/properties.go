package study

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// propKind says how a property's value is checked and normalised.
type propKind int

const (
	propString propKind = iota // any value
	propInt                    // a non-negative integer
	propSize                   // a byte size, normalised to a byte count
	propBool                   // true or false
	propEnum                   // one of a fixed set
)

type propSpec struct {
	kind   propKind
	values []string // for propEnum
}

var (
	anyString = propSpec{kind: propString}
	anyInt    = propSpec{kind: propInt}
	size      = propSpec{kind: propSize}
	boolean   = propSpec{kind: propBool}
)

func enum(v ...string) propSpec { return propSpec{kind: propEnum, values: v} }

// compressionTypes are the Java client's compression.type values.
var compressionTypes = []string{"none", "gzip", "snappy", "lz4", "zstd"}

// producerProperties are the Java producer configs a study may set. The connection and
// serialisation settings belong to kbench and the security settings to the cluster
// section or --command-config, so they are not listed.
var producerProperties = map[string]propSpec{
	"acks":                                     enum("0", "1", "-1", "all"),
	"batch.size":                               size,
	"linger.ms":                                anyInt,
	"buffer.memory":                            size,
	"compression.type":                         enum(compressionTypes...),
	"compression.gzip.level":                   propSpec{kind: propString},
	"compression.lz4.level":                    propSpec{kind: propString},
	"compression.zstd.level":                   propSpec{kind: propString},
	"enable.idempotence":                       boolean,
	"max.in.flight.requests.per.connection":    anyInt,
	"max.request.size":                         size,
	"request.timeout.ms":                       anyInt,
	"delivery.timeout.ms":                      anyInt,
	"retries":                                  anyInt,
	"retry.backoff.ms":                         anyInt,
	"retry.backoff.max.ms":                     anyInt,
	"max.block.ms":                             anyInt,
	"send.buffer.bytes":                        anyString,
	"receive.buffer.bytes":                     anyString,
	"partitioner.class":                        anyString,
	"partitioner.ignore.keys":                  boolean,
	"partitioner.adaptive.partitioning.enable": boolean,
	"partitioner.availability.timeout.ms":      anyInt,
	"client.id":                                anyString,
	"metadata.max.age.ms":                      anyInt,
	"metadata.max.idle.ms":                     anyInt,
	"connections.max.idle.ms":                  anyInt,
	"reconnect.backoff.ms":                     anyInt,
	"reconnect.backoff.max.ms":                 anyInt,
	"client.dns.lookup":                        anyString,
}

// consumerProperties are the Java consumer configs a study may set; the group is set
// with consumers.group.
var consumerProperties = map[string]propSpec{
	"fetch.min.bytes":               size,
	"fetch.max.bytes":               size,
	"fetch.max.wait.ms":             anyInt,
	"max.partition.fetch.bytes":     size,
	"max.poll.records":              anyInt,
	"max.poll.interval.ms":          anyInt,
	"auto.offset.reset":             enum("earliest", "latest", "none"),
	"enable.auto.commit":            boolean,
	"auto.commit.interval.ms":       anyInt,
	"isolation.level":               enum("read_uncommitted", "read_committed"),
	"session.timeout.ms":            anyInt,
	"heartbeat.interval.ms":         anyInt,
	"group.protocol":                enum("classic", "consumer"),
	"partition.assignment.strategy": anyString,
	"client.id":                     anyString,
	"client.rack":                   anyString,
	"check.crcs":                    boolean,
	"receive.buffer.bytes":          anyString,
	"send.buffer.bytes":             anyString,
	"request.timeout.ms":            anyInt,
	"metadata.max.age.ms":           anyInt,
	"connections.max.idle.ms":       anyInt,
	"reconnect.backoff.ms":          anyInt,
	"reconnect.backoff.max.ms":      anyInt,
	"retry.backoff.ms":              anyInt,
}

// topicConfigs are the topic-level configs a study may set.
var topicConfigs = map[string]propSpec{
	"cleanup.policy":                  enum("delete", "compact", "compact,delete", "delete,compact"),
	"compression.type":                enum(append([]string{"producer", "uncompressed"}, compressionTypes[1:]...)...),
	"delete.retention.ms":             anyInt,
	"file.delete.delay.ms":            anyInt,
	"flush.messages":                  anyInt,
	"flush.ms":                        anyInt,
	"index.interval.bytes":            size,
	"max.compaction.lag.ms":           anyInt,
	"max.message.bytes":               size,
	"message.timestamp.type":          enum("CreateTime", "LogAppendTime"),
	"message.timestamp.before.max.ms": anyInt,
	"message.timestamp.after.max.ms":  anyInt,
	"min.cleanable.dirty.ratio":       anyString,
	"min.compaction.lag.ms":           anyInt,
	"min.insync.replicas":             anyInt,
	"preallocate":                     boolean,
	"retention.bytes":                 propSpec{kind: propString}, // may be -1
	"retention.ms":                    propSpec{kind: propString}, // may be -1
	"segment.bytes":                   size,
	"segment.index.bytes":             size,
	"segment.jitter.ms":               anyInt,
	"segment.ms":                      anyInt,
	"unclean.leader.election.enable":  boolean,
	"local.retention.ms":              anyString,
	"local.retention.bytes":           anyString,
}

// reservedProperties are client properties a study may not set, with the reason.
var reservedProperties = map[string]string{
	"bootstrap.servers":  "kbench connects to the study's cluster",
	"key.serializer":     "kbench writes its own payloads",
	"value.serializer":   "kbench writes its own payloads",
	"key.deserializer":   "kbench reads its own payloads",
	"value.deserializer": "kbench reads its own payloads",
	"group.id":           "set consumers.group instead",
	"security.protocol":  "set cluster.sasl/cluster.tls, or pass --command-config for an external cluster",
	"sasl.mechanism":     "set cluster.sasl, or pass --command-config for an external cluster",
	"sasl.jaas.config":   "credentials never go in a study; pass --command-config",
}

// propertyName is the shape of a Kafka config name: lowercase words joined by dots.
var propertyName = regexp.MustCompile(`^[a-z][a-z0-9]*(\.[a-z0-9]+)*$`)

// checkProperty validates one property of a catalog and returns its normalised value
// (sizes become byte counts).
func checkProperty(what string, catalog map[string]propSpec, name, value string) (string, error) {
	if why, ok := reservedProperties[name]; ok && what != "topic config" {
		return "", fmt.Errorf("%s %q may not be set here: %s", what, name, why)
	}
	if strings.HasPrefix(name, "ssl.") || strings.HasPrefix(name, "sasl.") {
		return "", fmt.Errorf("%s %q may not be set here: security settings go in cluster.sasl/cluster.tls or --command-config", what, name)
	}
	spec, ok := catalog[name]
	if !ok {
		msg := fmt.Sprintf("unknown %s %q", what, name)
		if !propertyName.MatchString(name) {
			msg += " (Kafka config names are lowercase words joined by dots, e.g. batch.size)"
		} else if s := closest(name, slices.Collect(maps.Keys(catalog))); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return "", fmt.Errorf("%s", msg)
	}
	switch spec.kind {
	case propInt:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 0 {
			return "", fmt.Errorf("%s %s=%q: want a non-negative integer", what, name, value)
		}
	case propSize:
		n, err := ParseSize(value)
		if err != nil {
			return "", fmt.Errorf("%s %s: %w", what, name, err)
		}
		return strconv.FormatInt(n, 10), nil
	case propBool:
		if value != "true" && value != "false" {
			return "", fmt.Errorf("%s %s=%q: want true or false", what, name, value)
		}
	case propEnum:
		if !slices.Contains(spec.values, value) {
			return "", fmt.Errorf("%s %s=%q is not valid %s", what, name, value, choices(spec.values))
		}
	}
	return value, nil
}

// closest returns the candidate nearest to name by edit distance, if it is near enough to
// be a likely typo.
func closest(name string, candidates []string) string {
	slices.Sort(candidates)
	best, bestD := "", len(name)/3+1
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
