package settings

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestCatalogueIsWellFormed(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range All() {
		key := p.Role.String() + " " + p.Name
		if seen[key] {
			t.Errorf("%s listed twice", key)
		}
		seen[key] = true
		if p.Applies == "" && p.Ignored == "" {
			t.Errorf("%s: neither applied nor ignored", p.Name)
		}
		if p.Applies != "" && p.Ignored != "" {
			t.Errorf("%s: both applied and ignored", p.Name)
		}
		if p.Studyable() && p.Example == "" {
			t.Errorf("%s: a study may set it but it has no example", p.Name)
		}
		// Every applied default and example must pass the property's own check.
		for _, v := range []string{p.Default, p.Example} {
			if v == "" || p.Ignored != "" {
				continue
			}
			if got, err := p.Check(v); err != nil || got != v {
				t.Errorf("%s: %q checks as %q, %v", p.Name, v, got, err)
			}
		}
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		role                       Role
		name, value, want, wantErr string
	}{
		{name: "acks", value: "ALL", want: "all"},
		{name: "acks", value: "2", wantErr: `acks="2" is not valid (valid: 0, 1, -1, all)`},
		{name: "enable.idempotence", value: "True", want: "true"},
		// Java's boolean parser knows true and false only.
		{name: "enable.idempotence", value: "1", wantErr: "(valid: true, false)"},
		{name: "linger.ms", value: " 10 ", want: "10"},
		// franz-go lingers at most a minute.
		{name: "linger.ms", value: "60001", wantErr: "(valid: a whole number from 0 to 60000)"},
		{name: "linger.ms", value: "soon", wantErr: `linger.ms="soon" is not valid`},
		{name: "compression.gzip.level", value: "-1", want: "-1"},
		{name: "compression.gzip.level", value: "0", wantErr: "(valid: -1 or a whole number from 1 to 9)"},
		{name: "max.request.size", value: "512", wantErr: "a byte count from 1024 to 1073741824"},

		// Topic configs: LogConfig's types and ranges.
		{role: Topic, name: "compression.type", value: "none", wantErr: `compression.type="none" is not valid (valid: producer, uncompressed, gzip, snappy, lz4, zstd)`},
		{role: Topic, name: "compression.type", value: "ZSTD", want: "zstd"},
		{role: Topic, name: "cleanup.policy", value: "compact, Delete", want: "compact,delete"},
		{role: Topic, name: "cleanup.policy", value: "compact,compact", wantErr: "(valid: a comma-separated list of delete, compact)"},
		{role: Topic, name: "cleanup.policy", value: "", wantErr: `cleanup.policy="" is not valid`},
		{role: Topic, name: "min.cleanable.dirty.ratio", value: "0.50", want: "0.5"},
		{role: Topic, name: "min.cleanable.dirty.ratio", value: "1", want: "1"},
		{role: Topic, name: "min.cleanable.dirty.ratio", value: "1.01", wantErr: "(valid: a number from 0 to 1)"},
		{role: Topic, name: "min.cleanable.dirty.ratio", value: "NaN", wantErr: "(valid: a number from 0 to 1)"},
		{role: Topic, name: "retention.ms", value: "-1", want: "-1"},
		{role: Topic, name: "retention.ms", value: "-2", wantErr: `retention.ms="-2" is not valid (valid: a whole number of at least -1)`},
		{role: Topic, name: "retention.bytes", value: "-1", want: "-1"},
		{role: Topic, name: "retention.bytes", value: "-5", wantErr: "(valid: -1 or a byte count of at least 0)"},
		{role: Topic, name: "local.retention.bytes", value: "-2", want: "-2"},
		// Kafka 4.0 raised segment.bytes' floor to 1 MiB.
		{role: Topic, name: "segment.bytes", value: "1048575", wantErr: "(valid: a byte count from 1048576 to 2147483647)"},
		{role: Topic, name: "flush.messages", value: "0", wantErr: "a whole number of at least 1"},
		// One past Long.MAX_VALUE does not parse as a long.
		{role: Topic, name: "flush.ms", value: "9223372036854775808", wantErr: `flush.ms="9223372036854775808" is not valid`},
		{role: Topic, name: "compression.zstd.level", value: "-131072", want: "-131072"},
		{role: Topic, name: "compression.lz4.level", value: "18", wantErr: "a whole number from 1 to 17"},
		{role: Topic, name: "message.timestamp.type", value: "logappendtime", want: "LogAppendTime"},
	}
	for _, tt := range tests {
		role := tt.role
		if role == Common {
			role = Producer
		}
		p, ok := Lookup(role, tt.name)
		if !ok {
			t.Fatalf("%s %s not in the catalogue", role, tt.name)
		}
		got, err := p.Check(tt.value)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s=%q: error %v, want %q", tt.name, tt.value, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s=%q: got %q, %v; want %q", tt.name, tt.value, got, err, tt.want)
		}
	}
}

