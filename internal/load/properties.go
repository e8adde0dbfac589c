package load

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Role says which kind of client a set of properties configures.
type Role int

// The client roles.
const (
	RoleProducer Role = iota
	RoleConsumer
)

func (r Role) String() string {
	if r == RoleConsumer {
		return "consumer"
	}
	return "producer"
}

// property is one Java client property kbench understands.
type property struct {
	name string
	// def is the Java client's default (Kafka 4.1), "" when it has none worth recording.
	def string
	// roles the property applies to; a property of the other role is unknown there.
	producer, consumer bool
	// noEquivalent marks a property with no franz-go counterpart: accepted with a warning.
	noEquivalent string
	secret       bool
}

// The supported properties with the Java client's defaults (Kafka 4.1 ProducerConfig and
// ConsumerConfig). Anything else is an error listing these names.
var properties = []property{
	{name: "bootstrap.servers", producer: true, consumer: true},
	{name: "client.id", producer: true, consumer: true},
	{name: "security.protocol", def: "PLAINTEXT", producer: true, consumer: true},
	{name: "sasl.mechanism", def: "GSSAPI", producer: true, consumer: true},
	{name: "sasl.jaas.config", producer: true, consumer: true, secret: true},
	{name: "ssl.truststore.location", producer: true, consumer: true},
	{name: "ssl.truststore.type", def: "JKS", producer: true, consumer: true},
	{name: "ssl.truststore.certificates", producer: true, consumer: true},
	{name: "ssl.truststore.password", producer: true, consumer: true, secret: true,
		noEquivalent: "only PEM trust stores are read, which have no password"},
	{name: "ssl.endpoint.identification.algorithm", def: "https", producer: true, consumer: true},
	{name: "request.timeout.ms", def: "30000", producer: true, consumer: true},
	{name: "metadata.max.age.ms", def: "300000", producer: true, consumer: true},
	{name: "send.buffer.bytes", def: "131072", producer: true, consumer: true,
		noEquivalent: "franz-go leaves socket buffers to the operating system"},
	{name: "receive.buffer.bytes", def: "32768", producer: true, consumer: true,
		noEquivalent: "franz-go leaves socket buffers to the operating system"},

	{name: "acks", def: "all", producer: true},
	{name: "enable.idempotence", def: "true", producer: true},
	{name: "batch.size", def: "16384", producer: true},
	{name: "linger.ms", def: "5", producer: true},
	{name: "compression.type", def: "none", producer: true},
	{name: "max.in.flight.requests.per.connection", def: "5", producer: true},
	{name: "buffer.memory", def: "33554432", producer: true},
	{name: "max.request.size", def: "1048576", producer: true},
	{name: "delivery.timeout.ms", def: "120000", producer: true},
	{name: "retries", def: "2147483647", producer: true},
	{name: "transactional.id", producer: true},
	{name: "transaction.timeout.ms", def: "60000", producer: true},
	{name: "max.block.ms", def: "60000", producer: true,
		noEquivalent: "franz-go blocks until the buffer has room or the run ends"},
	{name: "partitioner.class", producer: true,
		noEquivalent: "kbench always uses the Java client's built-in sticky partitioner"},
	{name: "key.serializer", producer: true},
	{name: "value.serializer", producer: true},

	{name: "group.id", consumer: true},
	{name: "auto.offset.reset", def: "latest", consumer: true},
	{name: "enable.auto.commit", def: "true", consumer: true},
	{name: "auto.commit.interval.ms", def: "5000", consumer: true},
	{name: "fetch.min.bytes", def: "1", consumer: true},
	{name: "fetch.max.bytes", def: "52428800", consumer: true},
	{name: "max.partition.fetch.bytes", def: "1048576", consumer: true},
	{name: "fetch.max.wait.ms", def: "500", consumer: true},
	{name: "isolation.level", def: "read_uncommitted", consumer: true},
	{name: "session.timeout.ms", def: "45000", consumer: true},
	{name: "heartbeat.interval.ms", def: "3000", consumer: true},
	{name: "max.poll.records", def: "500", consumer: true,
		noEquivalent: "franz-go returns whatever the fetches hold"},
	{name: "check.crcs", def: "true", consumer: true,
		noEquivalent: "franz-go always checks CRCs"},
	{name: "key.deserializer", consumer: true},
	{name: "value.deserializer", consumer: true},
}

