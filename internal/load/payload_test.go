package load

import "testing"

// Key distributions by kbench's words and Kafka 4.4 ProducerPerformance's ("range").
func TestParseKeyDistribution(t *testing.T) {
	for in, want := range map[string]KeyDistribution{
		"": KeysNone, "none": KeysNone, "random": KeysRandom, "round-robin": KeysRoundRobin, "range": KeysRoundRobin,
	} {
		if got, err := ParseKeyDistribution(in); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseKeyDistribution("zipf"); err == nil {
		t.Error("zipf accepted")
	}
}
