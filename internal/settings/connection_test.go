package settings

import (
	"maps"
	"testing"
)

func TestConnection(t *testing.T) {
	props := map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512",
		"ssl.truststore.location": "/t.jks", "acks": "all", "batch.size": "65536", "bootstrap.servers": "k:9092"}
	want := map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512", "ssl.truststore.location": "/t.jks"}
	if got := Connection(props); !maps.Equal(got, want) {
		t.Errorf("Connection = %v, want %v", got, want)
	}
	if got := Connection(map[string]string{"acks": "1"}); got != nil {
		t.Errorf("Connection of producer settings = %v, want nil", got)
	}
}
