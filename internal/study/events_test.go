package study

import (
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/rebalance"
)

const eventsStudy = `name: ev
defaults:
  producers:
    duration: 60s
  consumers:
    count: 3
    events: "join@10s, kill@30s"
`

func TestConsumerEvents(t *testing.T) {
	plan, err := Parse("ev.yaml", []byte(eventsStudy))
	if err != nil {
		t.Fatal(err)
	}
	got := plan.Scenarios[0].Consumers.Events
	want := []rebalance.Scheduled{{Kind: rebalance.Join, At: 10 * time.Second}, {Kind: rebalance.Kill, At: 30 * time.Second}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("events %v, want %v", got, want)
	}
}

// Each bad schedule is refused in one line naming the file, line, field and, for a matrix,
// the scenario.
func TestConsumerEventsRefused(t *testing.T) {
	for _, c := range []struct{ name, yaml, want string }{
		{"bad kind", strings.Replace(eventsStudy, "kill@30s", "crash@30s", 1),
			`ev.yaml:7: defaults.consumers.events: "crash@30s": event kind "crash" is not join, leave, kill or stall`},
		{"after the producers", strings.Replace(eventsStudy, "kill@30s", "kill@60s", 1),
			"defaults.consumers.events: event kill@1m0s is not within the 1m0s the producers run"},
		{"no producers", strings.Replace(eventsStudy, "duration: 60s", "records: 1000", 1),
			"membership events need producers that run for a duration"},
		{"in a matrix", "parameters:\n  protocol:\n    classic: {consumers.events: leave@90s}\n" + eventsStudy + "matrix:\n  protocol: [classic]\n",
			"scenario protocol=classic: event leave@1m30s is not within the 1m0s the producers run"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("ev.yaml", []byte(c.yaml))
			if err == nil {
				t.Fatal("accepted")
			}
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, c.want) {
				t.Errorf("error %q, want one line containing %q", msg, c.want)
			}
		})
	}
}
