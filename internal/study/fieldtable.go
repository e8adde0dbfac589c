package study

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/flavor"
	"github.com/kbench/kbench/internal/rebalance"
	"github.com/kbench/kbench/internal/settings"
)

// field is one settable scenario field. The table below is the only place a field is
// declared: parameters, the defaults section, the cluster section, the shorthand parameter
// names, the "unknown field" choices and docs/study-format.md's field table all read it,
// so a field's value is parsed, and its error worded, in one place.
type field struct {
	// path is the dotted path; a map field's path ends in ".<name>" (any name, checked by
	// set) or lists its names in keys.
	path string
	keys []string
	// shorthand is the parameter name that sets the field without a declaration.
	shorthand string
	// value says what the field takes, for the docs.
	value string
	// set parses value into the scenario; name is the map key of a map field. A cluster
	// field sets the scenario's shape only (shape), so the cluster section shares it.
	set   func(s *Scenario, name, value string) error
	shape func(sh *Shape, name, value string) error
}

// fields is the field table, in the order the docs list it.
var fields = []field{
	{path: "listener", shorthand: "listener", value: "plain, sasl, tls or remote", set: func(s *Scenario, _, v string) error {
		s.Listener = v
		return oneOf(v, listenerChoices)
	}},
	{path: "network.client_rtt", shorthand: "client_rtt", value: "a round-trip time from 0 to 10s (needs cluster.network)", set: func(s *Scenario, _, v string) error {
		rtt, err := parseRTT(v, "10ms")
		s.ClientRTT = &rtt
		return err
	}},
	{path: "network.client_bandwidth", shorthand: "client_bandwidth", value: "unlimited or a size per second (needs cluster.network)", set: func(s *Scenario, _, v string) error {
		b, err := parseLinkBandwidth(v)
		s.ClientBandwidth = &b
		return err
	}},
	{path: "network.broker_rtt", shorthand: "broker_rtt", value: "a round-trip time from 0 to 10s (needs cluster.network.broker_rtt)", set: func(s *Scenario, _, v string) error {
		rtt, err := parseRTT(v, "2ms")
		s.BrokerRTT = &rtt
		return err
	}},
	{path: "topic.partitions", shorthand: "partitions", value: "a count, or N/broker", set: func(s *Scenario, _, v string) (err error) {
		s.Topic.Partitions, s.Topic.PerBroker, err = parsePartitions(v)
		return err
	}},
	{path: "topic.replicas", shorthand: "replicas", value: "a count of at least 1", set: func(s *Scenario, _, v string) (err error) {
		s.Topic.Replicas, err = parseCount(v, 1)
		return err
	}},
	{path: "topic.configs.<name>", value: "a topic config (see Topic configs)", set: func(s *Scenario, name, v string) error {
		return setSetting(settings.Topic, s.Topic.Configs, name, v)
	}},
	{path: "producers.count", shorthand: "producers", value: "a count", set: func(s *Scenario, _, v string) (err error) {
		s.Producers.Count, err = parseCount(v, 0)
		return err
	}},
	{path: "producers.record_size", shorthand: "record_size", value: "a size of at least 1 byte", set: func(s *Scenario, _, v string) error {
		n, err := ParseSize(v)
		if err == nil && n < 1 {
			err = fmt.Errorf("record size must be at least 1 byte")
		}
		s.Producers.RecordSize = int(n)
		return err
	}},
	{path: "producers.keys", value: "none or random", set: func(s *Scenario, _, v string) error {
		s.Producers.Keys = v
		return oneOf(v, keyChoices)
	}},
	{path: "producers.rate", shorthand: "rate", value: "records/s over all producers (0: unthrottled)", set: func(s *Scenario, _, v string) (err error) {
		s.Producers.Rate, err = parseCount(v, 0)
		return err
	}},
	{path: "producers.throttle", shorthand: "throttle", value: "records/s each producer is held to (0: none)", set: func(s *Scenario, _, v string) (err error) {
		s.Producers.Throttle, err = parseCount(v, 0)
		return err
	}},
	{path: "producers.records", shorthand: "records", value: "a count (replaces duration)", set: func(s *Scenario, _, v string) (err error) {
		s.Producers.Records, err = parseRecords(v)
		s.Producers.Duration = 0
		return err
	}},
	{path: "producers.duration", value: "a duration (replaces records)", set: func(s *Scenario, _, v string) (err error) {
		s.Producers.Duration, err = parseDuration(v)
		s.Producers.Records = 0
		return err
	}},
	{path: "producers.transaction", shorthand: "transaction", value: "none, or a duration: each producer commits a transaction this old (its transactional.id is kbench's)", set: func(s *Scenario, _, v string) (err error) {
		s.Producers.Transaction.Length, err = parseTransactionLength(v)
		return err
	}},
	{path: "producers.transaction_records", value: "a count: each producer commits after this many records (0: by duration only)", set: func(s *Scenario, _, v string) (err error) {
		n, err := parseCount(v, 0)
		s.Producers.Transaction.Records = int64(n)
		return err
	}},
	{path: "producers.transaction_aborts", value: "a share of transactions aborted on purpose, e.g. 10% (needs a transaction)", set: func(s *Scenario, _, v string) (err error) {
		s.Producers.Transaction.AbortShare, err = parseAbortShare(v)
		return err
	}},
	{path: "producers.properties.<name>", value: "a producer property (see Client properties)", set: func(s *Scenario, name, v string) error {
		return setSetting(settings.Producer, s.Producers.Properties, name, v)
	}},
	{path: "consumers.count", shorthand: "consumers", value: "a count", set: func(s *Scenario, _, v string) (err error) {
		s.Consumers.Count, err = parseCount(v, 0)
		return err
	}},
	{path: "consumers.group", value: "a group name", set: func(s *Scenario, _, v string) error {
		s.Consumers.Group = v
		return nil
	}},
	{path: "consumers.fetch_size", shorthand: "fetch_size", value: "a size", set: func(s *Scenario, _, v string) error {
		n, err := ParseSize(v)
		s.Consumers.FetchSize = int(n)
		return err
	}},
	{path: "consumers.records", value: "a count (replaces duration)", set: func(s *Scenario, _, v string) (err error) {
		s.Consumers.Records, err = parseRecords(v)
		s.Consumers.Duration = 0
		return err
	}},
	{path: "consumers.duration", value: "a duration (replaces records)", set: func(s *Scenario, _, v string) (err error) {
		s.Consumers.Duration, err = parseDuration(v)
		s.Consumers.Records = 0
		return err
	}},
	{path: "consumers.properties.<name>", value: "a consumer property (see Client properties)", set: func(s *Scenario, name, v string) error {
		return setSetting(settings.Consumer, s.Consumers.Properties, name, v)
	}},
	{path: "consumers.events", value: "membership " + rebalance.ScheduleSyntax + " (see Rebalances)", set: func(s *Scenario, _, v string) (err error) {
		s.Consumers.Events, err = rebalance.ParseSchedule(v)
		return err
	}},
	{path: "consumers.backlog", shorthand: "backlog", value: "a size: the producers write it before the consumers start, then keep their rate (a catch-up read)", set: func(s *Scenario, _, v string) (err error) {
		s.Consumers.Backlog, err = parseBacklog(v)
		return err
	}},
	{path: "consumers.share_group", shorthand: "share_group", value: "true or false: the consumers are one share group (KIP-932), not a consumer group", set: func(s *Scenario, _, v string) (err error) {
		s.Consumers.Share, err = parseBool(v)
		return err
	}},
	{path: "consumers.acknowledgement", value: "implicit or explicit: how share consumers acknowledge", set: func(s *Scenario, _, v string) error {
		s.Consumers.Acknowledgement = v
		return oneOf(v, acknowledgementChoices)
	}},
	{path: "consumers.release", shorthand: "release", value: "a share of deliveries share consumers release for redelivery, e.g. 1%", set: func(s *Scenario, _, v string) (err error) {
		s.Consumers.Release, err = parseDeliveryShare(v)
		return err
	}},
	{path: "consumers.reject", shorthand: "reject", value: "a share of deliveries share consumers reject, e.g. 1%", set: func(s *Scenario, _, v string) (err error) {
		s.Consumers.Reject, err = parseDeliveryShare(v)
		return err
	}},
	{path: "capacity.slo.<name>", value: "a latency limit for a percentile, e.g. p99: 50ms", set: func(s *Scenario, name, v string) error {
		p, d, err := parseSLO(name, v)
		if err == nil {
			s.Capacity.SLO[p] = d
		}
		return err
	}},
	{path: "capacity.precision", value: "the widest bracket, e.g. 5%", set: func(s *Scenario, _, v string) (err error) {
		s.Capacity.Precision, err = parsePrecision(v)
		return err
	}},
	{path: "capacity.trial", value: fmt.Sprintf("a duration of at least %s", MinCapacityTrial), set: func(s *Scenario, _, v string) (err error) {
		s.Capacity.Trial, err = parseDuration(v)
		if err == nil && s.Capacity.Trial < MinCapacityTrial {
			err = fmt.Errorf("trial %s is shorter than %s (trials while the bracket is wide last a quarter of it)", v, MinCapacityTrial)
		}
		return err
	}},
	{path: "capacity.max_trials", value: "a count (0: no limit but the budget)", set: func(s *Scenario, _, v string) (err error) {
		s.Capacity.MaxTrials, err = parseCount(v, 0)
		return err
	}},
	{path: "capacity.max_duration", value: "the search's budget, a duration", set: func(s *Scenario, _, v string) (err error) {
		s.Capacity.MaxDuration, err = parseDuration(v)
		return err
	}},
	{path: "capacity.exceed_ratio", value: "a share of trial time, e.g. 50%", set: func(s *Scenario, _, v string) (err error) {
		s.Capacity.ExceedRatio, err = parseExceedRatio(v)
		return err
	}},
	{path: "capacity.duration_sum", value: "a duration", set: func(s *Scenario, _, v string) (err error) {
		s.Capacity.DurationSum, err = parseDuration(v)
		return err
	}},
	{path: "capacity.confirm", value: "a duration (0: no confirmation)", set: func(s *Scenario, _, v string) (err error) {
		s.Capacity.Confirm, err = parseDuration(v)
		return err
	}},
	{path: "verify.faults", value: "a fault schedule (see Durability)", set: func(s *Scenario, _, v string) error {
		s.Verify.Faults = v
		return nil
	}},
	{path: "verify.duration", value: "a duration", set: func(s *Scenario, _, v string) (err error) {
		s.Verify.Duration, err = parseDuration(v)
		return err
	}},
	{path: "verify.rate", value: "records/s, at least 1", set: func(s *Scenario, _, v string) (err error) {
		s.Verify.Rate, err = parseCount(v, 1)
		return err
	}},
	// Cluster fields: each value is a cluster shape of its own (a cluster restart).
	{path: "cluster.brokers", shorthand: "brokers", value: fmt.Sprintf("a count from 1 to %d", maxBrokers), shape: func(sh *Shape, _, v string) (err error) {
		sh.Brokers, err = parseCount(v, 1)
		if err == nil && sh.Brokers > maxBrokers {
			err = fmt.Errorf("%d brokers is more than the %d kbench starts on one machine", sh.Brokers, maxBrokers)
		}
		return err
	}},
	{path: "cluster.kafka_version", shorthand: "kafka_version", value: "a Kafka version, " + MinKafkaVersion + " or later", shape: func(sh *Shape, _, v string) error {
		sh.KafkaVersion = v
		return checkKafkaVersion(v)
	}},
	{path: "cluster.heap", shorthand: "heap", value: "a JVM heap size such as 512m", shape: func(sh *Shape, _, v string) error {
		sh.Heap = v
		if !heapSize.MatchString(v) {
			return fmt.Errorf("%q is not a JVM heap size such as 512m or 1g", v)
		}
		return nil
	}},
	{path: "cluster.broker_cpus", shorthand: "broker_cpus", value: fmt.Sprintf("a CPU quota in cores per broker, at least %g", flavor.MinCPUs), shape: func(sh *Shape, _, v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < flavor.MinCPUs || math.IsInf(f, 0) {
			return fmt.Errorf("%q is not a CPU quota in cores of at least %g, such as 0.5 or 2", v, flavor.MinCPUs)
		}
		sh.Limits.CPUs = f
		return nil
	}},
	{path: "cluster.cpuset", shorthand: "cpuset", value: "a CPU list such as 0-1", shape: func(sh *Shape, _, v string) error {
		sh.Limits.Cpuset = v
		_, err := flavor.ParseCPUList(v)
		return err
	}},
	{path: "cluster.disk", shorthand: "disk", value: "tmpfs or none", shape: func(sh *Shape, _, v string) error {
		// A whole class; throttles come from cluster.disk.<key>, typically in a named
		// parameter value per class.
		switch v {
		case "tmpfs":
			sh.Limits.Disk = flavor.Disk{Tmpfs: true}
		case "none":
			sh.Limits.Disk = flavor.Disk{}
		default:
			return fmt.Errorf("%q is not tmpfs or none; a throttled class sets cluster.disk.<key> fields (%s), e.g. in a named parameter value", v, strings.Join(flavor.DiskKeys, ", "))
		}
		return nil
	}},
	{path: "cluster.disk.<key>", keys: flavor.DiskKeys, value: "a positive number: one throttle of the disk class", shape: func(sh *Shape, key, v string) error {
		sh.Limits.Disk.Tmpfs = false
		return sh.Limits.Disk.Set(key, v)
	}},
	{path: "cluster.broker_configs.<name>", value: "a server.properties entry (no secrets)", shape: func(sh *Shape, name, v string) error {
		return sh.setBrokerConfig(name, v)
	}},
}

