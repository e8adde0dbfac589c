package metrics

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// Against the embedded cluster: the group coordinators' rebalances reach the broker rows. A
// classic group and a consumer-protocol group each form (one member) and then take a second
// member, each member waiting for its assignment: every group goes through at least two
// generations (classic) or epochs (consumer protocol), so the rows must count at least four.
func TestGroupCoordinatorRebalances(t *testing.T) {
	clustertest.Need(t, testCluster)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	seeds := strings.Split(testCluster.Bootstrap(), ",")
	topic := fmt.Sprintf("metrics-groups-%d", time.Now().UnixNano())
	s := clusterSampler(ctx, t, topic, 6, 1)
	startSampling(ctx, t, s)

	// member joins a group and returns once its first assignment arrived.
	member := func(group string, consumerProtocol bool) {
		assigned := make(chan struct{}, 16)
		opts := []kgo.Opt{kgo.SeedBrokers(seeds...), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
			kgo.OnPartitionsAssigned(func(context.Context, *kgo.Client, map[string][]int32) {
				select {
				case assigned <- struct{}{}:
				default:
				}
			})}
		if consumerProtocol {
			opts = append(opts, kgo.ServerSideBalancer(), kgo.Balancers(kgo.StickyBalancer()))
		}
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(cl.Close)
		go func() {
			for ctx.Err() == nil && !cl.PollFetches(ctx).IsClientClosed() {
			}
		}()
		select {
		case <-assigned:
		case <-ctx.Done():
			t.Fatalf("group %s: no assignment", group)
		}
	}
	for _, g := range []struct {
		name     string
		consumer bool
	}{{topic + "-classic", false}, {topic + "-consumer", true}} {
		member(g.name, g.consumer)
		member(g.name, g.consumer)
	}
	time.Sleep(3 * time.Second) // the last rebalances reach a sample
	series := s.Stop()

	// Two groups, each formed and then rebalanced for its second member: at least four
	// rebalances (a classic join may take two generations, the consumer protocol bumps the
	// epoch per member), counted by whichever broker coordinates each group.
	var rebalances float64
	for _, b := range series.Brokers {
		seen := false
		for i, r := range b.Rows {
			dt := series.IntervalSeconds
			if i > 0 {
				dt = r.Time.Sub(b.Rows[i-1].Time).Seconds()
			}
			v, ok := r.Values[FieldGroupRebalancesSec]
			rebalances += v * dt
			seen = seen || ok
		}
		if !seen {
			t.Errorf("broker %d: no %s in %d rows (the exporter rules miss the group coordinator)", b.ID, FieldGroupRebalancesSec, len(b.Rows))
		}
	}
	t.Logf("rebalances counted by the coordinators: %.1f", rebalances)
	if rebalances < 3.5 {
		t.Errorf("the coordinators counted %.1f rebalances, want at least 4", rebalances)
	}
}
