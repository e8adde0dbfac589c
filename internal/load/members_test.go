package load

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
	"github.com/kbench/kbench/internal/rebalance"
)

// Every event happens to the member it names, the log holds every consumed record, and a
// kill sends no LeaveGroup, where a graceful leave does.
func TestMembershipEventsFake(t *testing.T) {
	c, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(3, "members"), kfake.GroupMinSessionTimeout(100*time.Millisecond))
	var mu sync.Mutex
	left := map[string]bool{}
	c.ControlKey(int16(kmsg.LeaveGroup), func(req kmsg.Request) (kmsg.Response, error, bool) {
		mu.Lock()
		defer mu.Unlock()
		for _, m := range req.(*kmsg.LeaveGroupRequest).Members {
			left[m.MemberID] = true
		}
		return nil, nil, false // noted, then handled as usual
	})
	if _, err := Produce(context.Background(), ProducerConfig{Bootstrap: boot, Topic: "members", RecordSize: 10,
		Records: 3000, TimestampHeader: true, Keys: KeysRandom}, nil); err != nil {
		t.Fatal(err)
	}
	events, err := rebalance.ParseSchedule("stall@500ms/300ms, join@1s, leave@2s, kill@3s")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Consume(context.Background(), ConsumerConfig{Bootstrap: boot, Topics: []string{"members"}, Consumers: 2,
		Duration: 4 * time.Second, Events: events,
		// A short session, so a rebalance that waits for the killed member ends soon.
		Properties: map[string]string{"session.timeout.ms": "1000", "heartbeat.interval.ms": "100"}}, nil)
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
	mu.Lock()
	defer mu.Unlock()
	if leaver := log.Events[2].MemberID; leaver == "" || !left[leaver] {
		t.Errorf("the graceful leave of %q sent no LeaveGroup (left: %v)", leaver, left)
	}
	if killed := log.Events[3].MemberID; killed == "" || left[killed] {
		t.Errorf("the killed member %q sent a LeaveGroup (left: %v)", killed, left)
	}
}

// A topic that appears a moment after the run starts is waited for, as a freshly created
// topic not yet in every broker's metadata would be.
func TestPartitionCountWaitsForTopic(t *testing.T) {
	_, boot := kfaketest.Start(t, kfake.NumBrokers(1))
	cl, err := kgo.NewClient(kgo.SeedBrokers(boot))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	created := make(chan error, 1)
	go func() {
		time.Sleep(300 * time.Millisecond)
		_, err := adm.CreateTopic(context.Background(), 5, 1, nil, "late")
		created <- err
	}()
	n, err := partitionCount(context.Background(), adm, "late")
	if cerr := <-created; cerr != nil {
		t.Fatal(cerr)
	}
	if err != nil || n != 5 {
		t.Errorf("partitionCount = %d, %v; want 5", n, err)
	}
}
