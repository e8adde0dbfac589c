package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

func f64(v float64) *float64 { return &v }

// consumerRoleRun has a catch-up read (broker 1 with both counters, broker 2 without
// read_bytes) and a repeat of share consumers.
func consumerRoleRun() *results.RunDir {
	return &results.RunDir{
		Run: results.Run{Scenarios: []results.Scenario{{ID: "backlog=1GiB"}, {ID: "share_group=true"}}},
		Repeats: map[string][]results.Repeat{
			"backlog=1GiB": {{Repeat: 1, CatchUp: &results.CatchUp{BacklogTarget: 1 << 30, BacklogRecords: 1_048_576, BacklogBytes: 1 << 30,
				CaughtUp: true, Start: 40, End: 60, DrainSeconds: 20, ConsumedRecords: 1_398_101, ProducedRecords: 349_525,
				ConsumeRecordsPerSec: 69_905, ProduceRecordsPerSec: 17_476, ConsumeMiBPerSec: 68.3,
				Before: &results.Latency{P99Ms: 3.2}, During: &results.Latency{P99Ms: 9.6},
				Brokers: []results.DrainRead{{Broker: "1", ServedBytes: f64(800 << 20), DiskBytes: f64(200 << 20)}, {Broker: "2", ServedBytes: f64(600 << 20)}}}}},
			"share_group=true": {{Repeat: 1, Share: &results.Share{Consumers: 6, Acknowledgement: "explicit", Release: 0.01,
				Delivered: 20_200, Distinct: 20_000, Redelivered: 202, Accepted: 19_998, Released: 202, RecordsPerSec: 5000}}},
		},
	}
}

func TestConsumerRoleRows(t *testing.T) {
	rd := consumerRoleRun()
	cu := catchUpRows(rd)
	if len(cu) != 1 {
		t.Fatalf("catch-up rows %+v", cu)
	}
	// 1,048,576 / (69,905 - 17,476) = 20.0 s; served 1,400 MiB, read 200 MiB, the page cache
	// share over broker 1 only (the one with both counters): 1 - 200/800 = 75%.
	r := cu[0]
	if d := r.ExpectedDrainSeconds; d < 19.99 || d > 20.01 {
		t.Errorf("expected drain %.3f s, want 20.00", d)
	}
	if *r.ServedBytes != 1400<<20 || *r.DiskReadBytes != 200<<20 || *r.PageCacheShare != 0.75 {
		t.Errorf("served %v, read %v, page cache %v", *r.ServedBytes, *r.DiskReadBytes, *r.PageCacheShare)
	}
	sh := shareRows(rd)
	if len(sh) != 1 || sh[0].RedeliveredShare != 0.01 {
		t.Fatalf("share rows %+v", sh)
	}
	rep := rd.Repeats["share_group=true"][0]
	rep.Topic.Name, rep.Share.Group = "t1", "t1-s1"
	kb, tool := shareCommands(rep, 20_000)
	if want := "kbench consume --bootstrap-server $BOOTSTRAP --topic t1 --messages 20000 --share-group t1-s1 --consumers 6 --share-acknowledgement explicit --release-share 0.01"; kb != want {
		t.Errorf("kbench command\n got %s\nwant %s", kb, want)
	}
	if want := "kafka-share-consumer-perf-test.sh --bootstrap-server $BOOTSTRAP --topic t1 --group t1-s1 --num-records 20000 --threads 6"; !strings.HasSuffix(tool, "\n"+want) {
		t.Errorf("tool command\n got %s\nwant a note, then %s", tool, want)
	}
	m := &Model{Title: "t", CatchUp: cu, Share: sh}
	var md, html bytes.Buffer
	if err := WriteMarkdown(&md, m); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, m); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": md.String(), "html": html.String()} {
		for _, s := range []string{"4.3 Catch-up reads", "4.4 Share groups", "1,024 MiB (1,048,576 records)", "75%", "202 (1%)", "1% / 0%"} {
			if !strings.Contains(out, s) {
				t.Errorf("%s lacks %q", name, s)
			}
		}
	}
}
