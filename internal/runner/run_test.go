package runner

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/report"
	"github.com/kbench/kbench/internal/results"
)

// TestRunProduceAndConsume runs a produce scenario, a produce+consume one and a consume-only
// one to completion and checks the run directory a report is built from.
func TestRunProduceAndConsume(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := `
name: t-run
repeats: 1
warmup: 1s
cooldown: 0s
cluster: {brokers: 2}
defaults:
  topic: {partitions: 2, replicas: 2}
  producers: {record_size: 200, duration: 2s, rate: 500}
matrix:
  consumers: [0, 1]
scenarios:
  - {producers: 0, consumers: 1, set: {consumers.records: 300}}
`
	opts := options(t, parseStudy(t, text), text)
	out, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if !out.Complete || out.Repeats != 3 {
		t.Fatalf("outcome %+v, want complete with 3 repeats", out)
	}
	rd := readRun(t, out.Dir)
	if rd.Run.Status.State != results.Complete || rd.Run.Finished.IsZero() {
		t.Errorf("run.json status %+v finished %v, want complete with a finish time", rd.Run.Status, rd.Run.Finished)
	}
	if env := rd.Run.Environment; env.Cluster != results.External || env.Brokers != 2 || env.Bootstrap != testCluster.Bootstrap() {
		t.Errorf("environment %+v, want the external 2-broker cluster at %s", env, testCluster.Bootstrap())
	}
	for _, id := range []string{"consumers=0", "consumers=1", "consumers=1,producers=0"} {
		rep := repeats(t, rd, id, 1)[0]
		s := rep.Summary
		checkValid(t, rep)
		if s.RecordsAcked <= 0 || s.RecordsFailed != 0 {
			t.Errorf("%s: %d acked, %d failed; want acked > 0 and none failed", id, s.RecordsAcked, s.RecordsFailed)
		}
		if len(rep.Client) == 0 {
			t.Errorf("%s: no client rows", id)
		}
		for _, b := range testCluster.Brokers() {
			if n := brokerRows(rep, strconv.Itoa(b.ID)); n == 0 {
				t.Errorf("%s: no series rows for broker %d", id, b.ID)
			}
		}
		if brokerCPUSeen(rep) == 0 {
			t.Errorf("%s: no broker row has cpu_cores from /proc", id)
		}
	}
	both := repeats(t, rd, "consumers=1", 1)[0]
	if c := both.Summary.Consumer; c == nil || both.Workload.Kind != "produce+consume" {
		t.Fatalf("produce+consume repeat: kind %q, consumer %+v", both.Workload.Kind, c)
	}
	// Every record acknowledged in the whole run (warm-up included) is read back, exactly.
	if got, acked := both.Summary.Consumer.Records, both.Summary.RecordsAcked; got < acked {
		t.Errorf("consumed %d records, fewer than the %d acknowledged in the measured window", got, acked)
	}
	if r := both.Summary.Records; r == nil || r.Consumed == nil || *r.Consumed != r.Acked || r.Unsent != 0 || r.Acked < both.Summary.RecordsAcked {
		t.Errorf("record accounting %+v, want consumed == acked (>= the window's %d) and none unsent", r, both.Summary.RecordsAcked)
	}
	if both.Summary.EndToEnd == nil || both.Summary.EndToEnd.Count == 0 {
		t.Errorf("no end-to-end latency: %+v", both.Summary.EndToEnd)
	}
	// The client CPU of the produce+consume repeat is split by role, each per million of
	// its own records; a produce-only repeat's is all the producers'.
	if s := both.Summary; s.ClientCPUSplit != results.SplitProfile || s.ProducerCPUPerMillion <= 0 || s.ConsumerCPUPerMillion <= 0 {
		t.Errorf("produce+consume CPU split %q: producer %v s/M, consumer %v s/M; want both measured by profile",
			s.ClientCPUSplit, s.ProducerCPUPerMillion, s.ConsumerCPUPerMillion)
	}
	if s := repeats(t, rd, "consumers=0", 1)[0].Summary; s.ClientCPUSplit != results.SplitProducerOnly || s.ProducerCPUPerMillion != s.ClientCPUPerMillion {
		t.Errorf("produce-only CPU split %q: producer %v s/M, client %v s/M", s.ClientCPUSplit, s.ProducerCPUPerMillion, s.ClientCPUPerMillion)
	}
	// The test cluster's brokers run on this machine without a CPU quota of their own (or
	// share one): each broker's cpu_pct is relative to its share, stated in run.json.
	if env := rd.Run.Environment; env.BrokerCPUs <= 0 || !strings.Contains(env.BrokerCPUBasis, "shared by 2 brokers") {
		t.Errorf("broker CPU allotment %v cores, basis %q; want a share of 2 brokers", env.BrokerCPUs, env.BrokerCPUBasis)
	}
	// A consume-only repeat reads exactly the records the topic was filled with.
	only := repeats(t, rd, "consumers=1,producers=0", 1)[0]
	if c := only.Summary.Consumer; c == nil || c.Records != 300 || only.Summary.RecordsAcked != 300 {
		t.Errorf("consume-only repeat: summary %+v consumer %+v, want 300 records read", only.Summary, c)
	}
	if left := runTopics(t, out.Dir); len(left) > 0 {
		t.Errorf("topics left after the run: %v", left)
	}
	paths, err := report.Generate(out.Dir, "", []string{"md", "json"}, report.Options{Generated: time.Now()})
	if err != nil || len(paths) == 0 {
		t.Fatalf("report: %v (%v)", err, paths)
	}
}

