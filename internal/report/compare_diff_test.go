package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// noInvalid is the default fixture without its invalid repeat: every scenario valid in A.
func noInvalid() fixture {
	f := defaultFixture()
	f.invalid = nil
	return f
}

// TestCompareBroken breaks scenarios in B the way a failed build would: all repeats of one
// invalid, another not run at all. Both are regressions whatever the limit.
func TestCompareBroken(t *testing.T) {
	a, b := readFixture(t, noInvalid()), readFixture(t, noInvalid())
	broken, gone := scenarioID(1024, 3), scenarioID(16384, 1)
	for i := range b.Repeats[broken] {
		b.Repeats[broken][i].Validity = results.Validity{Valid: false, Reasons: []string{"lost 12 records"}}
	}
	delete(b.Repeats, gone)
	c, err := Compare(a, b, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// In the study's order, replicas outer, batch.size inner: b16384-r1 comes before b1024-r3.
	want := []Broken{
		{Scenario: gone, Reason: "not run in B"},
		{Scenario: broken, Reason: "no valid repeat in B: repeat 1: lost 12 records; repeat 2: lost 12 records; repeat 3: lost 12 records"},
	}
	if !slices.Equal(c.Broken, want) || !slices.Equal(c.BrokenRegressions(), want) {
		t.Errorf("broken %+v, counted %+v, want %+v", c.Broken, c.BrokenRegressions(), want)
	}
	for _, d := range c.Deltas {
		if d.Scenario == broken || d.Scenario == gone {
			t.Errorf("delta for broken scenario %s %s", d.Scenario, d.Metric)
		}
	}
	// 6 scenarios, 2 broken: 4 compared, none with a different workload.
	if got := len(c.Deltas) / len(compareMetrics); got != 4 || len(c.Workloads) != 0 || len(c.Cluster) != 0 {
		t.Errorf("%d scenarios compared, workload differences %v, cluster %v; want 4, none, none", got, c.Workloads, c.Cluster)
	}
	var out bytes.Buffer
	if err := c.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"valid in A, no valid result in B", broken + ": no valid repeat in B", gone + ": not run in B"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("comparison text lacks %q:\n%s", w, out.String())
		}
	}
}

// TestCompareDifferentWorkload halves one scenario's rate in B and changes its record size
// and acks: it is listed with both differences and not called a regression, unless
// AllowDifferent.
func TestCompareDifferentWorkload(t *testing.T) {
	a, b := readFixture(t, noInvalid()), readFixture(t, noInvalid())
	id := scenarioID(1024, 1)
	for i := range b.Repeats[id] {
		r := &b.Repeats[id][i]
		r.Workload.RecordSize = 512
		r.ProducerConfig["acks"] = "all"
		r.Workload.ProducerProps["acks"] = "all"
		r.Summary.RecordsPerSec /= 2
	}
	for _, allow := range []bool{false, true} {
		c, err := Compare(a, b, CompareOptions{AllowDifferent: allow})
		if err != nil {
			t.Fatal(err)
		}
		want := []ScenarioDifferences{{Scenario: id, Differences: []Difference{
			{What: "producer acks", A: "1", B: "all"}, {What: "record size", A: "1024 B", B: "512 B"}}}}
		if len(c.Workloads) != 1 || c.Workloads[0].Scenario != id || !slices.Equal(c.Workloads[0].Differences, want[0].Differences) {
			t.Errorf("allow %v: workload differences %+v, want %+v", allow, c.Workloads, want)
		}
		var rate *Delta
		for i, d := range c.Deltas {
			if d.Scenario == id && d.Metric == "records_per_sec" {
				rate = &c.Deltas[i]
			}
			if d.Scenario != id && d.Differs {
				t.Errorf("allow %v: %s marked different", allow, d.Scenario)
			}
		}
		if rate == nil || !rate.Differs {
			t.Fatalf("allow %v: the changed scenario's records/s delta %+v, want one marked different", allow, rate)
		}
		regressed := slices.ContainsFunc(c.Regressions(0.2), func(d Delta) bool { return d.Scenario == id })
		if regressed != allow {
			t.Errorf("allow %v: halved rate across a different workload counted as regression: %v", allow, regressed)
		}
		if nj := c.NotJudged(); allow && len(nj) != 0 || !allow && !slices.Equal(nj, []string{id}) {
			t.Errorf("allow %v: not judged %v", allow, nj)
		}
	}
}

// TestCompareDifferentCluster: another Kafka version and broker count concern every scenario.
func TestCompareDifferentCluster(t *testing.T) {
	a, b := readFixture(t, noInvalid()), readFixture(t, noInvalid())
	b.Run.Environment.KafkaVersion = "4.0.0"
	b.Run.Environment.Brokers = 5
	c, err := Compare(a, b, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Difference{{What: "Kafka version", A: "4.1.1", B: "4.0.0"}, {What: "brokers", A: "3", B: "5"}}
	if !slices.Equal(c.Cluster, want) {
		t.Errorf("cluster differences %+v, want %+v", c.Cluster, want)
	}
	if nj := c.NotJudged(); len(nj) != 6 {
		t.Errorf("not judged %v, want all 6 scenarios", nj)
	}
	if n := len(c.Regressions(0)); n != 0 {
		t.Errorf("%d regressions across different clusters", n)
	}
}

func TestDiffMaps(t *testing.T) {
	got := diffMaps(map[string]string{"a": "1", "b": "2", "c": ""}, map[string]string{"a": "1", "b": "3", "d": "4"})
	want := []Difference{{What: "b", A: "2", B: "3"}, {What: "d", A: unset, B: "4"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
