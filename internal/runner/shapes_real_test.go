package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/results"
)

// A study that varies the cluster's shape starts one 1-broker cluster per heap, records
// each scenario's cluster, and a resume whose first group is done starts only the second
// group's cluster. It starts three clusters of its own (one broker each) one after another.
func TestShapeGroupsRealResume(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := "name: t-shape-groups\nrepeats: 1\nwarmup: 0s\ncooldown: 0s\ncluster: {brokers: 1, jit_warmup: 5s}\n" +
		"defaults:\n  topic: {partitions: 1}\n  producers: {record_size: 10, records: 200}\n" +
		"matrix:\n  heap: [256m, 320m]\n"
	plan := parseStudy(t, text)
	var log lockedBuffer
	opts := Options{Plan: plan, StudyText: []byte(text), RunsDir: t.TempDir(), Seed: 1, Log: &log, Version: "test"}
	out, err := Run(context.Background(), opts)
	if err != nil || !out.Complete || out.Repeats != 2 {
		t.Fatalf("run: %+v, %v\n%s", out, err, log.String())
	}
	if n := strings.Count(log.String(), "starting an embedded"); n != 2 {
		t.Errorf("%d clusters started, want 2 (one per heap):\n%s", n, log.String())
	}
	rd := readRun(t, out.Dir)
	for i, heap := range []string{"256m", "320m"} {
		c := rd.Run.Scenarios[i].Cluster
		if c == nil || c.Brokers != 1 || c.Heap != heap || c.KafkaVersion == "" {
			t.Errorf("scenario %d recorded cluster %+v, want 1 broker, heap %s", i, c, heap)
		}
	}

	// Undo the second group's repeat and resume: only the heap=320m cluster starts.
	if err := os.Remove(filepath.Join(out.Dir, results.ScenariosDir, "heap=320m", "repeat-1.json")); err != nil {
		t.Fatal(err)
	}
	run := rd.Run
	run.Status = results.Status{State: results.Incomplete, Reason: "interrupted"}
	if err := results.WriteRun(out.Dir, &run); err != nil {
		t.Fatal(err)
	}
	var log2 lockedBuffer
	opts.ResumeDir, opts.Log = out.Dir, &log2
	out2, err := Run(context.Background(), opts)
	if err != nil || !out2.Complete || out2.Repeats != 1 {
		t.Fatalf("resume: %+v, %v\n%s", out2, err, log2.String())
	}
	if n := strings.Count(log2.String(), "starting an embedded"); n != 1 || !strings.Contains(log2.String(), "(heap 320m)") {
		t.Errorf("resume started %d clusters, want only the heap=320m one:\n%s", n, log2.String())
	}
}