// byteArraySerdes are the (de)serializers kbench behaves as anyway: accepted silently, since
// config files written for Kafka's tools often carry them.
var byteArraySerdes = map[string]bool{
	"org.apache.kafka.common.serialization.ByteArraySerializer":   true,
	"org.apache.kafka.common.serialization.ByteArrayDeserializer": true,
}

func lookupProperty(role Role, name string) (property, bool) {
	for _, p := range properties {
		if p.name == name && ((role == RoleProducer && p.producer) || (role == RoleConsumer && p.consumer)) {
			return p, true
		}
	}
	return property{}, false
}

// SupportedProperties returns the Java property names kbench accepts for role, sorted.
func SupportedProperties(role Role) []string {
	var names []string
	for _, p := range properties {
		if (role == RoleProducer && p.producer) || (role == RoleConsumer && p.consumer) {
			names = append(names, p.name)
		}
	}
	sort.Strings(names)
	return names
}

// ClientSettings is a set of Java client properties translated to franz-go.
type ClientSettings struct {
	// Opts are the kgo options: kbench's defaults first, then the user's overrides (kgo
	// applies options in order). Seed brokers are not included (see Bootstrap).
	Opts []kgo.Opt
	// Effective maps every Java property name to the value in force, defaults included,
	// secrets replaced by "[hidden]". It is recorded with every result.
	Effective map[string]string
	// Warnings name properties that were accepted but have no franz-go equivalent.
	Warnings []string
	// Bootstrap is bootstrap.servers split on commas (empty when not given).
	Bootstrap []string
	// TransactionalID is transactional.id ("" when not transactional).
	TransactionalID string
	// Idempotent says whether idempotent writes are in force (producers only).
	Idempotent bool
}

// ParseProperties translates Java client properties (Kafka 4.1 names and defaults) into
// franz-go options for role. An unknown property is an error listing the supported ones; a
// known property with no franz-go equivalent is accepted with a warning naming it.
func ParseProperties(role Role, props map[string]string) (*ClientSettings, error) {
	eff := map[string]string{}
	var warnings []string
	for _, p := range properties {
		if _, ok := lookupProperty(role, p.name); ok && p.def != "" {
			eff[p.name] = p.def
		}
	}
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := strings.TrimSpace(props[k])
		p, ok := lookupProperty(role, k)
		if !ok {
			return nil, fmt.Errorf("unknown %s property %q; supported: %s", role, k, strings.Join(SupportedProperties(role), ", "))
		}
		if strings.HasSuffix(k, "serializer") {
			if !byteArraySerdes[v] {
				warnings = append(warnings, fmt.Sprintf("%s=%s ignored: kbench sends and reads raw bytes", k, v))
			}
			continue
		}
		if p.noEquivalent != "" {
			warnings = append(warnings, fmt.Sprintf("%s ignored: %s", k, p.noEquivalent))
		}
		eff[k] = v
	}

	b := &settingsBuilder{role: role, eff: eff, explicit: props}
	s := &ClientSettings{Warnings: warnings}
	if err := b.build(s); err != nil {
		return nil, err
	}
	s.Warnings = append(s.Warnings, b.warnings...)
	s.Effective = map[string]string{}
	for k, v := range eff {
		if p, _ := lookupProperty(role, k); p.secret {
			v = redact(k, v)
		}
		s.Effective[k] = v
	}
	return s, nil
}

var jaasPassword = regexp.MustCompile(`(?i)(password\s*=\s*)("[^"]*"|\S+)`)

