package kafka

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestOwned walks the rule on a fake cluster: create under the prefix only, never take
// over a topic that exists, delete only what was created, and keep the claim on a create
// whose outcome is unknown.
func TestOwned(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	conn, err := Connect(strings.Join(c.ListenAddrs(), ","), nil)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := conn.NewAdmin("test")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx := context.Background()

	// Someone else's topic, under the run's prefix.
	if _, err := admin.CreateTopic(ctx, 1, 1, nil, "kbench-run-theirs"); err != nil {
		t.Fatal(err)
	}
	owned := NewOwned("kbench-run")
	for _, tt := range []struct{ name, wantError string }{
		{"other-topic", "lacks the prefix kbench-run"},
		{"kbench-other-run", "lacks the prefix kbench-run"},
		{"kbench-run-theirs", "it already exists; kbench never reuses or deletes"},
		{"kbench-run-ours", ""},
	} {
		err := owned.CreateTopic(ctx, admin, tt.name, 2, 1, map[string]string{"retention.ms": "60000"})
		if (tt.wantError == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantError)) {
			t.Errorf("CreateTopic(%s) = %v, want error %q", tt.name, err, tt.wantError)
		}
	}
	// A config the settings catalogue refuses never reaches the broker, and claims nothing.
	for _, tt := range []struct {
		configs   map[string]string
		wantError string
	}{
		{map[string]string{"min.insync.replicas": "0"}, `create topic kbench-run-bad: topic config min.insync.replicas="0" is not valid (valid: a whole number from 1 to 2147483647)`},
		{map[string]string{"retention.hours": "1"}, `create topic kbench-run-bad: unknown topic config "retention.hours"`},
	} {
		if err := owned.CreateTopic(ctx, admin, "kbench-run-bad", 1, 1, tt.configs); err == nil || err.Error() != tt.wantError {
			t.Errorf("CreateTopic(%v) = %v, want %q", tt.configs, err, tt.wantError)
		}
	}
	if got := owned.Topics(); !slices.Equal(got, []string{"kbench-run-ours"}) {
		t.Errorf("owned topics = %v, want [kbench-run-ours]", got)
	}
	if _, err := owned.DeleteTopic(ctx, admin, "kbench-run-theirs"); err == nil || !strings.Contains(err.Error(), "did not create it") {
		t.Errorf("deleting a topic kbench did not create: %v", err)
	}
	if existed, err := owned.DeleteTopic(ctx, admin, "kbench-run-ours"); !existed || err != nil {
		t.Errorf("DeleteTopic(ours) = %v, %v; want true, nil", existed, err)
	}
	topics, err := admin.ListTopics(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := topics.Names(); !slices.Equal(got, []string{"kbench-run-theirs"}) {
		t.Errorf("topics left = %v, want only kbench-run-theirs", got)
	}

	// A create on a context already ended sends nothing and claims nothing.
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := owned.CreateTopic(cancelled, admin, "kbench-run-never", 1, 1, nil); err == nil {
		t.Fatal("create on a cancelled context succeeded")
	}
	if owned.Owns("kbench-run-never") {
		t.Error("a create that sent nothing claimed the topic")
	}

	// Interrupted while its request is on the way: the broker creates the topic anyway, so
	// the create waits for the answer, reports the interruption and keeps the claim for
	// cleanup, which finds the topic and deletes it.
	interrupted, interrupt := context.WithCancel(ctx)
	c.ControlKey(kmsg.CreateTopics.Int16(), func(kmsg.Request) (kmsg.Response, error, bool) {
		interrupt()
		return nil, nil, false
	})
	if err := owned.CreateTopic(interrupted, admin, "kbench-run-late", 1, 1, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("create interrupted in flight = %v, want context.Canceled", err)
	}
	if !owned.Owns("kbench-run-late") {
		t.Error("a create interrupted in flight gave up its claim")
	}
	if existed, err := owned.DeleteTopic(ctx, admin, "kbench-run-late"); !existed || err != nil {
		t.Errorf("DeleteTopic(created in flight) = %v, %v; want true, nil", existed, err)
	}
	if len(owned.Topics()) != 0 {
		t.Errorf("claims left: %v", owned.Topics())
	}
}
