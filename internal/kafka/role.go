package kafka

import (
	"crypto/tls"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/redact"
	"github.com/kbench/kbench/internal/settings"
)

// ClientSettings is a set of Java client properties translated to franz-go.
type ClientSettings struct {
	// Opts are the kgo options: kbench's defaults first, then the user's overrides (kgo
	// applies options in order). Seed brokers are not included (see Bootstrap).
	Opts []kgo.Opt
	// Effective maps every Java property the engine applies to the value in force, defaults
	// included, secrets redacted (internal/redact). It is recorded with every result; a property
	// the engine does not apply is never in it (see Warnings).
	Effective map[string]string
	// Warnings name properties that were accepted but not applied, and settings changed by
	// a rule (idempotence turned off).
	Warnings []string
	// Bootstrap is bootstrap.servers split on commas (empty when not given).
	Bootstrap []string
	// TransactionalID is transactional.id ("" when not transactional).
	TransactionalID string
	// Idempotent says whether idempotent writes are in force (producers only).
	Idempotent bool
	// MaxPollRecords is max.poll.records: the most records one poll returns (consumers only;
	// the caller polls with kgo's PollRecords).
	MaxPollRecords int
	// TLS is the configuration the client dials with (nil without TLS), for a caller that
	// dials itself (kgo.Dialer replaces kgo.DialTLSConfig, so such a dialer must speak TLS).
	TLS *tls.Config
	// Resolved are the checked properties, for checks that need the records too
	// (settings.CheckRecords).
	Resolved *settings.Resolved
}

// ParseProperties translates Java client properties (Kafka 4.1 names and defaults, the
// catalogue of internal/settings) into franz-go options for role. An unknown property or an
// invalid value is an error naming the valid ones; a property franz-go has no equivalent
// for is accepted with a warning and left out of the effective settings.
func ParseProperties(role settings.Role, props map[string]string) (*ClientSettings, error) {
	r, err := settings.Resolve(role, props)
	if err != nil {
		return nil, fmt.Errorf("invalid %s configuration: %w", role, err)
	}
	s := &ClientSettings{Warnings: r.Warnings, Resolved: r}
	b := &settingsBuilder{r: r, used: map[string]bool{}}
	if err := b.build(role, s); err != nil {
		return nil, fmt.Errorf("invalid %s configuration: %w", role, err)
	}
	// Hidden here, before the settings reach a result, a log line or the screen: what the
	// catalogue or internal/redact calls secret.
	s.Effective = map[string]string{}
	for k, v := range r.Values {
		if p, _ := settings.Lookup(role, k); p.Secret || redact.IsSecret(k) {
			v = redact.Secret(k, v)
		}
		s.Effective[k] = v
	}
	return s, nil
}

// settingsBuilder turns resolved properties into kgo options. Every read goes through
// value, which notes the property as used, so a test can check that each property the
// catalogue says is applied is read here.
type settingsBuilder struct {
	r    *settings.Resolved
	used map[string]bool
}

func (b *settingsBuilder) value(name string) string { b.used[name] = true; return b.r.Values[name] }

func (b *settingsBuilder) int(name string) int64 {
	n, _ := strconv.ParseInt(b.value(name), 10, 64) // checked by settings.Resolve
	return n
}

func (b *settingsBuilder) ms(name string) time.Duration {
	return time.Duration(b.int(name)) * time.Millisecond
}

func (b *settingsBuilder) bool(name string) bool { return b.value(name) == "true" }

func (b *settingsBuilder) build(role settings.Role, s *ClientSettings) error {
	if v := b.value("bootstrap.servers"); v != "" {
		for _, h := range strings.Split(v, ",") {
			if h = strings.TrimSpace(h); h != "" {
				s.Bootstrap = append(s.Bootstrap, h)
			}
		}
	}
	if id := b.value("client.id"); id != "" {
		s.Opts = append(s.Opts, kgo.ClientID(id))
	}
	// Java refreshes metadata every 5 minutes, as kgo does; set so the record is explicit.
	// kgo refuses a maximum age below its minimum age (5 s by default), so a shorter one
	// lowers the minimum too.
	age := b.ms("metadata.max.age.ms")
	s.Opts = append(s.Opts, kgo.MetadataMaxAge(age), kgo.MetadataMinAge(min(age, 5*time.Second)))
	// Java closes idle connections after 9 minutes; kgo's default is 20 s.
	s.Opts = append(s.Opts, kgo.ConnIdleTimeout(b.ms("connections.max.idle.ms")))
	s.Opts = append(s.Opts, kgo.RetryBackoffFn(javaBackoff(b.ms("retry.backoff.ms"), b.ms("retry.backoff.max.ms"))))

	for _, name := range []string{"security.protocol", "sasl.mechanism", "sasl.jaas.config", "ssl.truststore.location",
		"ssl.truststore.type", "ssl.truststore.certificates", "ssl.endpoint.identification.algorithm"} {
		b.used[name] = true // read by securityOpts
	}
	sec, tlsCfg, err := securityOpts(b.r.Values)
	if err != nil {
		return err
	}
	s.Opts, s.TLS = append(s.Opts, sec...), tlsCfg

	if role == settings.Producer {
		b.producer(s)
	} else {
		b.consumer(s)
	}
	return nil
}

