package kafka

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

func TestConnect(t *testing.T) {
	tests := []struct {
		name      string
		bootstrap string
		props     map[string]string
		seeds     []string
		wantError string
	}{
		{name: "flag wins", bootstrap: "a:1, b:2", props: map[string]string{"bootstrap.servers": "c:3"}, seeds: []string{"a:1", "b:2"}},
		{name: "bootstrap.servers", props: map[string]string{"bootstrap.servers": "c:3"}, seeds: []string{"c:3"}},
		{name: "role settings are left to role clients", bootstrap: "a:1",
			props: map[string]string{"batch.size": "not a number", "group.id": "g"}, seeds: []string{"a:1"}},
		{name: "no seeds", props: map[string]string{"acks": "1"}, wantError: "no bootstrap servers"},
		{name: "bad protocol", bootstrap: "a:1", props: map[string]string{"security.protocol": "TLS"},
			wantError: "invalid connection settings: security.protocol"},
		{name: "unreadable JAAS", bootstrap: "a:1", props: map[string]string{"security.protocol": "SASL_PLAINTEXT",
			"sasl.mechanism": "PLAIN", "sasl.jaas.config": `M required username="u" password=s3=cret;`},
			wantError: "unreadable sasl.jaas.config"},
		{name: "unknown sasl property", bootstrap: "a:1", props: map[string]string{"sasl.magic": "x"},
			wantError: `unknown producer property "sasl.magic"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Connect(tt.bootstrap, tt.props)
			if tt.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) {
					t.Fatalf("error = %v, want %q", err, tt.wantError)
				}
				if strings.Contains(err.Error(), "s3=cret") {
					t.Errorf("error shows the password: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(c.Seeds, tt.seeds) {
				t.Errorf("seeds = %q, want %q", c.Seeds, tt.seeds)
			}
		})
	}
}

// TestServiceClientDefaults checks that a service client takes none of a producer's or
// consumer's Java defaults, even when the properties carry them: an agent's control
// message of 17 KB was once refused by a 16 KiB batch cap inherited from batch.size.
func TestServiceClientDefaults(t *testing.T) {
	c, err := Connect("127.0.0.1:1", map[string]string{"batch.size": "16384", "linger.ms": "5", "fetch.max.wait.ms": "500"})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := c.NewClient("control", kgo.FetchMaxWait(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for _, tt := range []struct {
		opt  any
		want any
	}{
		{kgo.ClientID, "kbench-control"},
		{kgo.MetadataMinAge, time.Second},
		// franz-go's own defaults: Kafka's max.message.bytes default and 10 ms.
		{kgo.ProducerBatchMaxBytes, int32(1000012)},
		{kgo.ProducerLinger, 10 * time.Millisecond},
		// The caller's option wins.
		{kgo.FetchMaxWait, 100 * time.Millisecond},
	} {
		if got := cl.OptValue(tt.opt); got != tt.want {
			t.Errorf("option %T = %v (%T), want %v", tt.opt, got, got, tt.want)
		}
	}
}
