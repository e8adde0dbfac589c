package runner

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/report"
	"github.com/kbench/kbench/internal/results"
)

// TestRealCatchUp builds a 512 MiB backlog on the embedded cluster at 640 records/s of
// 16 KiB (10 MiB/s, about 51 s), then starts one consumer while the producers keep that
// rate. The drain it reports must lie within 10% of backlog / (consume rate - produce rate),
// with both rates worked out here from the repeat's per-second client rows, not from the
// catch-up figures; and the producers' p99 before and during the drain, and the brokers'
// reads during it, must be there. Everything is read back from the run directory, as a
// report is. Half the 1 GiB of OpenMessaging Benchmark's usual backlog: a catch-up takes at
// least 4 x backlog / consume rate (the build and the drain, at the best producer rate, half
// the consumers'); on this shared 2-core host 512 MiB took 110 s, 1 GiB (kbench run, three
// brokers) 6.5 minutes. One replica and a generous producers.duration (an upper bound: the
// producers stop 5 s after the consumers caught up) because under make test, with other
// packages' clusters on the same two cores, the producers fell to 300-500 records/s and the
// drain had not ended 137 s in.
func TestRealCatchUp(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := `
name: t-catchup
repeats: 1
warmup: 3s
cooldown: 0s
cluster: {brokers: 2}
defaults:
  topic: {partitions: 3, replicas: 1}
  producers: {record_size: 16KiB, rate: 640, duration: 400s}
  consumers: {count: 1, backlog: 512MiB}
`
	opts := options(t, parseStudy(t, text), text)
	out, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	rd := readRun(t, out.Dir)
	rep := repeats(t, rd, "default", 1)[0]
	checkValid(t, rep)
	cu := rep.CatchUp
	if cu == nil || !cu.CaughtUp {
		t.Fatalf("catch-up %+v, want one that caught up", cu)
	}
	t.Logf("backlog %d records (%d bytes) at %.1f s; drain %.2f s to %.1f s; consumers %.0f records/s (%.1f MiB/s), producers %.0f records/s; producer p99 before %.2f ms, during %.2f ms",
		cu.BacklogRecords, cu.BacklogBytes, cu.Start, cu.DrainSeconds, cu.End, cu.ConsumeRecordsPerSec, cu.ConsumeMiBPerSec, cu.ProduceRecordsPerSec, cu.Before.P99Ms, cu.During.P99Ms)
	if cu.BacklogBytes < 512<<20 {
		t.Errorf("the consumers started at %d bytes of backlog, before the 512 MiB", cu.BacklogBytes)
	}

	consumed, produced := rowsOver(rep.Client, cu.Start, cu.End)
	span := cu.End - cu.Start
	c, p := consumed/span, produced/span
	if c <= p {
		t.Fatalf("from the client rows the consumers read %.0f records/s, no faster than the producers' %.0f", c, p)
	}
	want := float64(cu.BacklogRecords) / (c - p)
	t.Logf("from the client rows: consumers %.0f records/s, producers %.0f records/s: backlog / (c - p) = %.2f s", c, p, want)
	if math.Abs(cu.DrainSeconds-want) > 0.10*want {
		t.Errorf("drain %.2f s, want within 10%% of %.2f s", cu.DrainSeconds, want)
	}

	if cu.Before == nil || cu.During == nil || cu.Before.Count == 0 || cu.During.Count == 0 || cu.Before.P99Ms <= 0 || cu.During.P99Ms <= 0 {
		t.Errorf("producer latency before %+v, during %+v: want both measured", cu.Before, cu.During)
	}
	if len(rep.Latency[results.LatencyCatchUpBefore]) == 0 || len(rep.Latency[results.LatencyCatchUpDuring]) == 0 {
		t.Errorf("the repeat lacks the before and during histograms")
	}
	if len(cu.Brokers) != len(testCluster.Brokers()) {
		t.Errorf("reads of %d brokers, want %d", len(cu.Brokers), len(testCluster.Brokers()))
	}
	for _, b := range cu.Brokers {
		if b.ServedBytes == nil || b.DiskBytes == nil {
			t.Errorf("broker %s: served %v, read %v: want both counters", b.Broker, b.ServedBytes, b.DiskBytes)
			continue
		}
		t.Logf("broker %s served %.0f MiB, read %.1f MiB from storage during the drain", b.Broker, *b.ServedBytes/(1<<20), *b.DiskBytes/(1<<20))
	}

	m, err := report.Build(rd, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := report.WriteMarkdown(&md, m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "Catch-up reads") {
		t.Errorf("the report has no catch-up section")
	}
}

// rowsOver adds up the records consumed and acknowledged in client rows over [from, to]
// (seconds since the window began). Row i holds the records acknowledged in its tick, which
// ends at its T, and those consumed in the window's second i. An acknowledged row partly in
// the span counts in proportion. The consumers read nothing before from (they start then),
// so every consumed row before to counts whole; in the row that holds to, the consumers
// drained the backlog until to and then read what the producers wrote, about their rate a
// second, so that much of the rest of the second is taken off (spreading the row evenly
// over its second instead counted too few, and made a drain of 1.40 s look like 1.67 s).
func rowsOver(rows []results.ClientRow, from, to float64) (consumed, produced float64) {
	prevT := 0.0
	for _, r := range rows {
		if r.T > prevT {
			overlap := math.Min(r.T, to) - math.Max(prevT, from)
			produced += float64(r.Records) * clamp01(overlap/(r.T-prevT))
		}
		prevT = r.T
	}
	rate := produced / (to - from)
	for i, r := range rows {
		switch second := float64(i); {
		case second+1 <= to:
			consumed += float64(r.Consumed)
		case second < to:
			consumed += math.Max(0, float64(r.Consumed)-rate*(second+1-to))
		}
	}
	return consumed, produced
}

// TestRowsOverByHand: producers at 640 records/s; consumers from 1.0 s at 23,000 records/s
// until they caught up at 2.4 s, then at the producers' rate. Row 2 holds 0.4 s of the drain
// (9,200) and 0.6 s of following (384): 9,584. Over [1.0, 2.4]: produced 640 + 0.4 x 640 =
// 896, consumed 23,000 + 9,200 = 32,200, so backlog / (c - p) = (32,200 - 896) / (23,000 -
// 640) = 1.4 s, the drain.
func TestRowsOverByHand(t *testing.T) {
	rows := []results.ClientRow{{T: 1, Records: 640}, {T: 2, Records: 640, Consumed: 23000}, {T: 3, Records: 640, Consumed: 9584}, {T: 4, Records: 640, Consumed: 640}}
	consumed, produced := rowsOver(rows, 1.0, 2.4)
	if math.Abs(consumed-32200) > 0.5 || math.Abs(produced-896) > 0.5 {
		t.Errorf("consumed %.1f, produced %.1f; want 32,200 and 896", consumed, produced)
	}
	if d := (consumed - produced) / (consumed/1.4 - produced/1.4); math.Abs(d-1.4) > 1e-9 {
		t.Errorf("backlog / (c - p) = %v s, want 1.4", d)
	}
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }
