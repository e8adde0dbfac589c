package history

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/report"
	"github.com/kbench/kbench/internal/results"
)

// fixture describes one synthetic run: its records/s per repeat and what it ran on.
type fixture struct {
	name    string
	day     int       // days after 2026-03-01
	rates   []float64 // records/s of each repeat of scenario "s1"
	acks    string    // the producer's acks ("all" when empty)
	kafka   string    // Kafka version ("4.1.1" when empty)
	invalid bool      // every repeat invalid
}

// writeRun writes a run directory under parent with the results package's own writers.
func writeRun(t *testing.T, parent string, f fixture) string {
	t.Helper()
	started := time.Date(2026, 3, 1+f.day, 2, 0, 0, 0, time.UTC)
	if f.acks == "" {
		f.acks = "all"
	}
	if f.kafka == "" {
		f.kafka = "4.1.1"
	}
	dir := filepath.Join(parent, f.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	run := &results.Run{KbenchVersion: "1.2.0", Study: results.Study{Name: "nightly", Source: "nightly.yaml"},
		Status: results.Status{State: results.Complete}, Started: started, Finished: started.Add(time.Hour),
		Scenarios: []results.Scenario{{ID: "s1", Repeats: len(f.rates)}},
		Environment: results.Environment{KbenchVersion: "1.2.0", KafkaVersion: f.kafka, Cluster: results.Embedded,
			Brokers: 3, Security: "PLAINTEXT"}}
	if err := results.WriteRun(dir, run); err != nil {
		t.Fatal(err)
	}
	for i, rate := range f.rates {
		rep := &results.Repeat{Scenario: "s1", Repeat: i + 1, Started: started, Finished: started.Add(time.Minute),
			Workload:       results.Workload{Kind: "produce", RecordSize: 1024, Duration: 30, Throughput: -1, Producers: 1},
			Topic:          results.Topic{Name: "t", Partitions: 6, Replicas: 3},
			ProducerConfig: map[string]string{"acks": f.acks, "linger.ms": "5", "client.id": f.name},
			Summary: results.Summary{RecordsAcked: int64(rate * 30), Elapsed: 30, RecordsPerSec: rate, MiBPerSec: rate / 1024,
				Latency: results.Latency{Count: 10, P99Ms: 1e6 / rate}},
			Validity: results.Validity{Valid: !f.invalid}}
		if err := results.WriteRepeat(dir, rep); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// nightly writes n runs of 3 repeats with 2% noise around level(i), day i, named
// 2026-03-<dd>-nightly.
func nightly(t *testing.T, parent string, n int, seed uint64, level func(i int) float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	for i := range n {
		var rates []float64
		for range 3 {
			rates = append(rates, level(i)*math.Exp(0.02*rng.NormFloat64()))
		}
		writeRun(t, parent, fixture{name: results.DirName(time.Date(2026, 3, 1+i, 0, 0, 0, 0, time.UTC), "nightly"), day: i, rates: rates})
	}
}

func metrics(t *testing.T, list string) []report.TrendMetric {
	t.Helper()
	ms, err := ParseMetrics(list)
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

func TestLoad(t *testing.T) {
	root := t.TempDir()
	runs := filepath.Join(root, "runs")
	writeRun(t, runs, fixture{name: "b", day: 2, rates: []float64{100}})
	writeRun(t, runs, fixture{name: "a", day: 1, rates: []float64{100}})
	// A run copied into an archive folder deeper down is found too.
	writeRun(t, filepath.Join(runs, "archive", "2025"), fixture{name: "old", day: 0, rates: []float64{100}})
	// A directory with a broken run.json is skipped and said so.
	if err := os.MkdirAll(filepath.Join(runs, "broken"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(runs, "broken", results.RunFile), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, skipped, err := Load([]string{runs})
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, r := range got {
		dirs = append(dirs, r.Dir)
	}
	want := []string{filepath.Join(runs, "archive", "2025", "old"), filepath.Join(runs, "a"), filepath.Join(runs, "b")}
	if strings.Join(dirs, " ") != strings.Join(want, " ") {
		t.Errorf("runs %v, want oldest first %v", dirs, want)
	}
	if len(skipped) != 1 || skipped[0].Dir != filepath.Join(runs, "broken") {
		t.Errorf("skipped %v, want the broken run", skipped)
	}
	// A run directory given itself is one run.
	if got, _, err := Load([]string{filepath.Join(runs, "a")}); err != nil || len(got) != 1 {
		t.Errorf("a run directory given: %d runs, %v", len(got), err)
	}
	if got[0].Cluster.ClusterText() != "embedded, 3 brokers, Kafka 4.1.1, PLAINTEXT" {
		t.Errorf("cluster text %q", got[0].Cluster.ClusterText())
	}
	for _, dir := range []string{t.TempDir(), filepath.Join(root, "nowhere")} {
		if _, _, err := Load([]string{dir}); err == nil {
			t.Errorf("Load(%s): no error, want one", dir)
		}
	}
}

// Runs whose workload or cluster differ never share a series, as compare refuses them.
func TestBuildSplitsWhatCompareRefuses(t *testing.T) {
	runs := t.TempDir()
	writeRun(t, runs, fixture{name: "r1", day: 1, rates: []float64{100, 101}})
	writeRun(t, runs, fixture{name: "r2", day: 2, rates: []float64{99, 100}})
	writeRun(t, runs, fixture{name: "r3", day: 3, rates: []float64{70, 71}, acks: "1"})
	writeRun(t, runs, fixture{name: "r4", day: 4, rates: []float64{60, 61}, kafka: "4.0.0"})
	writeRun(t, runs, fixture{name: "r5", day: 5, rates: []float64{100, 100}})
	writeRun(t, runs, fixture{name: "r6", day: 6, rates: []float64{100, 100}, invalid: true})
	idx, _, err := Load([]string{runs})
	if err != nil {
		t.Fatal(err)
	}
	series := Build(idx, metrics(t, "records_per_sec"), nil)
	var got []string
	for _, s := range series {
		var names []string
		for _, p := range s.Points {
			names = append(names, filepath.Base(p.Dir))
		}
		got = append(got, strings.Join(names, ","))
	}
	// r6 has no valid repeat: no point. The client.id differs in every run, by design.
	if want := "r1,r2,r5 r3 r4"; strings.Join(got, " ") != want {
		t.Errorf("series %q, want %q", strings.Join(got, " "), want)
	}
	// A series of one run still draws.
	if err := WriteHTML(io.Discard, idx, series); err != nil {
		t.Errorf("page with series of one run: %v", err)
	}
	if Build(idx, metrics(t, "records_per_sec"), []string{"other"}) != nil {
		t.Error("--scenario other: series found, want none")
	}
}

func TestParseMetrics(t *testing.T) {
	ms, err := ParseMetrics("records_per_sec, p99")
	if err != nil || len(ms) != 2 || !ms[0].HigherBetter || ms[1].HigherBetter {
		t.Errorf("ParseMetrics: %+v, %v", ms, err)
	}
	if _, err := ParseMetrics("records_per_sec,speed"); err == nil || !strings.Contains(err.Error(), `"speed"`) ||
		!strings.Contains(err.Error(), "p99") {
		t.Errorf("unknown metric: %v, want it named with the choices", err)
	}
}

func TestGate(t *testing.T) {
	for _, tc := range []struct {
		name      string
		level     func(i int) float64
		threshold float64
		fails     string // the run named, "" for a pass
	}{
		{name: "steady", level: func(int) float64 { return 1000 }, threshold: 0.10},
		{name: "a 30% drop three runs ago", level: func(i int) float64 { return 1000 - 300*float64(i/7) }, threshold: 0.10,
			fails: "2026-03-08-nightly"},
		{name: "the same drop under a 50% threshold", level: func(i int) float64 { return 1000 - 300*float64(i/7) }, threshold: 0.50},
		{name: "a 30% rise is no failure", level: func(i int) float64 { return 1000 + 300*float64(i/7) }, threshold: 0.10},
		{name: "a drop recovered from", level: func(i int) float64 {
			if i >= 3 && i < 6 {
				return 700
			}
			return 1000
		}, threshold: 0.10},
		// One last run 4% low: inside a 2% noise with three repeats, it is not a group of its own.
		{name: "one noisy last run", level: func(i int) float64 {
			if i == 9 {
				return 960
			}
			return 1000
		}, threshold: 0.03},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs := t.TempDir()
			nightly(t, runs, 10, 1, tc.level)
			idx, _, err := Load([]string{runs})
			if err != nil {
				t.Fatal(err)
			}
			series := Build(idx, metrics(t, "records_per_sec,p99"), nil)
			if len(series) != 2 {
				t.Fatalf("%d series, want 2 (records/s and p99)", len(series))
			}
			failures := Gate(series, tc.threshold)
			if tc.fails == "" {
				if len(failures) > 0 {
					t.Errorf("gate failed: %v", failures)
				}
				return
			}
			// records/s falls and p99 (1e6/rate) rises: both are worse, both fail.
			if len(failures) != 2 {
				t.Fatalf("gate: %v, want records/s and p99 to fail", failures)
			}
			for _, f := range failures {
				if want := filepath.Join(runs, tc.fails); f.Step.Run != want {
					t.Errorf("%s failed at %s, want %s", f.Series.Metric.Name, f.Step.Run, want)
				}
			}
			// By hand: 1000 -> 700 is -30% for records/s, +42.9% for p99 = 1e6/rate.
			for _, f := range failures {
				want := -0.30
				if f.Series.Metric.Name == "p99" {
					want = 1000.0/700 - 1
				}
				if math.Abs(f.Step.Change-want) > 0.03 {
					t.Errorf("%s change %.3f, want about %.3f", f.Series.Metric.Name, f.Step.Change, want)
				}
			}
		})
	}
}

func TestExports(t *testing.T) {
	runs := t.TempDir()
	nightly(t, runs, 8, 2, func(i int) float64 { return 1000 - 300*float64(i/5) })
	idx, _, err := Load([]string{runs})
	if err != nil {
		t.Fatal(err)
	}
	series := Build(idx, metrics(t, "records_per_sec"), nil)

	var b bytes.Buffer
	if err := WriteCSV(&b, series); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+8 || rows[6][4] != filepath.Join(runs, "2026-03-06-nightly") || rows[6][12] == "" || rows[5][12] != "" {
		t.Errorf("CSV: %d rows, want a header and 8 runs with the step on the 6th:\n%v", len(rows), rows)
	}

	b.Reset()
	if err := WriteJSON(&b, idx, series); err != nil {
		t.Fatal(err)
	}
	var back Export
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Runs) != 8 || len(back.Series) != 1 || len(back.Series[0].Steps) != 1 || len(back.Series[0].Points) != 8 {
		t.Errorf("JSON read back: %d runs, %d series", len(back.Runs), len(back.Series))
	}

	b.Reset()
	if err := WriteHTML(&b, idx, series); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{"<svg", "run (start date, oldest first)", ">records/s<", "step -30.", "2026-03-06-nightly"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Self-contained: nothing is fetched (the SVG namespace is a name, not a request).
	for _, bad := range []string{"<script", "<link", "src=", "url(", "@import"} {
		if strings.Contains(page, bad) {
			t.Errorf("page has %q: it must not fetch anything", bad)
		}
	}
}