// javaBackoff is the Java client's retry back-off: retry.backoff.ms doubling with each
// attempt up to retry.backoff.max.ms, with 20% random jitter either way
// (ExponentialBackoff(base, 2, max, 0.2)). kgo's default is 250 ms to 5 s.
func javaBackoff(base, limit time.Duration) func(int) time.Duration {
	return func(tries int) time.Duration {
		if base <= 0 || limit <= 0 {
			return 0
		}
		d := base
		for i := 1; i < tries && d < limit; i++ {
			d *= 2
		}
		d = min(d, limit)
		jitter := 0.8 + 0.4*rand.Float64()
		return time.Duration(float64(d) * jitter)
	}
}

func (b *settingsBuilder) producer(s *ClientSettings) {
	// Java's request.timeout.ms is also the timeout written into each produce request; kgo's
	// ProduceRequestTimeout is that field (default 10 s in kgo, 30 s in Java).
	s.Opts = append(s.Opts, kgo.ProduceRequestTimeout(b.ms("request.timeout.ms")))
	switch b.value("acks") {
	case "0":
		s.Opts = append(s.Opts, kgo.RequiredAcks(kgo.NoAck()))
	case "1":
		s.Opts = append(s.Opts, kgo.RequiredAcks(kgo.LeaderAck()))
	default:
		// acks=all is both clients' default; set so that the recorded option list says it.
		s.Opts = append(s.Opts, kgo.RequiredAcks(kgo.AllISRAcks()))
	}
	// settings.Resolve turned idempotence off wherever kgo could not honour the in-flight
	// limit with it: with idempotence kgo keeps 5 requests in flight per broker, as Java does
	// with its default max.in.flight.requests.per.connection=5.
	inFlight := b.int("max.in.flight.requests.per.connection")
	s.Idempotent = b.bool("enable.idempotence")
	if !s.Idempotent {
		// Without idempotence kgo defaults to 1 request in flight; Java's default is 5.
		s.Opts = append(s.Opts, kgo.DisableIdempotentWrite(), kgo.MaxProduceRequestsInflightPerBroker(int(inFlight)))
	}

	// kgo cannot build a batch smaller than 512 bytes; Produce raises the cap to one record
	// when a record is larger, and settings.CheckRecords refuses a batch.size below 512 that
	// would put more records in a batch than Java does.
	batch := int32(max(b.int("batch.size"), settings.MinBatchBytes))
	s.Opts = append(s.Opts,
		// Java's batch.size (16 KiB) closes a batch when full; kgo's default cap is ~1 MB,
		// which would make batches 60 times larger than the Java client's.
		kgo.ProducerBatchMaxBytes(batch),
		// Java 4.x's built-in partitioner sticks to a partition until batch.size bytes went to
		// it, prefers less loaded brokers unless partitioner.adaptive.partitioning.enable is
		// false, and hashes keys with murmur2 unless partitioner.ignore.keys; kgo's default
		// switches every 64 KiB.
		kgo.RecordPartitioner(kgo.UniformBytesPartitioner(int(batch),
			b.bool("partitioner.adaptive.partitioning.enable"), !b.bool("partitioner.ignore.keys"), nil)),
		// Java 4.x lingers 5 ms by default (KIP-1030); kgo's default is 10 ms.
		kgo.ProducerLinger(b.ms("linger.ms")),
		// buffer.memory bounds the bytes waiting in the client (32 MiB); when it is full,
		// produce blocks, as Java's send() does. With an unthrottled run most of the
		// reported latency is time in this buffer, in both tools.
		kgo.MaxBufferedBytes(int(b.int("buffer.memory"))),
		// Java has no record-count bound; kgo's default of 50,000 records would cap small
		// records long before buffer.memory does.
		kgo.MaxBufferedRecords(1<<30),
		// Java's max.request.size bounds one produce request (1 MiB); kgo's default 100 MiB.
		kgo.BrokerMaxWriteBytes(int32(b.int("max.request.size"))),
		// Java fails a record 120 s after send(); kgo's default is to never time out.
		kgo.RecordDeliveryTimeout(b.ms("delivery.timeout.ms")),
		// Java retries up to 2^31-1 times within delivery.timeout.ms, as kgo's unlimited
		// default does.
		kgo.RecordRetries(int(b.int("retries"))),
		kgo.ProducerBatchCompression(b.compression()),
	)
	if id := b.value("transactional.id"); id != "" {
		s.TransactionalID = id
		s.Opts = append(s.Opts, kgo.TransactionalID(id), kgo.TransactionTimeout(b.ms("transaction.timeout.ms")))
	}
}

