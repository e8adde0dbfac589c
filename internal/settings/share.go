package settings

import (
	"maps"
	"slices"
)

// shareRefuses are the consumer properties a share consumer does not take, as Java's
// ShareConsumerConfig refuses them, and what governs instead.
var shareRefuses = map[string]string{
	"auto.offset.reset":             "a share group starts where the group's share.auto.offset.reset says (earliest on groups kbench creates)",
	"enable.auto.commit":            "share consumers acknowledge records instead of committing offsets",
	"auto.commit.interval.ms":       "share consumers acknowledge records instead of committing offsets",
	"group.protocol":                "share consumers run the share group protocol",
	"group.remote.assignor":         "the broker assigns a share group's partitions",
	"partition.assignment.strategy": "the broker assigns a share group's partitions",
	"session.timeout.ms":            "the brokers' group.share.session.timeout.ms applies",
	"heartbeat.interval.ms":         "the brokers' group.share.heartbeat.interval.ms applies",
	"isolation.level":               "the group's share.isolation.level applies",
	"group.id":                      "the share group is named apart (--share-group)",
}

// CheckShare refuses the consumer properties in props a share consumer does not take, naming
// the first (in name order) and what governs instead.
func CheckShare(props map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(props)) {
		if why, ok := shareRefuses[name]; ok {
			return errorf(name, "%s does not apply to a share consumer: %s", name, why)
		}
	}
	return nil
}

// NotShare says whether the consumer property name is one a share consumer does not take
// (CheckShare), so that it is not recorded as in force.
func NotShare(name string) bool { _, ok := shareRefuses[name]; return ok }
