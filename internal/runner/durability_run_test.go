package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// TestRunDurabilityCheck runs a scenario with a durability check (no faults: the cluster is
// shared with the other tests) and two repeats: the first repeat carries the check, clean,
// with every record sent acknowledged and read back; the second has none; the check's topic
// is deleted.
func TestRunDurabilityCheck(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := `
name: t-durability
repeats: 2
warmup: 1s
cooldown: 0s
cluster: {brokers: 2}
defaults:
  topic: {partitions: 2, replicas: 2, configs: {min.insync.replicas: 2}}
  producers: {count: 2, record_size: 200, duration: 2s, rate: 500, properties: {acks: all}}
  verify: {duration: 3s, rate: 400}
`
	out, err := Run(context.Background(), options(t, parseStudy(t, text), text))
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	reps := repeats(t, readRun(t, out.Dir), "default", 2)
	d := reps[0].Durability
	if d == nil {
		t.Fatal("the first repeat has no durability check")
	}
	// 400/s for 3 s: at most 1,200 records; each acknowledged and read back once.
	if d.Error != "" || d.Anomalies() != 0 || d.Acknowledged == 0 || d.Acknowledged > 1200 ||
		d.Acknowledged != d.Sent || d.ReadBack != d.Acknowledged {
		t.Errorf("durability = %+v, want a clean check of up to 1,200 records", d)
	}
	if !strings.HasPrefix(d.Verdict, "lost 0, duplicated 0, reordered 0, inconsistent 0, unexpected 0 (of ") {
		t.Errorf("verdict %q", d.Verdict)
	}
	if reps[1].Durability != nil {
		t.Errorf("the second repeat has a durability check too")
	}
	topics, err := admin(t).ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range topics.Names() {
		if strings.HasSuffix(name, "-verify") {
			t.Errorf("topic %s left behind", name)
		}
	}
}