func TestResolveProducer(t *testing.T) {
	tests := []struct {
		name    string
		props   map[string]string
		want    map[string]string // values in force
		absent  []string          // not recorded as in force
		warn    string
		wantErr string
		blame   string // the property an error names
	}{
		{name: "Java 4.1 defaults", want: map[string]string{"acks": "all", "enable.idempotence": "true",
			"batch.size": "16384", "linger.ms": "5", "max.in.flight.requests.per.connection": "5",
			"delivery.timeout.ms": "120000"},
			absent: []string{"send.buffer.bytes", "max.block.ms", "compression.zstd.level"}},
		// Java turns default idempotence off for acks=1 and refuses an explicit one.
		{name: "acks=1 turns default idempotence off", props: map[string]string{"acks": "1"},
			want: map[string]string{"acks": "1", "enable.idempotence": "false"}},
		{name: "explicit idempotence with acks=1", props: map[string]string{"acks": "1", "enable.idempotence": "true"},
			wantErr: "enable.idempotence=true cannot be honoured with acks=1", blame: "acks"},
		{name: "retries=0 turns default idempotence off", props: map[string]string{"retries": "0"},
			want: map[string]string{"enable.idempotence": "false"}},
		{name: "six in flight turns default idempotence off", props: map[string]string{"max.in.flight.requests.per.connection": "6"},
			want: map[string]string{"enable.idempotence": "false"}},
		// franz-go keeps 5 in flight with idempotence: one in flight is honoured without it,
		// recorded, and said.
		{name: "one in flight turns default idempotence off", props: map[string]string{"max.in.flight.requests.per.connection": "1"},
			want: map[string]string{"enable.idempotence": "false", "max.in.flight.requests.per.connection": "1"},
			warn: "enable.idempotence=false so that max.in.flight.requests.per.connection=1 is honoured"},
		{name: "one in flight with explicit idempotence is refused",
			props:   map[string]string{"max.in.flight.requests.per.connection": "1", "enable.idempotence": "true"},
			wantErr: "franz-go keeps 5 produce requests in flight", blame: "max.in.flight.requests.per.connection"},
		{name: "one in flight without idempotence", props: map[string]string{"max.in.flight.requests.per.connection": "1", "enable.idempotence": "false"},
			want: map[string]string{"enable.idempotence": "false", "max.in.flight.requests.per.connection": "1"}},
		// Java raises a default delivery.timeout.ms to linger.ms + request.timeout.ms:
		// 60000 + 100000 = 160000.
		{name: "default delivery timeout raised", props: map[string]string{"linger.ms": "60000", "request.timeout.ms": "100000"},
			want: map[string]string{"delivery.timeout.ms": "160000"}},
		{name: "explicit delivery timeout too short", props: map[string]string{"delivery.timeout.ms": "20000"},
			wantErr: "delivery.timeout.ms=20000 is shorter than linger.ms + request.timeout.ms = 30005", blame: "delivery.timeout.ms"},
		{name: "batch larger than a request", props: map[string]string{"batch.size": "2097152"},
			wantErr: "batch.size=2097152 is larger than max.request.size=1048576", blame: "batch.size"},
		{name: "default batch lowered to a small request", props: map[string]string{"max.request.size": "2048"},
			want: map[string]string{"batch.size": "2048"}, warn: "batch.size lowered to max.request.size=2048"},
		{name: "ignored property warns and is not recorded", props: map[string]string{"send.buffer.bytes": "1"},
			absent: []string{"send.buffer.bytes"}, warn: "send.buffer.bytes=1 ignored"},
		{name: "byte array serializer accepted silently",
			props:  map[string]string{"value.serializer": "org.apache.kafka.common.serialization.ByteArraySerializer"},
			absent: []string{"value.serializer"}},
		{name: "consumer property unknown to a producer", props: map[string]string{"group.id": "g"},
			wantErr: `unknown producer property "group.id"; supported: acks, batch.size`, blame: "group.id"},
		{name: "transactions need idempotence", props: map[string]string{"transactional.id": "t", "acks": "1"},
			wantErr: "transactional.id=t needs idempotence", blame: "transactional.id"},
		// The Java producer sends transaction.timeout.ms with InitProducerId only: without a
		// transactional.id it is not in force, so not recorded.
		{name: "no transaction timeout without transactions", absent: []string{"transaction.timeout.ms"}},
		{name: "transaction timeout without transactions warns", props: map[string]string{"transaction.timeout.ms": "30000"},
			absent: []string{"transaction.timeout.ms"}, warn: "transaction.timeout.ms=30000 ignored: the producer is not transactional"},
		{name: "transaction timeout in force with transactions", props: map[string]string{"transactional.id": "t"},
			want: map[string]string{"transactional.id": "t", "transaction.timeout.ms": "60000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Resolve(Producer, tt.props)
			if tt.wantErr != "" {
				var e *Error
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &e) || e.Property != tt.blame {
					t.Fatalf("error %v (%#v), want %q blaming %s", err, e, tt.wantErr, tt.blame)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.want {
				if r.Values[k] != v {
					t.Errorf("%s = %q, want %q", k, r.Values[k], v)
				}
			}
			for _, k := range tt.absent {
				if v, ok := r.Values[k]; ok {
					t.Errorf("%s recorded as %q though not applied", k, v)
				}
			}
			joined := strings.Join(r.Warnings, "\n")
			if (tt.warn == "") != (joined == "") || !strings.Contains(joined, tt.warn) {
				t.Errorf("warnings %q, want %q", joined, tt.warn)
			}
		})
	}
}

func TestResolveConsumer(t *testing.T) {
	r, err := Resolve(Consumer, map[string]string{"max.poll.interval.ms": "60000"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Values["max.poll.interval.ms"] != "60000" || r.Values["fetch.max.wait.ms"] != "500" || r.Values["auto.offset.reset"] != "latest" {
		t.Errorf("values %v", r.Values)
	}
	for props, want := range map[[2]string]string{
		{"heartbeat.interval.ms", "45000"}: "heartbeat.interval.ms=45000 must be lower than session.timeout.ms=45000",
		{"request.timeout.ms", "900001"}:   "above franz-go's limit of 900000",
		{"acks", "1"}:                      `unknown consumer property "acks"`,
		{"group.protocol", "streams"}:      "(valid: classic, consumer)",
	} {
		if _, err := Resolve(Consumer, map[string]string{props[0]: props[1]}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s=%s: error %v, want %q", props[0], props[1], err, want)
		}
	}
}

func TestCheckRecords(t *testing.T) {
	tests := []struct {
		name              string
		props             map[string]string
		smallest, largest int64
		wantErr           string
	}{
		// 1048576 - 160 = 1048416 is the largest value that fits the default request.
		{name: "largest that fits a request", smallest: 1048416, largest: 1048416},
		{name: "one byte too many", smallest: 1048417, largest: 1048417,
			wantErr: "record size 1048417 bytes does not fit max.request.size=1048576"},
		{name: "record above buffer.memory", props: map[string]string{"buffer.memory": "4096"}, smallest: 4000, largest: 4000,
			wantErr: "record size 4000 bytes does not fit buffer.memory=4096"},
		// Java: batch.size=1 is one record per batch. 512-byte records: franz-go's 512-byte
		// batch holds (512-65)/(512+7) = 0, so one record, as Java's.
		{name: "one 512-byte record per batch honoured", props: map[string]string{"batch.size": "1"}, smallest: 512, largest: 512},
		// 100-byte records: franz-go's batch holds (512-65)/(100+7) = 4 where Java's holds 1.
		// The least honoured size: 447/(s+7) < 2 needs s+7 > 223.5, s >= 217.
		{name: "100-byte records in a 1-byte batch", props: map[string]string{"batch.size": "1"}, smallest: 100, largest: 100,
			wantErr: "batch.size=1 cannot be honoured for 100-byte records: franz-go's smallest batch (512 bytes) holds 4 of them where the Java client's holds 1; use batch.size >= 512 or records of at least 217 bytes"},
		// batch.size=400, 100-byte records: Java holds (400-61)/107 = 3, franz-go 4.
		{name: "400-byte batch of 100-byte records", props: map[string]string{"batch.size": "400"}, smallest: 100, largest: 100,
			wantErr: "holds 4 of them where the Java client's holds 3"},
		{name: "batch.size of 512 is franz-go's own", props: map[string]string{"batch.size": "512"}, smallest: 1, largest: 1},
	}
	for _, tt := range tests {
		r, err := Resolve(Producer, tt.props)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckRecords(r, tt.smallest, tt.largest)
		if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.wantErr)
		}
	}
}

// TestRoles pins which settings each role sees: a client takes the common and security
// properties, a topic only its own configs, and a name two roles share resolves per role.
func TestRoles(t *testing.T) {
	tests := []struct {
		role Role
		name string
		want bool
		kind Kind
	}{
		{Producer, "compression.type", true, Enum},
		{Topic, "compression.type", true, Enum},
		{Consumer, "compression.type", false, 0},
		{Producer, "client.id", true, String},
		{Topic, "client.id", false, 0},
		{Topic, "security.protocol", false, 0},
		{Topic, "min.insync.replicas", true, Int},
		{Producer, "min.insync.replicas", false, 0},
		{Topic, "message.format.version", false, 0}, // removed in Kafka 4.0
	}
	for _, tt := range tests {
		p, ok := Lookup(tt.role, tt.name)
		if ok != tt.want || (ok && p.Kind != tt.kind) {
			t.Errorf("Lookup(%s, %s) = %v (%s), want %v (%s)", tt.role, tt.name, ok, p.Kind, tt.want, tt.kind)
		}
	}
	// The topic's compression.type knows the broker's values, the producer's the client's.
	topic, _ := Lookup(Topic, "compression.type")
	producer, _ := Lookup(Producer, "compression.type")
	if topic.Default != "producer" || producer.Default != "none" {
		t.Errorf("compression.type defaults: topic %q, producer %q", topic.Default, producer.Default)
	}
}

func TestNames(t *testing.T) {
	names := Names(Consumer, Property.Studyable)
	for _, n := range []string{"fetch.min.bytes", "client.id", "max.poll.interval.ms", "max.poll.records"} {
		if !slices.Contains(names, n) {
			t.Errorf("%s missing from a study's consumer properties", n)
		}
	}
	for _, n := range []string{"group.id", "check.crcs", "sasl.jaas.config", "acks"} {
		if slices.Contains(names, n) {
			t.Errorf("%s listed as a study's consumer property", n)
		}
	}
}
