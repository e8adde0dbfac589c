package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// testdata/caprun is a run directory written by hand with capacity searches: scenario acks=1
// in two repeats, each with a p99 <= 50 ms and a p999 <= 200 ms bracket, and acks=all in one
// repeat with a p99 bracket that did not converge. Records are 1024 bytes, so MiB/s =
// records/s x 1024 / 1,048,576 = records/s / 1024.
func TestCapacityHand(t *testing.T) {
	rd, err := results.Read("testdata/caprun")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Build(rd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		// 38555/1024 = 37.65 -> "37.7", 40262/1024 = 39.32 -> "39.3"; 7 trials in the file.
		{"acks=1", "1", "p99 <= 50 ms", "38,555-40,262", "37.7-39.3", "3.20 / 41.5 / 88.0", "7", "yes"},
		// 42045/1024 = 41.06 -> "41.1".
		{"acks=1", "1", "p999 <= 200 ms", "40,262-42,045", "39.3-41.1", "4.00 / 60.0 / 150", "7", "yes"},
		// 39000/1024 = 38.09 -> "38.1", 40900/1024 = 39.94 -> "39.9"; 5 trials.
		{"acks=1", "2", "p99 <= 50 ms", "39,000-40,900", "38.1-39.9", "3.00 / 45.0 / 95.0", "5", "yes"},
		// 42900/1024 = 41.89 -> "41.9".
		{"acks=1", "2", "p999 <= 200 ms", "40,900-42,900", "39.9-41.9", "4.50 / 70.0 / 180", "5", "yes"},
		// 20000/1024 = 19.53 -> "19.5", 20800/1024 = 20.31 -> "20.3"; 4 trials; not converged.
		{"acks=all", "1", "p99 <= 50 ms", "20,000-20,800", "19.5-20.3", "2.00 / 30.0 / 70.0", "4", "no"},
	}
	got := capacityTable(m).Rows
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("capacity table:\n got %q\nwant %q", got, want)
	}
	sentences := []string{
		"acks=1 (repeat 1): max sustainable rate 38,555-40,262 records/s (37.7-39.3 MiB/s) at p99 <= 50 ms",
		"acks=1 (repeat 1): max sustainable rate 40,262-42,045 records/s (39.3-41.1 MiB/s) at p999 <= 200 ms",
		"acks=1 (repeat 2): max sustainable rate 39,000-40,900 records/s (38.1-39.9 MiB/s) at p99 <= 50 ms",
		"acks=1 (repeat 2): max sustainable rate 40,900-42,900 records/s (39.9-41.9 MiB/s) at p999 <= 200 ms",
		"acks=all: max sustainable rate 20,000-20,800 records/s (19.5-20.3 MiB/s) at p99 <= 50 ms" +
			" (not converged: stopped after 4 trials with the bracket 4.0% wide)",
	}
	for i, s := range sentences {
		if i >= len(m.Capacity) || m.Capacity[i].Text != s {
			t.Errorf("conclusion %d:\n got %+v\nwant %q", i, m.Capacity, s)
			break
		}
	}
	// acks=1's two searches: p99 lower ends 38,555 and 39,000 (median 38,777.5, 39,000 /
	// 38,555 = 1.0115: 1.2% apart), p99.9 40,262 and 40,900 (median 40,581, 1.6% apart),
	// both within the 5% precision; acks=all searched once and is not compared.
	agreement := []string{
		"acks=1: 2 searches at p99 <= 50 ms: lower ends 38,555 and 39,000 records/s (median 38,778), 1.2% apart: within the 5% precision",
		"acks=1: 2 searches at p999 <= 200 ms: lower ends 40,262 and 40,900 records/s (median 40,581), 1.6% apart: within the 5% precision",
	}
	var gotAgreement []string
	for _, a := range m.CapacityAgreement {
		gotAgreement = append(gotAgreement, a.Text)
	}
	if !slices.Equal(gotAgreement, agreement) {
		t.Errorf("agreement:\n got %q\nwant %q", gotAgreement, agreement)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, m); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"### 4.3 Capacity", "| `acks=1` | 1 | p99 <= 50 ms | 38,555-40,262 |", "- Capacity: acks=all: max sustainable rate 20,000-20,800", "- Capacity: acks=1: 2 searches at p99 &lt;= 50 ms",
		"(charts/capacity-acks-1.svg)", "(charts/capacity-acks-all.svg)"} {
		if !strings.Contains(md.String(), s) {
			t.Errorf("report.md lacks %q", s)
		}
	}
	var html bytes.Buffer
	if err := WriteHTML(&html, m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "<h3>4.3 Capacity</h3>") || !strings.Contains(html.String(), "<li>Capacity: acks=1: 2 searches at p99 &lt;= 50 ms") {
		t.Error("report.html lacks the capacity table or the repeats' agreement")
	}
	// The claim metric is the lower end of the first (lowest-percentile) bracket per repeat.
	for _, tc := range []struct {
		id   string
		n    int
		want float64
	}{{"acks=1", 1, 38555}, {"acks=1", 2, 39000}, {"acks=all", 1, 20000}} {
		rep := rd.Repeats[tc.id][tc.n-1]
		if v, ok := metric(rep, "capacity"); !ok || v != tc.want {
			t.Errorf("capacity of %s repeat %d = %v %v, want %v", tc.id, tc.n, v, ok, tc.want)
		}
	}
	if len(m.Verdicts) != 1 || !strings.Contains(m.Verdicts[0].Sentence, "records/s") {
		t.Errorf("verdicts = %+v", m.Verdicts)
	}
}

