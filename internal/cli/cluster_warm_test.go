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
	if err := warmCluster(context.Background(), testCluster, time.Minute, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "warming up the cluster's JIT for 15s, and on while one of its last two 5 s slices beat every earlier one by more than 10%, up to 1m0s (unmeasured; --no-warmup skips it)") {
		t.Errorf("log %q does not say it warms up", log.String())
	}
	// "warm after 25s: 17,270, 28,180, 36,124, 59,577, 53,392 records/s in its 5 s slices",
	// or "still warming when its 1m0s ended: ..." on a host too busy to finish within the
	// bound: one rate per 5 s slice, 3 to 12 of them.
	var took time.Duration
	var rates string
	for line := range strings.SplitSeq(log.String(), "\n") {
		after, ok := strings.CutPrefix(line, "warm after ")
		if !ok {
			after, ok = strings.CutPrefix(line, "still warming when its ")
			after = strings.Replace(after, " ended: ", ": ", 1)
		}
		if ok {
			d, rest, _ := strings.Cut(after, ": ")
			took, _ = time.ParseDuration(d)
			rates, _, _ = strings.Cut(rest, " records/s")
		}
	}
	n := len(strings.Split(rates, ", "))
	if rates == "" || took < 15*time.Second || took > time.Minute || time.Duration(n)*5*time.Second != took {
		t.Errorf("log %q: want a warm-up of 15 s to 1 min with one rate per 5 s slice", log.String())
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
