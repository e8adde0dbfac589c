package kafka

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestOwnedGroups walks the rule on consumer groups on a fake cluster: a claimed group that
// came into being is deleted, one never joined is forgotten, a shared group is never
// claimed nor deleted, and an unclaimed group is refused.
func TestOwnedGroups(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "t"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	seeds := strings.Join(c.ListenAddrs(), ",")
	conn, err := Connect(seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := conn.NewAdmin("test")
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// Two groups come into being: a member joins each and leaves.
	for _, g := range []string{"ours-joined", "theirs"} {
		cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ConsumerGroup(g), kgo.ConsumeTopics("t"))
		if err != nil {
			t.Fatal(err)
		}
		for !listedGroup(ctx, admin, g) {
			pctx, pcancel := context.WithTimeout(ctx, 500*time.Millisecond)
			cl.PollFetches(pctx) // joins
			pcancel()
			if ctx.Err() != nil {
				t.Fatalf("group %s never came into being", g)
			}
		}
		cl.Close()
	}

	owned := NewOwned("kbench-run")
	owned.ShareGroup("theirs")
	for _, g := range []string{"ours-joined", "ours-never-joined", "theirs"} {
		owned.ClaimGroup(g)
	}
	if got, want := owned.Groups(), []string{"ours-joined", "ours-never-joined"}; !slices.Equal(got, want) {
		t.Fatalf("claimed %v, want %v (a shared group is never claimed)", got, want)
	}
	for _, tt := range []struct {
		group     string
		existed   bool
		wantError string
	}{
		{"ours-joined", true, ""},
		{"ours-never-joined", false, ""},
		{"theirs", false, "kbench did not create it"},
		{"unknown", false, "kbench did not create it"},
	} {
		existed, err := owned.DeleteGroup(ctx, admin, tt.group)
		if existed != tt.existed || (tt.wantError == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.wantError)) {
			t.Errorf("DeleteGroup(%s) = %v, %v; want %v, error %q", tt.group, existed, err, tt.existed, tt.wantError)
		}
	}
	if got := owned.Groups(); len(got) != 0 {
		t.Errorf("groups still claimed after deleting: %v", got)
	}
	listed, err := admin.ListGroups(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := listed["theirs"]; !ok {
		t.Error("the shared group was deleted")
	}
	if _, ok := listed["ours-joined"]; ok {
		t.Error("the claimed group was not deleted")
	}
	if !owned.Shared("theirs") || owned.Shared("ours-joined") {
		t.Error("Shared does not tell the user's group from kbench's")
	}
}

func listedGroup(ctx context.Context, admin *kadm.Client, group string) bool {
	listed, err := admin.ListGroups(ctx)
	_, ok := listed[group]
	return err == nil && ok
}
