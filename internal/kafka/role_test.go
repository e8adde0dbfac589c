package kafka

import (
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/settings"
)

func TestParsePropertiesProducer(t *testing.T) {
	tests := []struct {
		name      string
		props     map[string]string
		wantEff   map[string]string
		wantIdem  bool
		wantWarn  string
		wantError string
	}{
		{name: "Java 4.1 defaults", props: nil, wantIdem: true, wantEff: map[string]string{
			"acks": "all", "enable.idempotence": "true", "batch.size": "16384", "linger.ms": "5",
			"buffer.memory": "33554432", "max.in.flight.requests.per.connection": "5",
			"compression.type": "none", "request.timeout.ms": "30000", "delivery.timeout.ms": "120000",
		}},
		// As the Java client: acks=1 silently turns default idempotence off.
		{name: "acks=1 disables implicit idempotence", props: map[string]string{"acks": "1"},
			wantEff: map[string]string{"acks": "1", "enable.idempotence": "false"}},
		{name: "explicit idempotence conflicts with acks=1", props: map[string]string{"acks": "1", "enable.idempotence": "true"},
			wantError: "enable.idempotence=true cannot be honoured with acks=1"},
		{name: "max in flight above 5 disables implicit idempotence",
			props:   map[string]string{"max.in.flight.requests.per.connection": "10"},
			wantEff: map[string]string{"enable.idempotence": "false"}},
		{name: "unknown property lists the supported ones", props: map[string]string{"lingerms": "1"},
			wantError: "supported: acks, batch.size"},
		{name: "consumer property is unknown to a producer", props: map[string]string{"group.id": "g"},
			wantError: `unknown producer property "group.id"`},
		{name: "known property without equivalent warns", props: map[string]string{"send.buffer.bytes": "1"},
			wantIdem: true, wantWarn: "send.buffer.bytes=1 ignored"},
		{name: "byte array serializer accepted silently",
			props:    map[string]string{"value.serializer": "org.apache.kafka.common.serialization.ByteArraySerializer"},
			wantIdem: true},
		{name: "bad compression names the choices", props: map[string]string{"compression.type": "brotli"},
			wantError: `compression.type="brotli" is not valid (valid: none, gzip, snappy, lz4, zstd)`},
		{name: "bad number", props: map[string]string{"linger.ms": "soon"}, wantError: `invalid producer configuration: linger.ms="soon" is not valid`},
		{name: "transactional id", props: map[string]string{"transactional.id": "t1"}, wantIdem: true,
			wantEff: map[string]string{"transactional.id": "t1", "transaction.timeout.ms": "60000"}},
		{name: "SASL password hidden", props: map[string]string{
			"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "SCRAM-SHA-512",
			"sasl.jaas.config": `org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="s3cret";`},
			wantIdem: true,
			wantEff:  map[string]string{"sasl.jaas.config": `org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="[redacted]";`}},
		{name: "JKS trust store refused", props: map[string]string{"security.protocol": "SSL", "ssl.truststore.location": "/x.jks"},
			wantError: "kbench reads PEM trust stores"},
		{name: "unknown SASL mechanism", props: map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "GSSAPI",
			"sasl.jaas.config": `x required username="u" password="p";`}, wantError: "unsupported sasl.mechanism"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ParseProperties(settings.Producer, tt.props)
			if tt.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.wantEff {
				if s.Effective[k] != v {
					t.Errorf("effective %s = %q, want %q", k, s.Effective[k], v)
				}
			}
			if s.Idempotent != tt.wantIdem {
				t.Errorf("idempotent = %v, want %v", s.Idempotent, tt.wantIdem)
			}
			joined := strings.Join(s.Warnings, "\n")
			if (tt.wantWarn == "") != (joined == "") || !strings.Contains(joined, tt.wantWarn) {
				t.Errorf("warnings = %q, want %q", joined, tt.wantWarn)
			}
			for k, v := range s.Effective {
				if strings.Contains(v, "s3cret") {
					t.Errorf("password visible in effective %s", k)
				}
			}
		})
	}
}

func TestParsePropertiesConsumerDefaults(t *testing.T) {
	s, err := ParseProperties(settings.Consumer, map[string]string{"group.id": "g"})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"fetch.max.wait.ms": "500", "auto.offset.reset": "latest",
		"max.partition.fetch.bytes": "1048576", "group.id": "g"} {
		if s.Effective[k] != want {
			t.Errorf("%s = %q, want %q", k, s.Effective[k], want)
		}
	}
	if _, err := ParseProperties(settings.Consumer, map[string]string{"acks": "1"}); err == nil {
		t.Error("producer property accepted by a consumer")
	}
}
