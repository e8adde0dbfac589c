package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestWarmCluster: cluster up's warm-up loads the shared test cluster on a topic of
// kbench's, says so, and leaves no topic behind.
func TestWarmCluster(t *testing.T) {
	if testCluster == nil {
		t.Skip("needs the embedded test cluster (not under -short)")
	}
	var log bytes.Buffer
	if err := warmCluster(context.Background(), testCluster, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "warming up the cluster's JIT for 15s (unmeasured; --no-warmup skips it)") {
		t.Errorf("log %q does not say it warms up", log.String())
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	// A deleted topic can stay in the brokers' metadata for a moment after the deletion
	// was accepted: look until it is gone, for at most 30 s.
	deadline := time.Now().Add(30 * time.Second)
	for {
		left := warmupTopics(t, kadm.NewClient(cl))
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("warm-up topics %v left on the cluster", left)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func warmupTopics(t *testing.T, adm *kadm.Client) []string {
	t.Helper()
	topics, err := adm.ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, name := range topics.Names() {
		if strings.Contains(name, "jit-warmup") {
			left = append(left, name)
		}
	}
	return left
}
