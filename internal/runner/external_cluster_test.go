package runner

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// bareCluster attaches to the shared cluster as a user's own cluster usually is: a
// bootstrap address only, no metrics endpoint, no broker process on this machine.
func bareCluster() *External { return &External{Bootstrap: testCluster.Bootstrap()} }

// saslCluster is bareCluster through the SCRAM-over-TLS listener, with its client properties
// file as --command-config gives it.
func saslCluster(t *testing.T) *External {
	e, ok := testCluster.Endpoint("sasl")
	if !ok {
		t.Fatal("the test cluster has no sasl listener")
	}
	return &External{Bootstrap: e.Bootstrap, Properties: e.Properties, CommandConfig: e.PropertiesFile}
}

// foreign is a topic with records and a consumer group with committed offsets that belong
// to someone else; a run must leave both exactly as they were.
type foreign struct{ topic, group string }

func newForeign(t *testing.T) foreign {
	t.Helper()
	f := foreign{topic: fmt.Sprintf("app-orders-%04x", rand.IntN(1<<16)), group: fmt.Sprintf("app-billing-%04x", rand.IntN(1<<16))}
	ctx := context.Background()
	adm := admin(t)
	if _, err := adm.CreateTopic(ctx, 2, 2, nil, f.topic); err != nil {
		t.Fatalf("create foreign topic: %v", err)
	}
	t.Cleanup(func() { _, _ = adm.DeleteGroup(ctx, f.group); _, _ = adm.DeleteTopic(ctx, f.topic) })
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...), kgo.DefaultProduceTopic(f.topic))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var recs []*kgo.Record
	for i := range 40 {
		recs = append(recs, &kgo.Record{Value: []byte(fmt.Sprint(i)), Partition: int32(i % 2)})
	}
	if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatalf("produce to foreign topic: %v", err)
	}
	offsets := kadm.Offsets{}
	offsets.Add(kadm.Offset{Topic: f.topic, Partition: 0, At: 7, LeaderEpoch: -1})
	offsets.Add(kadm.Offset{Topic: f.topic, Partition: 1, At: 11, LeaderEpoch: -1})
	if _, err := adm.CommitOffsets(ctx, f.group, offsets); err != nil {
		t.Fatalf("commit foreign offsets: %v", err)
	}
	return f
}

// state is what a run must not change: the foreign topic's end offsets, the foreign group's
// committed offsets, and the topics and groups outside kbench's prefix.
func (f foreign) state(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	adm := admin(t)
	ends, err := adm.ListEndOffsets(ctx, f.topic)
	if err != nil {
		t.Fatalf("end offsets: %v", err)
	}
	committed, err := adm.FetchOffsets(ctx, f.group)
	if err != nil {
		t.Fatalf("committed offsets: %v", err)
	}
	var lines []string
	ends.Each(func(o kadm.ListedOffset) {
		lines = append(lines, fmt.Sprintf("end %s/%d=%d", o.Topic, o.Partition, o.Offset))
	})
	committed.Each(func(o kadm.OffsetResponse) {
		lines = append(lines, fmt.Sprintf("committed %s/%d=%d", o.Topic, o.Partition, o.At))
	})
	slices.Sort(lines) // the offsets come from maps
	lines = append(lines, "topics: "+strings.Join(outside(t, listTopics(t)), ","), "groups: "+strings.Join(outside(t, listGroups(t)), ","))
	return strings.Join(lines, "\n")
}

func listTopics(t *testing.T) []string {
	t.Helper()
	listed, err := admin(t).ListTopics(context.Background())
	if err != nil {
		t.Fatalf("list topics: %v", err)
	}
	return listed.Names()
}

func listGroups(t *testing.T) []string {
	t.Helper()
	listed, err := admin(t).ListGroups(context.Background())
	if err != nil {
		t.Fatalf("list groups: %v", err)
	}
	return listed.Groups()
}