// TestCapacityChartSetsDisturbedApart: a trial set aside as disturbed gets its own grey
// series and legend entry; a search with none has neither.
func TestCapacityChartSetsDisturbedApart(t *testing.T) {
	trials := []results.CapacityTrial{
		{Offered: 40000, P50Ms: 1.5, P99Ms: 20, P999Ms: 60},
		{Offered: 42000, P50Ms: 1.8, P99Ms: 35, P999Ms: 90},
		{Offered: 44000, P50Ms: 2.5, P99Ms: 80, P999Ms: 200},
	}
	brackets := []results.CapacityBracket{{SLO: results.CapacitySLO{Percentile: 99, LimitMs: 50}, Lower: 42000, Upper: 44000}}
	for _, tt := range []struct {
		name      string
		disturbed bool
	}{{"none set aside", false}, {"one set aside", true}} {
		ts := slices.Clone(trials)
		if tt.disturbed {
			ts = append(ts, results.CapacityTrial{Offered: 41000, P50Ms: 40, P99Ms: 900, P999Ms: 1500, Disturbed: true})
		}
		c, err := capacityChart("s", ts, brackets)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(c.SVG), "set aside"); got != tt.disturbed {
			t.Errorf("%s: the chart's legend names trials set aside: %v, want %v", tt.name, got, tt.disturbed)
		}
	}
}

// TestCapacitySentenceStatesTheOverlap: where the trials disagree, the conclusion says from
// where to where and how far apart (85,813 / 72,160 = 1.189: 19%); where they agree, nothing.
func TestCapacitySentenceStatesTheOverlap(t *testing.T) {
	row := CapacityRow{ID: "rf3", SLO: "p99 <= 50 ms", Lower: 69101, Upper: 72160, LowerMiB: 67.48, UpperMiB: 70.47,
		Goal: "20f40d1l50e", Converged: true, Confirmed: true}
	const agree = "rf3: max sustainable rate 69,101-72,160 records/s (67.5-70.5 MiB/s) at p99 <= 50 ms, goal 20f40d1l50e (converged, confirmed)"
	if got := capacitySentence(row, false); got != agree {
		t.Errorf("trials agree:\n got %q\nwant %q", got, agree)
	}
	row.Overlap = [2]float64{72160, 85813}
	want := agree + "; trials both failed and passed from 72,160 to 85,813 records/s (19% apart): their noise is wider than the bracket"
	if got := capacitySentence(row, false); got != want {
		t.Errorf("trials disagree:\n got %q\nwant %q", got, want)
	}
}