// redact hides the secret parts of a property value.
func redact(name, v string) string {
	if name == "sasl.jaas.config" {
		return jaasPassword.ReplaceAllString(v, `${1}"[hidden]"`)
	}
	return "[hidden]"
}

// settingsBuilder turns the effective property map into kgo options, in one place so that
// cross-property rules (acks and idempotence) are checked together.
type settingsBuilder struct {
	role     Role
	eff      map[string]string
	explicit map[string]string
	warnings []string
	err      error
}

func (b *settingsBuilder) set(name string) bool { _, ok := b.explicit[name]; return ok }

func (b *settingsBuilder) int64(name string, min int64) int64 {
	v, err := strconv.ParseInt(b.eff[name], 10, 64)
	if err == nil && v < min {
		err = fmt.Errorf("below the minimum %d", min)
	}
	if err != nil && b.err == nil {
		b.err = fmt.Errorf("invalid %s=%q: %v", name, b.eff[name], err)
	}
	return v
}

func (b *settingsBuilder) int32(name string, min int64) int32 {
	v := b.int64(name, min)
	if v > 1<<31-1 {
		v = 1<<31 - 1
	}
	return int32(v)
}

func (b *settingsBuilder) ms(name string, min int64) time.Duration {
	return time.Duration(b.int64(name, min)) * time.Millisecond
}

func (b *settingsBuilder) bool(name string) bool {
	v, err := strconv.ParseBool(b.eff[name])
	if err != nil && b.err == nil {
		b.err = fmt.Errorf("invalid %s=%q: want true or false", name, b.eff[name])
	}
	return v
}

func (b *settingsBuilder) oneOf(name string, choices ...string) string {
	v := strings.ToLower(b.eff[name])
	for _, c := range choices {
		if v == strings.ToLower(c) {
			return c
		}
	}
	if b.err == nil {
		b.err = fmt.Errorf("invalid %s=%q: want one of %s", name, b.eff[name], strings.Join(choices, ", "))
	}
	return choices[0]
}

func (b *settingsBuilder) build(s *ClientSettings) error {
	if v := b.eff["bootstrap.servers"]; v != "" {
		for _, h := range strings.Split(v, ",") {
			if h = strings.TrimSpace(h); h != "" {
				s.Bootstrap = append(s.Bootstrap, h)
			}
		}
	}
	if id := b.eff["client.id"]; id != "" {
		s.Opts = append(s.Opts, kgo.ClientID(id))
	}
	// Java's request.timeout.ms is also the timeout written into each produce request; kgo's
	// ProduceRequestTimeout is that field (default 10 s in kgo, 30 s in Java).
	reqTimeout := b.ms("request.timeout.ms", 1)
	if b.role == RoleProducer {
		s.Opts = append(s.Opts, kgo.ProduceRequestTimeout(reqTimeout))
	}
	// Java refreshes metadata every 5 minutes, as kgo does; set so the record is explicit.
	s.Opts = append(s.Opts, kgo.MetadataMaxAge(b.ms("metadata.max.age.ms", 1000)))

	sec, err := securityOpts(b.eff)
	if err != nil {
		return err
	}
	s.Opts = append(s.Opts, sec...)

	if b.role == RoleProducer {
		b.producer(s)
	} else {
		b.consumer(s)
	}
	return b.err
}

