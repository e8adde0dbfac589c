package study

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/settings"
)

// propertyStudy is a one-scenario study setting one client property on line 6 (producer)
// or 8 (consumer).
func propertyStudy(role settings.Role, name, value string) string {
	if role == settings.Consumer {
		return fmt.Sprintf("name: p\ncluster: {brokers: 1}\ndefaults:\n  producers: {count: 1}\n  consumers:\n    count: 1\n    properties:\n      %s: %q\n", name, value)
	}
	return fmt.Sprintf("name: p\ncluster: {brokers: 1}\ndefaults:\n  producers:\n    properties:\n      %s: %q\n", name, value)
}

// TestStudyPropertiesAreTheEngines proves that a study accepts exactly the client properties
// the load engine applies: every one the catalogue marks settable loads with its example
// value, and every other one is refused at its line with the reason.
func TestStudyPropertiesAreTheEngines(t *testing.T) {
	for _, role := range []settings.Role{settings.Producer, settings.Consumer} {
		for _, p := range settings.All() {
			if p.Role != role && p.Role != settings.Common && p.Role != settings.Security {
				continue
			}
			value := p.Example
			if value == "" {
				value = "x"
			}
			src := propertyStudy(role, p.Name, value)
			if other, want, ok := strings.Cut(p.Requires, "="); ok {
				src += fmt.Sprintf("      %s: %q\n", other, want)
			}
			if p.Name == "transaction.timeout.ms" {
				src += "    transaction: 100ms\n" // in force in a transactional producer only
			}
			_, err := Parse("p.yaml", []byte(src))
			if p.Studyable() {
				if err != nil {
					t.Errorf("%s %s=%s refused: %v", role, p.Name, value, err)
				}
				continue
			}
			line := 6
			if role == settings.Consumer {
				line = 8
			}
			var se *Error
			if !errors.As(err, &se) || se.Line != line || !strings.Contains(se.Msg, "may not be set here") {
				t.Errorf("%s %s accepted or refused without its line: %v", role, p.Name, err)
			}
		}
	}
}

func TestStudyRefusesWhatTheEngineCannotHonour(t *testing.T) {
	tests := []struct {
		name, src, want string
		line            int
	}{
		// The line of the property to blame: max.in.flight, set on line 6.
		{name: "explicit idempotence with one in flight", line: 6, src: `name: p
cluster: {brokers: 1}
defaults:
  producers:
    properties:
      max.in.flight.requests.per.connection: 1
      enable.idempotence: true
`, want: "enable.idempotence=true cannot be honoured with max.in.flight.requests.per.connection=1"},
		// The line of the property to blame: acks, set on line 6.
		{name: "explicit idempotence with acks=1", line: 6, src: `name: p
cluster: {brokers: 1}
defaults:
  producers:
    properties:
      acks: "1"
      enable.idempotence: true
`, want: "enable.idempotence=true cannot be honoured with acks=1"},
		// 2 MiB records: 2097152 + 160 > 1048576.
		{name: "record above max.request.size", line: 5, src: `name: p
cluster: {brokers: 1}
defaults:
  producers:
    record_size: 2MiB
`, want: "record size 2097152 bytes does not fit max.request.size=1048576"},
		{name: "one-byte batch of small records", line: 7, src: `name: p
cluster: {brokers: 1}
defaults:
  producers:
    record_size: 100B
    properties:
      batch.size: 1
`, want: "batch.size=1 cannot be honoured for 100-byte records"},
		{name: "heartbeat not below session timeout", line: 9, src: `name: p
cluster: {brokers: 1}
defaults:
  producers: {count: 1}
  consumers:
    count: 1
    properties:
      session.timeout.ms: 10000
      heartbeat.interval.ms: 10000
`, want: "heartbeat.interval.ms=10000 must be lower than session.timeout.ms=10000"},
		{name: "unknown property lists the settable ones", line: 6, src: `name: p
cluster: {brokers: 1}
defaults:
  producers:
    properties:
      socket.nodelay: true
`, want: `unknown producer property "socket.nodelay" (valid: acks, batch.size, buffer.memory, client.id, compression.gzip.level, compression.type, connections.max.idle.ms, delivery.timeout.ms, enable.idempotence, linger.ms, max.in.flight.requests.per.connection, max.request.size, metadata.max.age.ms, partitioner.adaptive.partitioning.enable, partitioner.ignore.keys, request.timeout.ms, retries, retry.backoff.max.ms, retry.backoff.ms, transaction.timeout.ms)`},
		{name: "value out of franz-go's range", line: 6, src: `name: p
cluster: {brokers: 1}
defaults:
  producers:
    properties:
      linger.ms: 120000
`, want: `producer property linger.ms="120000" is not valid (valid: a whole number from 0 to 60000)`},
	}
	for _, tt := range tests {
		_, err := Parse("p.yaml", []byte(tt.src))
		var se *Error
		if !errors.As(err, &se) || se.Line != tt.line || !strings.Contains(se.Msg, tt.want) {
			t.Errorf("%s: error %v, want line %d and %q", tt.name, err, tt.line, tt.want)
		}
	}
	// Idempotence off, one in flight: what kafka08-tuning's sync mode asks for, accepted.
	if _, err := Parse("p.yaml", []byte(`name: p
cluster: {brokers: 1}
defaults:
  producers:
    properties:
      max.in.flight.requests.per.connection: 1
      enable.idempotence: false
`)); err != nil {
		t.Error(err)
	}
}