// outside keeps the names kbench does not own, sorted.
func outside(t *testing.T, names []string) []string {
	var out []string
	for _, n := range names {
		if !strings.HasPrefix(n, "kbench-") {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// containing keeps the names that contain s, sorted.
func containing(names []string, s string) []string {
	var out []string
	for _, n := range names {
		if strings.Contains(n, s) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// TestExternalWithoutBrokerMetrics runs the quick study's shape, plus a consume-only and a
// produce+consume scenario, on a SASL cluster with no metrics endpoint and no local broker
// process: every repeat is valid from the clients' figures, run.json says broker metrics are
// absent, and someone else's topic and group are unchanged.
func TestExternalWithoutBrokerMetrics(t *testing.T) {
	clustertest.Need(t, testCluster)
	f := newForeign(t)
	before := f.state(t)
	// buffer.memory is small so that a loaded test machine drains what is still buffered at
	// the end of the 1 s window in time (32 MiB at acks=all can take longer than allowed).
	text := `
name: t-ext-bare
repeats: 1
warmup: 1s
cooldown: 0s
defaults:
  topic: {partitions: 3, replicas: 2}
  producers: {count: 1, record_size: 1KiB, duration: 1s, properties: {linger.ms: 0, buffer.memory: 1MiB}}
matrix:
  batch: [1KiB, 16KiB]
  acks: ["1", all]
scenarios:
  - {producers: 0, consumers: 1, set: {consumers.records: 3000}}
  - {consumers: 1}
`
	plan := parseStudy(t, text)
	opts := options(t, plan, text)
	opts.External = saslCluster(t)
	out, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if out.Repeats != 6 || out.Invalid != 0 {
		t.Errorf("outcome %+v, want 6 repeats, none invalid (reasons %v)", out, out.Reasons)
	}
	rd := readRun(t, out.Dir)
	if bm := rd.Run.Environment.BrokerMetrics; !bm.Absent() || !reflect.DeepEqual(bm.Missing, []int{1, 2}) {
		t.Errorf("broker_metrics %+v, want absent with brokers 1 and 2 missing", bm)
	}
	if got, ext := rd.Run.Target, opts.External; got.Bootstrap != ext.Bootstrap || got.CommandConfig != ext.CommandConfig || got.ClusterID == "" {
		t.Errorf("target %+v, want %s, %s and a cluster ID", got, ext.Bootstrap, ext.CommandConfig)
	}
	if env := rd.Run.Environment; env.Security != "SASL_SSL" {
		t.Errorf("security %q, want SASL_SSL", env.Security)
	}
	for id, reps := range rd.Repeats {
		for _, rep := range reps {
			if !rep.Validity.Valid || rep.Summary.RecordsAcked == 0 {
				t.Errorf("%s: valid %v %v, %d records", id, rep.Validity.Valid, rep.Validity.Reasons, rep.Summary.RecordsAcked)
			}
			if len(rep.Brokers) > 0 && rep.Brokers[0].Broker != "host" {
				t.Errorf("%s: broker rows %v without a broker source", id, rep.Brokers[0])
			}
		}
	}
	if after := f.state(t); after != before {
		t.Errorf("the foreign topic or group changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if left := containing(append(listTopics(t), listGroups(t)...), "t-ext-bare"); len(left) > 0 {
		t.Errorf("kbench topics or groups left: %v", left)
	}
}

// TestExistingStudyGroup refuses, before anything is created, a study group that exists on
// the cluster; --allow-existing-group lets the run share it and never deletes it. The run
// also has a metrics URL for one broker only, and says which one is missing.
func TestExistingStudyGroup(t *testing.T) {
	clustertest.Need(t, testCluster)
	f := newForeign(t)
	text := fmt.Sprintf(`
name: t-ext-group
repeats: 1
warmup: 0s
cooldown: 0s
defaults:
  topic: {partitions: 1, replicas: 2}
  producers: {record_size: 100, records: 500}
  consumers: {count: 1, group: %s}
`, f.group)
	plan := parseStudy(t, text)
	opts := options(t, plan, text)
	opts.External = bareCluster()
	_, err := Run(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "consumer group "+f.group+" already exists") ||
		!strings.Contains(err.Error(), "--allow-existing-group "+f.group) {
		t.Fatalf("run: %v, want a refusal naming the group and the flag", err)
	}
	if entries, _ := os.ReadDir(opts.RunsDir); len(entries) > 0 {
		t.Errorf("a refused run created %v", entries)
	}

	before := f.state(t)
	opts.AllowExistingGroups = []string{f.group}
	opts.External.MetricsURLs = []string{testCluster.Brokers()[0].MetricsURL}
	out, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("run with --allow-existing-group: %v", err)
	}
	rd := readRun(t, out.Dir)
	checkValid(t, repeats(t, rd, "default", 1)[0])
	if bm := rd.Run.Environment.BrokerMetrics; !bm.Partial() || !reflect.DeepEqual(bm.Sampled, []int{1}) || !reflect.DeepEqual(bm.Missing, []int{2}) {
		t.Errorf("broker_metrics %+v, want broker 1 sampled and 2 missing", bm)
	}
	if after := f.state(t); after != before {
		t.Errorf("the shared group or the foreign topic changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// TestInterruptLeavesNothing cancels runs at several moments (connecting, creating, filling,
// measuring, draining) and finds no topic or group of theirs left on the cluster.
func TestInterruptLeavesNothing(t *testing.T) {
	clustertest.Need(t, testCluster)
	for i, delay := range []time.Duration{50 * time.Millisecond, 700 * time.Millisecond, 1500 * time.Millisecond, 2800 * time.Millisecond, 4500 * time.Millisecond, 6500 * time.Millisecond} {
		name := fmt.Sprintf("t-cancel-%d", i)
		// A consume-only scenario whose fill takes 2 s at --max-rate 2000, then one that
		// produces and consumes for 2 s.
		text := fmt.Sprintf(`
name: %s
repeats: 1
warmup: 500ms
cooldown: 500ms
defaults:
  topic: {partitions: 2, replicas: 2}
  producers: {record_size: 200, duration: 2s}
scenarios:
  - {producers: 0, consumers: 1, set: {consumers.records: 4000}}
  - {consumers: 2}
`, name)
		opts := options(t, parseStudy(t, text), text)
		opts.External, opts.MaxRate = bareCluster(), 2000
		ctx, cancel := context.WithCancel(context.Background())
		var cancelled time.Time
		timer := time.AfterFunc(delay, func() { cancelled = time.Now(); cancel() })
		out, err := Run(ctx, opts)
		timer.Stop()
		cancel()
		if !cancelled.IsZero() {
			t.Logf("%s: cancelled after %s, Run returned %s later: %v", name, delay, time.Since(cancelled).Round(time.Millisecond), err)
		}
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("%s: run: %v, want an interruption", name, err)
		}
		if out != nil && out.Complete {
			t.Logf("%s: the run completed before the cancellation", name)
		}
		if left := containing(append(listTopics(t), listGroups(t)...), name); len(left) > 0 {
			t.Errorf("%s: cancelled after %s, left %v", name, delay, left)
		}
	}
}
