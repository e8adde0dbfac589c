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

func TestClientLink(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		listener string
		bytes    int64
		err      bool
	}{
		{"no link", []string{"--brokers", "3", "--disk", "tmpfs"}, "plain", 0, false},
		{"capped", []string{"--brokers", "3", "--client-bandwidth", "48MiB"}, "remote", 50331648, false},
		{"delayed only", []string{"--client-rtt", "10ms"}, "remote", 0, false},
		{"delayed and capped", []string{"--client-rtt", "10ms", "--client-bandwidth", "1GiB"}, "remote", 1073741824, false},
		{"cap without a value", []string{"--client-bandwidth"}, "", 0, true},
		{"cap unreadable", []string{"--client-bandwidth", "fast"}, "", 0, true},
	}
	for _, tt := range tests {
		listener, bytes, err := clientLink(tt.args)
		if listener != tt.listener || bytes != tt.bytes || (err != nil) != tt.err {
			t.Errorf("%s: clientLink(%q) = %q, %d, %v; want %q, %d, error %v", tt.name, tt.args, listener, bytes, err, tt.listener, tt.bytes, tt.err)
		}
	}
}
