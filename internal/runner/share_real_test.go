package runner

import (
	"context"
	"testing"

	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// TestRealShareRole runs 6 share consumers on a 2-partition topic of 5,000 records, one
// scenario accepting everything and one releasing 1% of deliveries: each reads every
// record, and only the second has redeliveries, each of a record it released.
func TestRealShareRole(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := `
name: t-share
repeats: 1
warmup: 1s
cooldown: 0s
cluster: {brokers: 2}
defaults:
  topic: {partitions: 2, replicas: 2}
  producers: {count: 0, record_size: 200}
  consumers: {count: 6, records: 5000, share_group: true}
matrix:
  release: [0, 0.01]
`
	opts := options(t, parseStudy(t, text), text)
	out, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	rd := readRun(t, out.Dir)
	for _, tt := range []struct {
		id      string
		release bool
	}{{"release=0", false}, {"release=0.01", true}} {
		rep := repeats(t, rd, tt.id, 1)[0]
		checkValid(t, rep)
		sh := rep.Share
		if sh == nil {
			t.Fatalf("%s: no share figures", tt.id)
		}
		t.Logf("%s: delivered %d, distinct %d, redelivered %d (%d unreleased), released %d, max delivery count %d, %.0f deliveries/s",
			tt.id, sh.Delivered, sh.Distinct, sh.Redelivered, sh.Unreleased, sh.Released, sh.MaxDeliveryCount, sh.RecordsPerSec)
		if sh.Distinct != 5000 || sh.Consumers != 6 {
			t.Errorf("%s: %d distinct records read by %d consumers, want 5000 by 6", tt.id, sh.Distinct, sh.Consumers)
		}
		if r := rep.Summary.Records; r == nil || r.Consumed == nil || *r.Consumed != 5000 {
			t.Errorf("%s: record accounting %+v, want 5000 consumed", tt.id, r)
		}
		switch {
		case tt.release && (sh.Released == 0 || sh.Redelivered-sh.Unreleased != sh.Released || sh.Acknowledgement != "explicit"):
			t.Errorf("%s: released %d, redelivered %d (%d unreleased), acknowledgement %s: want every released record delivered again, explicitly acknowledged",
				tt.id, sh.Released, sh.Redelivered, sh.Unreleased, sh.Acknowledgement)
		case !tt.release && (sh.Released != 0 || sh.Redelivered != sh.Unreleased || sh.Acknowledgement != "implicit"):
			t.Errorf("%s: released %d, redelivered %d (%d unreleased), acknowledgement %s: want none released, implicit", tt.id, sh.Released, sh.Redelivered, sh.Unreleased, sh.Acknowledgement)
		}
	}
}
