package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

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
	topics, err := kadm.NewClient(cl).ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range topics.Names() {
		if strings.Contains(name, "jit-warmup") {
			t.Errorf("warm-up topic %s left on the cluster", name)
		}
	}
}
