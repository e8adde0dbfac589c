package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kbench/kbench/internal/results"
)

// A resume without any cluster flag reaches the cluster recorded in run.json, and refuses
// it when its cluster ID is not the one the run measured. kfake stands in for the cluster:
// nothing here depends on Kafka's behaviour beyond its metadata and topic requests.
func TestResumeRecordedTarget(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.ClusterID("cluster-a"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	boot := strings.Join(c.ListenAddrs(), ",")
	text := "name: t-resume-target\nrepeats: 1\nwarmup: 0s\ncooldown: 0s\ndefaults:\n  topic: {partitions: 1, replicas: 1}\n  producers: {record_size: 10, records: 20}\n"

	for _, tc := range []struct {
		name, recordedID, wantErr string
	}{
		{"other cluster", "cluster-b", "has cluster ID cluster-a, but the run measured cluster cluster-b"},
		{"same cluster", "cluster-a", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plan := parseStudy(t, text)
			dir, err := results.Create(t.TempDir(), time.Now(), plan.Name)
			if err != nil {
				t.Fatal(err)
			}
			run := newRun(plan, "test")
			run.Environment = results.Environment{Cluster: results.External, Bootstrap: boot}
			run.Target = results.Target{Bootstrap: boot, ClusterID: tc.recordedID}
			if err := results.WriteStudy(dir, []byte(text)); err != nil {
				t.Fatal(err)
			}
			if err := results.WriteRun(dir, run); err != nil {
				t.Fatal(err)
			}
			out, err := Run(context.Background(), Options{Plan: plan, ResumeDir: dir, Version: "test"})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("resume: %v, want an error containing %q", err, tc.wantErr)
				}
				if reps, _ := results.ListRepeats(dir, "default"); len(reps) > 0 {
					t.Errorf("a refused resume ran repeats %v", reps)
				}
				return
			}
			if err != nil || !out.Complete || out.Repeats != 1 {
				t.Fatalf("resume: %+v, %v; want the missing repeat run on the recorded cluster", out, err)
			}
			if got := readRun(t, dir).Run.Target; got.Bootstrap != boot || got.ClusterID != "cluster-a" {
				t.Errorf("target after the resume %+v, want %s and cluster-a", got, boot)
			}
		})
	}
}