func (b *settingsBuilder) producer(s *ClientSettings) {
	acks := b.oneOf("acks", "all", "-1", "0", "1")
	allAcks := acks == "all" || acks == "-1"
	maxInFlight := b.int64("max.in.flight.requests.per.connection", 1)
	retries := b.int64("retries", 0)
	idem := b.bool("enable.idempotence")
	// The Java client (3.0+) enables idempotence by default but turns it off silently when a
	// conflicting setting was chosen and idempotence was not asked for explicitly; asked for
	// explicitly, the conflict is a configuration error. Mirror both.
	conflict := ""
	switch {
	case !allAcks:
		conflict = "acks=" + acks
	case maxInFlight > 5:
		conflict = fmt.Sprintf("max.in.flight.requests.per.connection=%d", maxInFlight)
	case retries == 0:
		conflict = "retries=0"
	}
	if idem && conflict != "" {
		if b.set("enable.idempotence") {
			b.fail(fmt.Errorf("enable.idempotence=true conflicts with %s (idempotence needs acks=all, retries > 0 and max.in.flight.requests.per.connection <= 5)", conflict))
			return
		}
		idem = false
		b.eff["enable.idempotence"] = "false"
	}
	s.Idempotent = idem

	switch acks {
	case "0":
		s.Opts = append(s.Opts, kgo.RequiredAcks(kgo.NoAck()))
	case "1":
		s.Opts = append(s.Opts, kgo.RequiredAcks(kgo.LeaderAck()))
	default:
		// acks=all is both clients' default; set so that the recorded option list says it.
		s.Opts = append(s.Opts, kgo.RequiredAcks(kgo.AllISRAcks()))
	}
	if idem {
		// kgo allows 5 produce requests in flight per broker with idempotence, as Java does
		// with its default max.in.flight.requests.per.connection=5; a lower Java value has
		// no kgo counterpart.
		if maxInFlight < 5 && b.set("max.in.flight.requests.per.connection") {
			b.warnings = append(b.warnings, fmt.Sprintf("max.in.flight.requests.per.connection=%d ignored with idempotence: franz-go keeps 5 in flight", maxInFlight))
		}
	} else {
		// Without idempotence kgo defaults to 1 request in flight; Java's default is 5.
		s.Opts = append(s.Opts, kgo.DisableIdempotentWrite(), kgo.MaxProduceRequestsInflightPerBroker(int(maxInFlight)))
	}

	batch := b.int32("batch.size", 1)
	if batch < 512 {
		// kgo cannot build a batch smaller than 512 bytes; Java's small batch sizes mean "one
		// or few records per batch", which a 512-byte cap gives too.
		b.warnings = append(b.warnings, fmt.Sprintf("batch.size=%d raised to franz-go's minimum of 512", batch))
		batch = 512
	}
	s.Opts = append(s.Opts,
		// Java's batch.size (16 KiB) closes a batch when full; kgo's default cap is ~1 MB,
		// which would make batches 60 times larger than the Java client's.
		kgo.ProducerBatchMaxBytes(batch),
		// Java 4.x's built-in partitioner sticks to a partition until batch.size bytes went to
		// it and prefers less loaded brokers (adaptive), hashing keys with murmur2;
		// kgo's default switches every 64 KiB.
		kgo.RecordPartitioner(kgo.UniformBytesPartitioner(int(batch), true, true, nil)),
		// Java 4.x lingers 5 ms by default (KIP-1030); kgo's default is 10 ms.
		kgo.ProducerLinger(b.ms("linger.ms", 0)),
		// buffer.memory bounds the bytes waiting in the client (32 MiB); when it is full,
		// produce blocks, as Java's send() does. With an unthrottled run most of the
		// reported latency is time in this buffer, in both tools.
		kgo.MaxBufferedBytes(int(b.int64("buffer.memory", 1024))),
		// Java has no record-count bound; kgo's default of 50,000 records would cap small
		// records long before buffer.memory does.
		kgo.MaxBufferedRecords(1<<30),
		// Java's max.request.size bounds one produce request (1 MiB); kgo's default 100 MiB.
		kgo.BrokerMaxWriteBytes(b.int32("max.request.size", 1024)),
		// Java fails a record 120 s after send(); kgo's default is to never time out.
		kgo.RecordDeliveryTimeout(b.ms("delivery.timeout.ms", 1000)),
	)
	if b.set("retries") {
		// Java retries up to 2^31-1 times within delivery.timeout.ms, as kgo's unlimited
		// default does; only an explicit value is passed on.
		s.Opts = append(s.Opts, kgo.RecordRetries(int(retries)))
	}
	s.Opts = append(s.Opts, kgo.ProducerBatchCompression(b.compression()))
	if id := b.eff["transactional.id"]; id != "" {
		if !idem {
			b.fail(fmt.Errorf("transactional.id=%s needs idempotence (acks=all)", id))
			return
		}
		s.TransactionalID = id
		s.Opts = append(s.Opts, kgo.TransactionalID(id), kgo.TransactionTimeout(b.ms("transaction.timeout.ms", 1000)))
	}
}

