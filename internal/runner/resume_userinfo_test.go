package runner

import "testing"

// A metrics URL kept for a resume loses its credentials, with or without a broker ID.
func TestWithoutUserinfo(t *testing.T) {
	for in, want := range map[string]string{
		"http://u:secret@kafka-1:7071/metrics":   "http://kafka-1:7071/metrics",
		"3=http://u:secret@kafka-3:7071/metrics": "3=http://kafka-3:7071/metrics",
		"2=https://kafka-2/metrics":              "2=https://kafka-2/metrics",
		"http://kafka-1:7071/metrics?x=1":        "http://kafka-1:7071/metrics?x=1",
	} {
		if got := withoutUserinfo(in); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
}
