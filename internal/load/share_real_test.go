package load

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/kafka"
)

// enableShareGroups turns share groups on where the cluster's release formats them off
// (Kafka 4.1).
func enableShareGroups(t *testing.T) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if kafka.CheckShareGroups(context.Background(), kadm.NewClient(cl)) == nil {
		return // on already (4.4 is at share.version=2, where asking for 1 is a downgrade)
	}
	res, err := kadm.NewClient(cl).UpdateFeatures(context.Background(), false, kadm.FeatureUpdate{Feature: "share.version", MaxVersionLevel: 1, UpgradeType: 1})
	if err == nil {
		err = res.Error()
	}
	if err != nil {
		t.Fatalf("enable share groups (share.version=1): %v", err)
	}
}

// TestRealShareConsume runs 6 share consumers on a 2-partition topic of the embedded
// cluster: every record is delivered at least once, and releasing 1% of deliveries shows as
// 1 +/- 0.5% redelivered (a 7-standard-deviation window at 20,000 deliveries).
func TestRealShareConsume(t *testing.T) {
	clustertest.Need(t, testCluster)
	enableShareGroups(t)
	topic := "real-share"
	createTopic(t, topic, 2)
	const n = 20_000
	if _, err := Produce(context.Background(), ProducerConfig{Bootstrap: testCluster.Bootstrap(), Topic: topic,
		RecordSize: 100, Records: n, TimestampHeader: true}, nil); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name             string
		release          float64
		minShare, maxShr float64
	}{{"implicit", 0, 0, 0.005}, {"release 1%", 0.01, 0.005, 0.015}} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ConsumeShare(context.Background(), ShareConfig{Bootstrap: testCluster.Bootstrap(), Topics: []string{topic},
				Group: "real-share-" + strings.ReplaceAll(tt.name, " ", "-"), Consumers: 6, Records: n, Release: tt.release,
				Timeout: 60 * time.Second, Seed: 3}, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("delivered %d distinct %d redelivered %d (%.4f, %d unreleased) released %d in %.2f s, %.0f records/s, e2e p99 %d us",
				res.Delivered, res.Distinct, res.Redelivered, res.RedeliveredShare, res.Unreleased, res.Released,
				res.ElapsedSeconds, res.RecordsPerSec, res.EndToEnd.P99Us)
			checkShareAccounting(t, res, n)
			if res.RedeliveredShare < tt.minShare || res.RedeliveredShare > tt.maxShr {
				t.Errorf("redelivered share %.4f, want %.3f to %.3f", res.RedeliveredShare, tt.minShare, tt.maxShr)
			}
			if !res.GroupCreated {
				t.Errorf("the group was not created by the run")
			}
		})
	}
}
