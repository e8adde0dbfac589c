package study

import (
	"errors"
	"fmt"
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
`, want: `unknown producer property "socket.nodelay" (valid: acks, batch.size, buffer.memory, client.id, compression.gzip.level, compression.type, connections.max.idle.ms, delivery.timeout.ms, enable.idempotence, linger.ms, max.in.flight.requests.per.connection, max.request.size, metadata.max.age.ms, partitioner.adaptive.partitioning.enable, partitioner.ignore.keys, request.timeout.ms, retries, retry.backoff.max.ms, retry.backoff.ms)`},
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
