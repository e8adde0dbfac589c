package settings

import "strings"

// The consumer group protocols of group.protocol.
const (
	// ClassicProtocol is the group protocol the clients run (JoinGroup, SyncGroup).
	ClassicProtocol = "classic"
	// ConsumerProtocol is KIP-848's: the broker assigns partitions through
	// ConsumerGroupHeartbeat (Kafka 4.0+).
	ConsumerProtocol = "consumer"
	// DefaultRemoteAssignor is the broker's default server-side assignor (the first of
	// group.consumer.assignors), which a Java consumer that names none gets.
	DefaultRemoteAssignor = "uniform"
)

// consumerProtocolRefuses are the consumer properties the Java client (4.0+) refuses with
// group.protocol=consumer, where the broker owns them, and the broker config that does.
var consumerProtocolRefuses = map[string]string{
	"session.timeout.ms":            "group.consumer.session.timeout.ms",
	"heartbeat.interval.ms":         "group.consumer.heartbeat.interval.ms",
	"partition.assignment.strategy": "group.consumer.assignors (choose one with group.remote.assignor)",
}

// GroupProtocol returns the group protocol a consumer with props runs: group.protocol as
// the Java client reads it (case-insensitively), classic when unset.
func GroupProtocol(props map[string]string) string {
	if v := strings.ToLower(strings.TrimSpace(props["group.protocol"])); v != "" {
		return v
	}
	return ClassicProtocol
}

// requirements refuses a property set without the value it requires (Property.Requires).
func (r *Resolved) requirements() error {
	for name := range r.Explicit {
		p, ok := Lookup(r.Role, name)
		if !ok || p.Requires == "" {
			continue
		}
		other, want, _ := strings.Cut(p.Requires, "=")
		if r.Values[other] != want {
			return errorf(name, "%s cannot be set when %s=%s (it needs %s)", name, other, r.Values[other], p.Requires)
		}
	}
	return nil
}

// groupProtocol applies the Java consumer's rules of group.protocol=consumer: the session
// timeout, heartbeat interval and assignment strategy are the broker's, so setting them is an
// error and they are not in force; the server assignor is recorded, the broker's default
// when unset.
func (r *Resolved) groupProtocol() error {
	if r.Values["group.protocol"] != ConsumerProtocol {
		return nil
	}
	for _, name := range []string{"heartbeat.interval.ms", "partition.assignment.strategy", "session.timeout.ms"} {
		if r.Set(name) {
			return errorf(name, "%s cannot be set when group.protocol=consumer: the brokers' %s applies", name, consumerProtocolRefuses[name])
		}
		delete(r.Values, name)
	}
	if r.Values["group.remote.assignor"] == "" {
		r.Values["group.remote.assignor"] = DefaultRemoteAssignor
	}
	return nil
}

// Alone returns the properties that set p to value and nothing else it does not need: p's
// requirement (Requires) with it, for tests and examples that try one property at a time.
func (p Property) Alone(value string) map[string]string {
	props := map[string]string{p.Name: value}
	if other, want, ok := strings.Cut(p.Requires, "="); ok {
		props[other] = want
	}
	return props
}