// propertyShorthands are the parameter names that set one client property.
var propertyShorthands = []struct{ shorthand, path string }{
	{"acks", "producers.properties.acks"},
	{"batch", "producers.properties.batch.size"},
	{"linger", "producers.properties.linger.ms"},
	{"compression", "producers.properties.compression.type"},
	{"idempotence", "producers.properties.enable.idempotence"},
}

// Shorthands are parameter names that need no declaration: each sets one field.
var Shorthands = func() map[string]string {
	m := map[string]string{}
	for _, f := range fields {
		if f.shorthand != "" {
			m[f.shorthand] = f.path
		}
	}
	for _, p := range propertyShorthands {
		m[p.shorthand] = p.path
	}
	return m
}()

// lookupField finds the field of a dotted path and, for a map field, the name within it.
func lookupField(path string) (f *field, name string, ok bool) {
	for i := range fields {
		f := &fields[i]
		prefix, isMap := strings.CutSuffix(f.path, ".<name>")
		if !isMap {
			prefix, isMap = strings.CutSuffix(f.path, ".<key>")
		}
		if !isMap {
			if path == f.path {
				return f, "", true
			}
			continue
		}
		name, found := strings.CutPrefix(path, prefix+".")
		if found && name != "" && (f.keys == nil || slices.Contains(f.keys, name)) {
			return f, name, true
		}
	}
	return nil, "", false
}