// compression maps compression.type; Java's default is none, kgo's is snappy.
func (b *settingsBuilder) compression() kgo.CompressionCodec {
	switch b.value("compression.type") {
	case "gzip":
		c := kgo.GzipCompression()
		// Java's -1 is zlib's default level, which kgo uses for level 0 (unset); 1..9 mean
		// the same in Go's compress/gzip as in zlib.
		if level := b.int("compression.gzip.level"); level > 0 {
			c = c.WithLevel(int(level))
		}
		return c
	case "snappy":
		return kgo.SnappyCompression()
	case "lz4":
		return kgo.Lz4Compression()
	case "zstd":
		return kgo.ZstdCompression()
	}
	b.used["compression.gzip.level"] = true // read for gzip only
	return kgo.NoCompression()
}

func (b *settingsBuilder) consumer(s *ClientSettings) {
	// The Java consumer waits up to request.timeout.ms for any response; kgo waits a
	// request's own timeout (a fetch's max wait) plus this overhead.
	s.Opts = append(s.Opts, kgo.RequestTimeoutOverhead(b.ms("request.timeout.ms")))
	fetchMax := int32(b.int("fetch.max.bytes"))
	s.Opts = append(s.Opts,
		// Java waits at most 500 ms for fetch.min.bytes; kgo's default is 5 s.
		kgo.FetchMaxWait(b.ms("fetch.max.wait.ms")),
		kgo.FetchMinBytes(int32(b.int("fetch.min.bytes"))),
		kgo.FetchMaxBytes(fetchMax),
		kgo.FetchMaxPartitionBytes(int32(b.int("max.partition.fetch.bytes"))),
		// The Java consumer sends max.poll.interval.ms as the group's rebalance timeout.
		kgo.RebalanceTimeout(b.ms("max.poll.interval.ms")),
	)
	s.Opts = append(s.Opts, b.groupProtocol()...)
	// kgo refuses a fetch larger than what it reads from a broker (100 MiB by default).
	if fetchMax > 100<<20 {
		s.Opts = append(s.Opts, kgo.BrokerMaxReadBytes(fetchMax))
	}
	if rack := b.value("client.rack"); rack != "" {
		s.Opts = append(s.Opts, kgo.Rack(rack))
	}
	b.value("group.id") // applied by Consume with kgo.ConsumerGroup
	s.MaxPollRecords = int(b.int("max.poll.records"))
	switch b.value("auto.offset.reset") {
	case "earliest":
		s.Opts = append(s.Opts, kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	case "none":
		s.Opts = append(s.Opts, kgo.ConsumeResetOffset(kgo.NoResetOffset()))
	default:
		// Java's default is latest; kgo's is earliest.
		s.Opts = append(s.Opts, kgo.ConsumeResetOffset(kgo.NewOffset().AtEnd()))
	}
	if b.value("isolation.level") == "read_committed" {
		s.Opts = append(s.Opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	if b.bool("enable.auto.commit") {
		s.Opts = append(s.Opts, kgo.AutoCommitInterval(b.ms("auto.commit.interval.ms")))
	} else {
		b.used["auto.commit.interval.ms"] = true // applies only with auto commit
		s.Opts = append(s.Opts, kgo.DisableAutoCommit())
	}
}