func brokerRows(rep results.Repeat, broker string) int {
	n := 0
	for _, r := range rep.Brokers {
		if r.Broker == broker {
			n++
		}
	}
	return n
}

func brokerCPUSeen(rep results.Repeat) int {
	n := 0
	for _, r := range rep.Brokers {
		if _, ok := r.Fields["cpu_cores"]; ok && r.Broker != results.HostSeries {
			n++
		}
	}
	return n
}

// TestRunLeavesOtherTopicsAlone checks kbench's promise on a shared cluster: a topic it did
// not create keeps its records, and none of its own topics outlive the run.
func TestRunLeavesOtherTopicsAlone(t *testing.T) {
	clustertest.Need(t, testCluster)
	ctx := context.Background()
	adm := admin(t)
	// The bystander even carries a kbench-like name, as a previous run's topic would.
	const bystander = "kbench-bystander-topic"
	resp, err := adm.CreateTopic(ctx, 1, 1, nil, bystander)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		t.Fatalf("create %s: %v", bystander, err)
	}
	t.Cleanup(func() { adm.DeleteTopics(context.Background(), bystander) })
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...), kgo.DefaultProduceTopic(bystander))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for i := range 10 {
		if err := cl.ProduceSync(pctx, kgo.StringRecord(strconv.Itoa(i))).FirstErr(); err != nil {
			t.Fatalf("produce to %s: %v", bystander, err)
		}
	}
	before := endOffsets(t, adm, bystander)

	text := `
name: t-safety
repeats: 1
warmup: 1s
cooldown: 0s
defaults:
  topic: {partitions: 1, replicas: 1}
  producers: {record_size: 100, duration: 1s, rate: 300}
`
	out, err := Run(ctx, options(t, parseStudy(t, text), text))
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if after := endOffsets(t, adm, bystander); after != before || before != 10 {
		t.Errorf("%s: end offset %d before the run, %d after; want 10 both times", bystander, before, after)
	}
	if left := runTopics(t, out.Dir); len(left) > 0 {
		t.Errorf("topics left after the run: %v", left)
	}
}

func endOffsets(t *testing.T, adm *kadm.Client, topic string) int64 {
	t.Helper()
	offs, err := adm.ListEndOffsets(context.Background(), topic)
	if err != nil {
		t.Fatalf("end offsets of %s: %v", topic, err)
	}
	o, ok := offs.Lookup(topic, 0)
	if !ok || o.Err != nil {
		t.Fatalf("end offset of %s: %v", topic, o.Err)
	}
	return o.Offset
}
