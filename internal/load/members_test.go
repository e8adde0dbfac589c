package load

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
	"github.com/kbench/kbench/internal/rebalance"
)

// Every event happens to the member it names, the log holds every consumed record, and a
// kill sends no LeaveGroup: only the graceful leave and the one member still running at the
// end leave the group.
func TestMembershipEventsFake(t *testing.T) {
	c, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(3, "members"))
	var leaves atomic.Int64
	c.ControlKey(int16(kmsg.LeaveGroup), func(kmsg.Request) (kmsg.Response, error, bool) {
		leaves.Add(1)
		return nil, nil, false // counted, then handled as usual
	})
	if _, err := Produce(context.Background(), ProducerConfig{Bootstrap: boot, Topic: "members", RecordSize: 10,
		Records: 3000, TimestampHeader: true, Keys: KeysRandom}, nil); err != nil {
		t.Fatal(err)
	}
	events, err := rebalance.ParseSchedule("stall@500ms/300ms, join@1s, leave@1500ms, kill@2s")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Consume(context.Background(), ConsumerConfig{Bootstrap: boot, Topics: []string{"members"}, Consumers: 2,
		Duration: 3 * time.Second, Events: events}, nil)
	if err != nil {
		t.Fatal(err)
	}
	log := res.Rebalance
	if log == nil || log.Partitions != 3 {
		t.Fatalf("log %+v", log)
	}
	// The oldest running member stalls, leaves, then the next is killed; the joiner is the third.
	want := []struct {
		kind   rebalance.Kind
		member int
	}{{rebalance.Stall, 0}, {rebalance.Join, 2}, {rebalance.Leave, 0}, {rebalance.Kill, 1}}
	if len(log.Events) != len(want) {
		t.Fatalf("events %+v", log.Events)
	}
	for i, w := range want {
		if ev := log.Events[i]; ev.Kind != w.kind || ev.Member != w.member || ev.Skipped != "" {
			t.Errorf("event %d: %+v, want %s of member %d", i, ev, w.kind, w.member)
		}
	}
	if got := int64(log.Records.Len()); got != res.Records {
		t.Errorf("log holds %d records, the run consumed %d", got, res.Records)
	}
	if len(log.Changes) == 0 || log.EndUs <= log.Events[3].AtUs {
		t.Errorf("changes %+v, end %d", log.Changes, log.EndUs)
	}
	if n := leaves.Load(); n != 2 {
		t.Errorf("%d LeaveGroup requests, want 2 (the graceful leave and the member left at the end; none from the kill)", n)
	}
}
