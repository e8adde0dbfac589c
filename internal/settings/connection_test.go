package settings

import (
	"maps"
	"testing"
)

func TestIsConnection(t *testing.T) {
	for name, want := range map[string]bool{
		"bootstrap.servers": true, "client.dns.lookup": true, "security.protocol": true,
		"sasl.jaas.config": true, "sasl.mechanism": true, "ssl.truststore.location": true,
		"batch.size": false, "linger.ms": false, "client.id": false, "group.id": false,
		"request.timeout.ms": false, "fetch.max.wait.ms": false, "securityprotocol": false,
	} {
		if got := IsConnection(name); got != want {
			t.Errorf("IsConnection(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestConnection(t *testing.T) {
	props := map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512",
		"ssl.truststore.location": "/t.jks", "acks": "all", "batch.size": "65536", "bootstrap.servers": "k:9092"}
	want := map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512", "ssl.truststore.location": "/t.jks",
		"bootstrap.servers": "k:9092"}
	if got := Connection(props); !maps.Equal(got, want) {
		t.Errorf("Connection = %v, want %v", got, want)
	}
	if got := Connection(map[string]string{"acks": "1"}); got != nil {
		t.Errorf("Connection of producer settings = %v, want nil", got)
	}
}
