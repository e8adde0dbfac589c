package results

import "testing"

func TestIsSecret(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"sasl.jaas.config", true},
		{"ssl.key.password", true},
		{"ssl.keystore.password", true},
		{"ssl.keystore.key", true},
		{"ssl.key.pem", true}, // ssl.key.* holds private key material
		{"sasl.oauthbearer.token.endpoint.url", true},
		{"listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config", true},
		{"key.serializer", false}, // "key" as a prefix is not a secret
		{"acks", false},
		{"batch.size", false},
		{"ssl.truststore.location", false},
	} {
		if got := IsSecret(tc.name); got != tc.want {
			t.Errorf("IsSecret(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRedact(t *testing.T) {
	if Redact(nil) != nil {
		t.Error("Redact(nil) is not nil")
	}
	got := Redact(map[string]string{"sasl.jaas.config": "x", "ssl.key.password": "", "acks": "all"})
	if got["sasl.jaas.config"] != Redacted || got["acks"] != "all" {
		t.Errorf("Redact = %v", got)
	}
	if got["ssl.key.password"] != "" {
		t.Errorf("empty secret became %q; an empty value reveals nothing and shows it was unset", got["ssl.key.password"])
	}
}