// compression maps compression.type; Java's default is none, kgo's is snappy.
func (b *settingsBuilder) compression() kgo.CompressionCodec {
	switch b.oneOf("compression.type", "none", "gzip", "snappy", "lz4", "zstd") {
	case "gzip":
		return kgo.GzipCompression()
	case "snappy":
		return kgo.SnappyCompression()
	case "lz4":
		return kgo.Lz4Compression()
	case "zstd":
		return kgo.ZstdCompression()
	}
	return kgo.NoCompression()
}

func (b *settingsBuilder) consumer(s *ClientSettings) {
	s.Opts = append(s.Opts,
		// Java waits at most 500 ms for fetch.min.bytes; kgo's default is 5 s.
		kgo.FetchMaxWait(b.ms("fetch.max.wait.ms", 0)),
		kgo.FetchMinBytes(b.int32("fetch.min.bytes", 0)),
		kgo.FetchMaxBytes(b.int32("fetch.max.bytes", 0)),
		kgo.FetchMaxPartitionBytes(b.int32("max.partition.fetch.bytes", 0)),
		kgo.SessionTimeout(b.ms("session.timeout.ms", 1)),
		kgo.HeartbeatInterval(b.ms("heartbeat.interval.ms", 1)),
	)
	switch b.oneOf("auto.offset.reset", "latest", "earliest", "none") {
	case "earliest":
		s.Opts = append(s.Opts, kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	case "none":
		s.Opts = append(s.Opts, kgo.ConsumeResetOffset(kgo.NoResetOffset()))
	default:
		// Java's default is latest; kgo's is earliest.
		s.Opts = append(s.Opts, kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()))
	}
	if b.oneOf("isolation.level", "read_uncommitted", "read_committed") == "read_committed" {
		s.Opts = append(s.Opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	if b.bool("enable.auto.commit") {
		s.Opts = append(s.Opts, kgo.AutoCommitInterval(b.ms("auto.commit.interval.ms", 1)))
	} else {
		s.Opts = append(s.Opts, kgo.DisableAutoCommit())
	}
}

func (b *settingsBuilder) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

// ParsePropertyArgs parses "name=value" arguments (--producer-props, --command-property, -X).
// Only the first '=' separates, so a value may contain '=' (sasl.jaas.config inline).
func ParsePropertyArgs(args []string) (map[string]string, error) {
	props := map[string]string{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("invalid property %q: want name=value", a)
		}
		props[k] = v
	}
	return props, nil
}

// clientSettings parses props for role and resolves the seed brokers: bootstrap (a flag)
// wins over bootstrap.servers. The effective settings record both, and the numbered client
// IDs kbench gives its clients when props has none.
func clientSettings(role Role, props map[string]string, bootstrap string) (*ClientSettings, []string, error) {
	settings, err := ParseProperties(role, props)
	if err != nil {
		return nil, nil, err
	}
	seeds := settings.Bootstrap
	if bootstrap != "" {
		seeds = strings.Split(bootstrap, ",")
		settings.Effective["bootstrap.servers"] = bootstrap
	}
	if len(seeds) == 0 {
		return nil, nil, fmt.Errorf("invalid %s configuration: no bootstrap servers (--bootstrap-server or bootstrap.servers)", role)
	}
	if _, ok := props["client.id"]; !ok {
		settings.Effective["client.id"] = fmt.Sprintf("kbench-%s-<n>", role)
	}
	return settings, seeds, nil
}
