package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

func readFixture(t *testing.T, f fixture) *results.RunDir {
	t.Helper()
	rd, err := results.Read(f.write(t))
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

func TestCompare(t *testing.T) {
	base := defaultFixture()
	base.invalid = nil
	same := base
	same.seed = 7 // the same model with other noise: within the spread
	a, b := readFixture(t, base), readFixture(t, same)

	c, err := Compare(a, b, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := len(base.batches) * len(base.replicas) * len(compareMetrics); len(c.Deltas) != want {
		t.Fatalf("%d deltas, want %d", len(c.Deltas), want)
	}
	for _, d := range c.Deltas {
		if d.Mark == Unknown {
			t.Errorf("%s %s marked unknown with %d and %d repeats", d.Scenario, d.Metric, d.A.N, d.B.N)
		}
	}

	// A run whose batch.size=1024 scenarios lost half their rate must regress there, and a
	// 1% limit must not flag scenarios whose rate is unchanged except by noise.
	slow := readFixture(t, base)
	for _, id := range []string{scenarioID(1024, 1), scenarioID(1024, 3)} {
		for i := range slow.Repeats[id] {
			slow.Repeats[id][i].Summary.RecordsPerSec /= 2
		}
	}
	c, err = Compare(a, slow, CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	regressed := map[string]bool{}
	for _, d := range c.Regressions(0.20) {
		if d.Metric == "records_per_sec" {
			regressed[d.Scenario] = true
		}
		if d.Mark != Significant {
			t.Errorf("regression %s %s marked %q", d.Scenario, d.Metric, d.Mark)
		}
	}
	if len(regressed) != 2 || !regressed[scenarioID(1024, 1)] || !regressed[scenarioID(1024, 3)] {
		t.Errorf("records/s regressions in %v, want the two batch.size=1024 scenarios", regressed)
	}
	if n := len(c.Regressions(1.0)); n != 0 {
		t.Errorf("%d regressions beyond 100%%", n)
	}

	var out bytes.Buffer
	if err := c.WriteText(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "-50%") || !strings.Contains(out.String(), scenarioID(1024, 1)) {
		t.Errorf("comparison text lacks the regression:\n%s", out.String())
	}
}

func TestSignificance(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b Stat
		want string
	}{
		{"apart", Stat{N: 3, Min: 1, Max: 2}, Stat{N: 3, Min: 3, Max: 4}, Significant},
		{"overlapping", Stat{N: 3, Min: 1, Max: 3}, Stat{N: 3, Min: 2, Max: 4}, WithinNoise},
		{"one repeat", Stat{N: 1, Min: 1, Max: 1}, Stat{N: 3, Min: 3, Max: 4}, Unknown},
	} {
		if got := significance(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: significance = %q, want %q", tc.name, got, tc.want)
		}
	}
}