// validField reports whether path names a settable field.
func validField(path string) bool {
	_, _, ok := lookupField(path)
	return ok
}

// fieldChoices lists every valid field path, for error messages.
func fieldChoices() []string {
	out := make([]string, 0, len(fields))
	for _, f := range fields {
		out = append(out, f.path)
	}
	return out
}

// setField sets the field at path from its written value.
func (s *Scenario) setField(path, value string) error {
	f, name, ok := lookupField(path)
	switch {
	case !ok:
		return fmt.Errorf("unknown field %q %s", path, choices(fieldChoices()))
	case f.shape != nil:
		return f.shape(&s.Cluster, name, value)
	default:
		return f.set(s, name, value)
	}
}

// setField sets a cluster field of the shape.
func (sh *Shape) setField(path, value string) error {
	f, name, ok := lookupField(path)
	if !ok || f.shape == nil {
		return fmt.Errorf("unknown cluster field %q", path)
	}
	return f.shape(sh, name, value)
}

// setSetting checks a client property or topic config against the catalogue and stores
// its normalised value.
func setSetting(role settings.Role, into map[string]string, name, value string) error {
	v, err := checkSetting(role, name, value)
	if err == nil {
		into[name] = v
	}
	return err
}

func oneOf(v string, valid []string) error {
	if !slices.Contains(valid, v) {
		return fmt.Errorf("%q is not valid %s", v, choices(valid))
	}
	return nil
}

func parseRTT(v, example string) (time.Duration, error) {
	rtt, err := time.ParseDuration(v)
	if err != nil || rtt < 0 || rtt > 10*time.Second {
		return rtt, fmt.Errorf("%q is not a round-trip time from 0 to 10s, such as %s", v, example)
	}
	return rtt, nil
}

// fieldsMarkdown is docs/study-format.md's field table, generated from the table above.
func fieldsMarkdown() string {
	var b strings.Builder
	b.WriteString("| field | parameter name | value |\n|---|---|---|\n")
	for _, f := range fields {
		short := ""
		if f.shorthand != "" {
			short = "`" + f.shorthand + "`"
		}
		path := f.path
		if f.keys != nil {
			path = strings.Replace(path, "<key>", "{"+strings.Join(f.keys, ",")+"}", 1)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", path, short, f.value)
	}
	for _, p := range propertyShorthands {
		fmt.Fprintf(&b, "| `%s` | `%s` | as the property |\n", p.path, p.shorthand)
	}
	return b.String()
}