// topicConfigDoc renders the catalogue's topic configs as docs/study-format.md lists them:
// the settable ones with Kafka's default and valid values, then the refused ones with why.
func topicConfigDoc() string {
	var b strings.Builder
	b.WriteString("| config | Kafka default | valid |\n|---|---|---|\n")
	var refused []settings.Property
	for _, p := range settings.All() {
		if p.Role != settings.Topic {
			continue
		}
		if !p.Studyable() {
			refused = append(refused, p)
			continue
		}
		def := p.Default
		if def == "" {
			def = "(none)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", p.Name, def, p.Valid())
	}
	b.WriteString("\nThese are known but refused in a study:\n\n| config | why |\n|---|---|\n")
	for _, p := range refused {
		fmt.Fprintf(&b, "| `%s` | %s |\n", p.Name, p.StudyRefusal())
	}
	return b.String()
}

// TestDocsListTopicConfigs keeps docs/study-format.md's topic config tables equal to the
// catalogue's topic configs.
func TestDocsListTopicConfigs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/study-format.md")
	if err != nil {
		t.Fatal(err)
	}
	want := topicConfigDoc()
	if !strings.Contains(string(doc), "### Topic configs\n") || !strings.Contains(string(doc), want) {
		t.Errorf("docs/study-format.md's \"### Topic configs\" tables differ from the catalogue; they should read:\n%s", want)
	}
}

// topicConfigStudy is a one-scenario study on three brokers setting one topic config on
// line 7.
func topicConfigStudy(name, value string) string {
	return fmt.Sprintf("name: p\ncluster: {brokers: 3}\ndefaults:\n  topic:\n    replicas: 3\n    configs:\n      %s: %q\n", name, value)
}

// TestStudyTopicConfigsAreTheCatalogues proves that a study accepts exactly the topic configs
// the catalogue lets it set, each with its example and its Kafka default, and refuses every
// other one at its line with the reason.
func TestStudyTopicConfigsAreTheCatalogues(t *testing.T) {
	for _, p := range settings.All() {
		if p.Role != settings.Topic {
			continue
		}
		if !p.Studyable() {
			_, err := Parse("p.yaml", []byte(topicConfigStudy(p.Name, "x")))
			var se *Error
			if !errors.As(err, &se) || se.Line != 7 || !strings.Contains(se.Msg, fmt.Sprintf("topic config %q may not be set here: ", p.Name)) {
				t.Errorf("%s accepted or refused without its line: %v", p.Name, err)
			}
			continue
		}
		for _, v := range []string{p.Example, p.Default} {
			plan, err := Parse("p.yaml", []byte(topicConfigStudy(p.Name, v)))
			if err != nil {
				t.Errorf("%s=%s refused: %v", p.Name, v, err)
				continue
			}
			if got := plan.Scenarios[0].Topic.Configs[p.Name]; got != v {
				t.Errorf("%s=%s set as %q", p.Name, v, got)
			}
		}
	}
}

