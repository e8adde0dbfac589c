package study

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kbench/kbench/internal/flavor"
	"github.com/kbench/kbench/internal/redact"
)

// Shape is the embedded cluster a scenario runs on: everything that takes a cluster
// restart to change. Scenarios with equal shapes share one cluster; a study whose
// scenarios differ in shape starts one cluster per shape (runner). Shape is comparable.
type Shape struct {
	// Brokers is the broker count; 0 for an external cluster of unknown size.
	Brokers int
	// KafkaVersion is the Apache Kafka version; "" for an external cluster.
	KafkaVersion string
	// Heap is each broker's JVM heap; "" for an external cluster.
	Heap string
	// Limits are each broker's CPU quota, pinning and disk class.
	Limits flavor.Limits
	// BrokerConfigs are the server.properties entries parameters set on top of
	// cluster.broker_configs (cluster.broker_configs.<name>), as sorted name=value lines so
	// the shape stays comparable; "" for none. BrokerConfigMap reads them.
	BrokerConfigs string
}

// BrokerConfigMap returns the shape's own broker configs by name (nil for none).
func (s Shape) BrokerConfigMap() map[string]string {
	if s.BrokerConfigs == "" {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(s.BrokerConfigs, "\n") {
		k, v, _ := strings.Cut(line, "=")
		out[k] = v
	}
	return out
}

// setBrokerConfig sets one of the shape's own broker configs, keeping the lines sorted.
func (s *Shape) setBrokerConfig(name, value string) error {
	if !brokerConfigName.MatchString(name) {
		return fmt.Errorf("%q is not a Kafka config name (lowercase words joined by dots, e.g. log.flush.interval.messages)", name)
	}
	if redact.IsSecret(name) {
		return fmt.Errorf("%s holds a secret, which a parameter value would show in scenario shapes and reports: set it in cluster.broker_configs, which is redacted", name)
	}
	if strings.ContainsAny(value, "\n") {
		return fmt.Errorf("broker config %s: a value may not span lines", name)
	}
	m := s.BrokerConfigMap()
	if m == nil {
		m = map[string]string{}
	}
	m[name] = value
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		lines = append(lines, k+"="+m[k])
	}
	s.BrokerConfigs = strings.Join(lines, "\n")
	return nil
}

// shapeOf is the shape the cluster section gives every scenario before parameters.
func shapeOf(c Cluster) Shape {
	return Shape{Brokers: c.Brokers, KafkaVersion: c.KafkaVersion, Heap: c.Heap, Limits: c.Limits}
}

// String describes the shape in words, e.g. "3 brokers, Kafka 4.1.1, heap 512m,
// 0.5 cores (CFS quota)".
func (s Shape) String() string {
	var parts []string
	switch {
	case s.Brokers == 1:
		parts = append(parts, "1 broker")
	case s.Brokers > 1:
		parts = append(parts, fmt.Sprintf("%d brokers", s.Brokers))
	}
	if s.KafkaVersion != "" {
		parts = append(parts, "Kafka "+s.KafkaVersion)
	}
	if s.Heap != "" {
		parts = append(parts, "heap "+s.Heap)
	}
	if s.Limits.Any() || s.Limits.Disk.Tmpfs {
		parts = append(parts, s.Limits.String())
	}
	if s.BrokerConfigs != "" {
		parts = append(parts, "broker configs "+strings.ReplaceAll(s.BrokerConfigs, "\n", ", "))
	}
	if len(parts) == 0 {
		return "external cluster"
	}
	return strings.Join(parts, ", ")
}

// ShapeGroup is the scenarios that run on one cluster shape.
type ShapeGroup struct {
	Shape Shape
	// Indexes are the scenarios' positions in Plan.Scenarios, in study order.
	Indexes []int
}

// ShapeGroups groups the plan's scenarios by cluster shape, in the order each shape first
// appears in the study.
func (p *Plan) ShapeGroups() []ShapeGroup {
	var out []ShapeGroup
	for i, s := range p.Scenarios {
		j := slices.IndexFunc(out, func(g ShapeGroup) bool { return g.Shape == s.Cluster })
		if j < 0 {
			out = append(out, ShapeGroup{Shape: s.Cluster})
			j = len(out) - 1
		}
		out[j].Indexes = append(out[j].Indexes, i)
	}
	return out
}

// VariesShape reports whether the scenarios need more than one cluster.
func (p *Plan) VariesShape() bool { return len(p.ShapeGroups()) > 1 }

// maxBrokers is the most brokers kbench starts on one machine.
const maxBrokers = 16

// MinKafkaVersion is the oldest Kafka the embedded cluster starts: it runs in KRaft mode
// only, with the configs of the 3.9 line and later.
const MinKafkaVersion = "3.9.0"

// checkKafkaVersion accepts MAJOR.MINOR.PATCH no older than MinKafkaVersion.
func checkKafkaVersion(v string) error {
	if !kafkaVersion.MatchString(v) {
		return fmt.Errorf("%q is not a version such as 4.1.1", v)
	}
	if versionLess(v, MinKafkaVersion) {
		return fmt.Errorf("version %s is older than %s, the oldest the embedded cluster starts (KRaft only)", v, MinKafkaVersion)
	}
	return nil
}

// versionLess compares two MAJOR.MINOR.PATCH versions numerically.
func versionLess(a, b string) bool {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := range 3 {
		x, _ := strconv.Atoi(pa[i])
		y, _ := strconv.Atoi(pb[i])
		if x != y {
			return x < y
		}
	}
	return false
}

// perBroker matches a partition count written as a multiple of the broker count:
// "2 x brokers", "2xbrokers", "2*brokers".
var perBroker = regexp.MustCompile(`^(\d+)\s*[x*]\s*brokers$`)

// parsePartitions parses topic.partitions: a count, or a multiple of the scenario's broker
// count (the Kafka 1.0.1 report's partitions = 2 x brokers), resolved once the
// scenario's shape is known.
func parsePartitions(value string) (n, per int, err error) {
	if m := perBroker.FindStringSubmatch(strings.TrimSpace(value)); m != nil {
		per, err = parseCount(m[1], 1)
		return 0, per, err
	}
	n, err = parseCount(value, 1)
	if err != nil {
		err = fmt.Errorf("%q is not a partition count or a multiple of the broker count such as 2xbrokers", value)
	}
	return n, 0, err
}

// resolveShape settles what depends on the scenario's cluster shape once all its fields
// are set: partitions written per broker, and the default replication factor, which is
// capped at the broker count as the cluster section's default is. Cluster fields are
// refused with an external cluster, whose shape kbench cannot change.
func (p *parsed) resolveShape(pt *point) error {
	s := &pt.s
	for _, path := range slices.Sorted(maps.Keys(pt.origin)) {
		if !strings.HasPrefix(path, "cluster.") || p.plan.Cluster.External == nil {
			continue
		}
		o := pt.origin[path]
		return p.d.errorf(o.node, o.field, "%s applies only to the embedded cluster: kbench cannot change an external cluster's shape", path)
	}
	if s.Topic.PerBroker > 0 {
		if s.Cluster.Brokers == 0 {
			o := pt.origin["topic.partitions"]
			return p.d.errorf(o.node, o.field, "partitions per broker need the broker count: set cluster.brokers")
		}
		s.Topic.Partitions = s.Topic.PerBroker * s.Cluster.Brokers
	}
	if _, set := pt.origin["topic.replicas"]; !set && s.Cluster.Brokers > 0 && s.Topic.Replicas > s.Cluster.Brokers {
		s.Topic.Replicas = s.Cluster.Brokers
	}
	return nil
}
