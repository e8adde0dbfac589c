package load

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kversion"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
)

// checkShareAccounting checks a share run's counts against each other: they come from two
// independent paths, the broker's delivery counts and the consumers' own acknowledgements.
func checkShareAccounting(t *testing.T, res *ShareResult, n int64) {
	t.Helper()
	if res.Distinct != n {
		t.Errorf("distinct %d, want every one of the %d records", res.Distinct, n)
	}
	if res.Accepted+res.Released+res.Rejected != res.Delivered {
		t.Errorf("accepted %d + released %d + rejected %d != delivered %d", res.Accepted, res.Released, res.Rejected, res.Delivered)
	}
	// Every release came back once (the run waits for them), and nothing else came back
	// but what an expired lock returned.
	if res.Redelivered-res.Unreleased != res.Released {
		t.Errorf("redelivered %d (%d unreleased), released %d", res.Redelivered, res.Unreleased, res.Released)
	}
	// Every record is delivered once, plus once per release: distinct + released + unreleased.
	if res.Delivered != res.Distinct+res.Released+res.Unreleased {
		t.Errorf("delivered %d, want distinct %d + released %d + unreleased %d", res.Delivered, res.Distinct, res.Released, res.Unreleased)
	}
}

// TestShareConsumeFake runs 6 share consumers (3 per partition) on a fake cluster. The
// released share of 20,000 deliveries has a standard deviation of 0.07 points at 1%, so the
// 0.5 to 1.5% window is 7 of them wide either side: a correct run falls outside it with a
// probability under 1e-11, whatever the seed.
func TestShareConsumeFake(t *testing.T) {
	tests := []struct {
		name             string
		cfg              ShareConfig
		minShare, maxShr float64 // redelivered share of deliveries
	}{
		{"implicit, nothing released", ShareConfig{Consumers: 6}, 0, 0},
		{"explicit, 1% released", ShareConfig{Consumers: 6, Release: 0.01, Seed: 7}, 0.005, 0.015},
		{"explicit, 2% rejected", ShareConfig{Consumers: 3, Reject: 0.02, Ack: ShareAckExplicit}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(2, "t"))
			const n = 20_000
			if _, err := Produce(context.Background(), ProducerConfig{Bootstrap: boot, Topic: "t", RecordSize: 20, Records: n,
				TimestampHeader: true}, nil); err != nil {
				t.Fatal(err)
			}
			cfg := tt.cfg
			cfg.Bootstrap, cfg.Topics, cfg.Group, cfg.Records, cfg.Timeout = boot, []string{"t"}, "sg", n, 20*time.Second
			res, err := ConsumeShare(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("delivered %d distinct %d redelivered %d (%.4f, %d unreleased) released %d rejected %d in %.2f s",
				res.Delivered, res.Distinct, res.Redelivered, res.RedeliveredShare, res.Unreleased, res.Released, res.Rejected, res.ElapsedSeconds)
			checkShareAccounting(t, res, n)
			if res.RedeliveredShare < tt.minShare || res.RedeliveredShare > tt.maxShr {
				t.Errorf("redelivered share %.4f, want %.3f to %.3f", res.RedeliveredShare, tt.minShare, tt.maxShr)
			}
			if want := cfg.Reject * float64(res.Delivered); math.Abs(float64(res.Rejected)-want) > 5*math.Sqrt(want+1) {
				t.Errorf("rejected %d of %d deliveries, want about %.0f", res.Rejected, res.Delivered, want)
			}
			if res.EndToEndSource != "header" || res.EndToEnd.Count != res.Delivered || !res.GroupCreated {
				t.Errorf("end-to-end %q count %d of %d deliveries; group created %v", res.EndToEndSource, res.EndToEnd.Count, res.Delivered, res.GroupCreated)
			}
		})
	}
}

func TestShareConsumeRefusals(t *testing.T) {
	_, old := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(1, "t"), kfake.MaxVersions(kversion.V4_0_0()))
	for _, tt := range []struct {
		name string
		cfg  ShareConfig
		want string
	}{
		{"implicit with releases", ShareConfig{Ack: ShareAckImplicit, Release: 0.1}, "needs explicit acknowledgement"},
		{"shares too large", ShareConfig{Release: 0.6, Reject: 0.4}, "add up to less than 1"},
		{"a group property", ShareConfig{Properties: map[string]string{"auto.offset.reset": "latest"}}, "auto.offset.reset does not apply to a share consumer"},
		{"brokers without share groups", ShareConfig{Bootstrap: old}, "share groups"},
	} {
		cfg := tt.cfg
		cfg.Topics, cfg.Group, cfg.Records, cfg.Timeout = []string{"t"}, "sg", 10, time.Second
		if cfg.Bootstrap == "" {
			cfg.Bootstrap = old
		}
		_, err := ConsumeShare(context.Background(), cfg, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestShareConsumeDeliveryLimit releases half of all deliveries: some records reach the
// broker's delivery limit (5) and are archived, and the run still ends once every record
// came and every release that can come back did, not at its timeout.
func TestShareConsumeDeliveryLimit(t *testing.T) {
	_, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(2, "t"))
	const n = 2000
	if _, err := Produce(context.Background(), ProducerConfig{Bootstrap: boot, Topic: "t", RecordSize: 20, Records: n}, nil); err != nil {
		t.Fatal(err)
	}
	res, err := ConsumeShare(context.Background(), ShareConfig{Bootstrap: boot, Topics: []string{"t"}, Group: "sg", Records: n,
		Consumers: 2, Release: 0.5, Seed: 1, Timeout: time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A record released at each of its 5 deliveries: about n/32 of them.
	if res.TimedOut || res.Distinct != n || res.MaxDeliveryCount != shareDeliveryLimit {
		t.Errorf("timed out %v, distinct %d of %d, largest delivery count %d (want %d)", res.TimedOut, res.Distinct, n,
			res.MaxDeliveryCount, shareDeliveryLimit)
	}
	if res.Delivered != res.Accepted+res.Released || res.Redelivered > res.Released {
		t.Errorf("delivered %d, accepted %d, released %d, redelivered %d", res.Delivered, res.Accepted, res.Released, res.Redelivered)
	}
}