// TestStudyTopicConfigErrors pins the one line a study gets for a bad topic config: the
// file and line, the field, and the key, value and valid values.
func TestStudyTopicConfigErrors(t *testing.T) {
	const where = "p.yaml:7: defaults.topic.configs."
	tests := []struct{ name, value, want, wantValue string }{
		{name: "flush.messages", value: "x",
			want: `flush.messages: topic config flush.messages="x" is not valid (valid: a whole number of at least 1)`},
		// Kafka refuses 0 messages between flushes.
		{name: "flush.messages", value: "0",
			want: `flush.messages: topic config flush.messages="0" is not valid (valid: a whole number of at least 1)`},
		{name: "segment.bytes", value: "lots",
			want: `segment.bytes: topic config segment.bytes: size "lots" is not a byte count such as 1024, 16KiB or 1MiB`},
		// 512 KiB is a byte count, but below Kafka 4's 1 MiB floor.
		{name: "segment.bytes", value: "512KiB",
			want: `segment.bytes: topic config segment.bytes="524288" is not valid (valid: a byte count from 1048576 to 2147483647)`},
		{name: "preallocate", value: "yes",
			want: `preallocate: topic config preallocate="yes" is not valid (valid: true, false)`},
		{name: "compression.type", value: "brotli",
			want: `compression.type: topic config compression.type="brotli" is not valid (valid: producer, uncompressed, gzip, snappy, lz4, zstd)`},
		// The producer's "none" is the broker's "uncompressed".
		{name: "compression.type", value: "none",
			want: `compression.type: topic config compression.type="none" is not valid (valid: producer, uncompressed, gzip, snappy, lz4, zstd)`},
		{name: "retention.ms", value: "-5",
			want: `retention.ms: topic config retention.ms="-5" is not valid (valid: a whole number of at least -1)`},
		{name: "retention.bytes", value: "-1", wantValue: "-1"},
		{name: "retention.bytes", value: "1GiB", wantValue: "1073741824"},
		{name: "cleanup.policy", value: "compact, delete", wantValue: "compact,delete"},
		{name: "cleanup.policy", value: "archive",
			want: `cleanup.policy: topic config cleanup.policy="archive" is not valid (valid: a comma-separated list of delete, compact)`},
		{name: "min.cleanable.dirty.ratio", value: "2",
			want: `min.cleanable.dirty.ratio: topic config min.cleanable.dirty.ratio="2" is not valid (valid: a number from 0 to 1)`},
		{name: "segment.byte", value: "1",
			want: `segment.byte: unknown topic config "segment.byte" (did you mean "segment.bytes"?)`},
		{name: "Segment.Bytes", value: "1",
			want: `Segment.Bytes: unknown topic config "Segment.Bytes" (Kafka config names are lowercase words joined by dots, e.g. batch.size)`},
		// Removed in Kafka 4.0.
		{name: "message.format.version", value: "3.0",
			want: `message.format.version: unknown topic config "message.format.version"`},
		{name: "remote.storage.enable", value: "true",
			want: `remote.storage.enable: topic config "remote.storage.enable" may not be set here: kbench's runs do not cover tiered storage (its embedded cluster has none)`},
		// Client properties are not topic configs.
		{name: "ssl.keystore.password", value: "x",
			want: `ssl.keystore.password: unknown topic config "ssl.keystore.password"`},
	}
	for _, tt := range tests {
		plan, err := Parse("p.yaml", []byte(topicConfigStudy(tt.name, tt.value)))
		if tt.want == "" {
			if err != nil || plan.Scenarios[0].Topic.Configs[tt.name] != tt.wantValue {
				t.Errorf("%s=%s: %v, want %q", tt.name, tt.value, err, tt.wantValue)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), where+tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s=%s: error %v\nwant %s%s", tt.name, tt.value, err, where, tt.want)
		}
	}
}
