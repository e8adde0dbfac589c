package main

import "testing"

func TestListenerBootstrap(t *testing.T) {
	// cluster up's lines as it prints them (internal/cli printEndpoints).
	plain := "plain  PLAINTEXT      bootstrap servers: 127.0.0.1:24794,127.0.0.1:23725"
	remote := "remote PLAINTEXT      bootstrap servers: 127.0.0.1:20206,127.0.0.1:23529"
	tests := []struct {
		line, listener, want string
		ok                   bool
	}{
		{plain, "plain", "127.0.0.1:24794,127.0.0.1:23725", true},
		{remote, "remote", "127.0.0.1:20206,127.0.0.1:23529", true},
		{remote, "plain", "", false},
		{"sasl   SASL_PLAINTEXT bootstrap servers: 127.0.0.1:1", "sasl", "127.0.0.1:1", true},
		{"       client properties: /c/client.properties", "plain", "", false},
		{"Kafka 4.4.0, 3 broker(s), directory /c", "plain", "", false},
		{"", "plain", "", false},
	}
	for _, tt := range tests {
		got, ok := listenerBootstrap(tt.line, tt.listener)
		if got != tt.want || ok != tt.ok {
			t.Errorf("listenerBootstrap(%q, %q) = %q, %v; want %q, %v", tt.line, tt.listener, got, ok, tt.want, tt.ok)
		}
	}
}
