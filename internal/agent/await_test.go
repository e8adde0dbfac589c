package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/load"
)

// TestAwaitAgentError: an agent's error message ends the wait with an error naming it;
// messages of another scenario (epoch) are ignored.
func TestAwaitAgentError(t *testing.T) {
	c := &Coordinator{msgs: make(chan received, 8)}
	sc := &scenarioRun{c: c, epoch: 2, names: []string{"a", "b"}}
	c.msgs <- received{Message: &Message{Kind: KindError, From: "a", Epoch: 1, Reason: "old scenario"}}
	c.msgs <- received{Message: &Message{Kind: KindReady, From: "a", Epoch: 2}}
	c.msgs <- received{Message: &Message{Kind: KindError, From: "b", Epoch: 2, Reason: "unable to create producer client: boom"}}
	det := newDetector(sc.names, time.Now(), time.Hour)
	err := sc.await(context.Background(), det, KindReady, time.Time{}, 0, nil)
	if _, ok := err.(*agentError); !ok || !strings.Contains(err.Error(), "agent b failed: unable to create producer client: boom") {
		t.Fatalf("await = %v, want agent b's error", err)
	}
}

func TestDoneLimit(t *testing.T) {
	tests := []struct {
		name  string
		s     load.Schedule
		drain time.Duration
		want  time.Duration
	}{
		// 7 s + 6 x 10 s (default drain) + 30 s = 97 s.
		{"timed", load.Schedule{Rate: 3000, Duration: 7 * time.Second}, 0, 97 * time.Second},
		// 15,000 records at 3,000/s = 5 s; + 6 x 1 s + 30 s = 41 s.
		{"records at a rate", load.Schedule{Rate: 3000, Records: 15000}, time.Second, 41 * time.Second},
		// Unthrottled records have no length of their own: heartbeats bound the wait.
		{"unthrottled records", load.Schedule{Records: 15000}, 0, 0},
	}
	for _, tt := range tests {
		if got := doneLimit(tt.s, tt.drain); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
