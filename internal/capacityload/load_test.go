package capacityload

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kbench/kbench/internal/load"
)

// TestLoadTrialsOnFake runs three trials on one kfake cluster with a consumer reading
// along: every acknowledged record is in the latency histogram, nothing fails, and the
// consumer (on an in-process fake, no load) keeps up. Rates are not asserted: kfake says
// nothing about a real cluster's.
func TestLoadTrialsOnFake(t *testing.T) {
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, "cap"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	boot := strings.Join(c.ListenAddrs(), ",")
	ctx := context.Background()
	pcfg := load.ProducerConfig{Bootstrap: boot, Topic: "cap", RecordSize: 100}
	p, err := load.OpenProducers(pcfg)
	if err != nil {
		t.Fatal(err)
	}
	l, err := Start(ctx, p, nil, pcfg, 1, "cap-group", 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	for i, rate := range []float64{0, 500, 1000} {
		o, err := l.Trial(ctx, rate, 500*time.Millisecond)
		if err != nil {
			t.Fatalf("trial %d: %v", i, err)
		}
		if o.Acked == 0 || o.Failed != 0 || o.Unsent != 0 || o.Latency.Count() != o.Acked {
			t.Errorf("trial %d: acked %d failed %d unsent %d latencies %d, want all acknowledged and measured",
				i, o.Acked, o.Failed, o.Unsent, o.Latency.Count())
		}
		// 100-byte values, no keys: 100 bytes a record.
		if o.Bytes != 100*o.Acked {
			t.Errorf("trial %d: %d bytes for %d records, want 100 each", i, o.Bytes, o.Acked)
		}
		if i > 0 && o.ConsumerLagGrowth != 0 {
			t.Errorf("trial %d: consumer lag grew by %d on an idle fake", i, o.ConsumerLagGrowth)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}
