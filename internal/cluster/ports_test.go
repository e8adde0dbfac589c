package cluster

import (
	"testing"
)

func TestPortPickerStaysBelowTheEphemeralRange(t *testing.T) {
	p := newPortPicker()
	defer p.release()
	if p.high <= p.low {
		t.Skipf("the kernel's ephemeral range starts at or below %d: ports come from listen(:0)", lowestPort+1000)
	}
	seen := map[int]bool{}
	for range 50 {
		port, err := p.next()
		if err != nil {
			t.Fatal(err)
		}
		if port < lowestPort || port >= p.high {
			t.Errorf("port %d outside [%d, %d)", port, lowestPort, p.high)
		}
		if seen[port] {
			t.Errorf("port %d chosen twice", port)
		}
		seen[port] = true
	}
}

func TestPortTaken(t *testing.T) {
	for _, tc := range []struct {
		log  string
		want bool
	}{
		{"[2026-11-27 17:10:01,123] ERROR [KafkaRaftServer nodeId=1] Fatal error during startup. (kafka.server.KafkaRaftServer)\norg.apache.kafka.common.KafkaException: Socket server failed to bind to 127.0.0.1:41000: Address already in use.", true},
		{"[2026-11-27 17:10:01,123] INFO Kafka Server started (kafka.server.KafkaRaftServer)", false},
		{"", false},
	} {
		if got := portTaken(tc.log); got != tc.want {
			t.Errorf("portTaken(%q) = %v, want %v", tc.log, got, tc.want)
		}
	}
}
