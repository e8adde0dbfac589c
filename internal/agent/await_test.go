package agent

import (
	"context"
	"strings"
	"testing"
	"time"
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
	err := sc.await(context.Background(), det, KindReady, time.Time{}, nil)
	if _, ok := err.(*agentError); !ok || !strings.Contains(err.Error(), "agent b failed: unable to create producer client: boom") {
		t.Fatalf("await = %v, want agent b's error", err)
	}
}
