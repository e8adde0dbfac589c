package report

import (
	"bytes"
	"math"
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

func TestJudgeDelta(t *testing.T) {
	for _, tc := range []struct {
		name         string
		a, b         []float64
		higherBetter bool
		mark         string
		pWorse       float64
		detectable   float64
	}{
		// B's three repeats all below A's: B worse, p = 1/20. Floor: each side's deviations
		// from its median are 0 and +-10% (ln 0.9, 0, ln 1.1); A above B needs A's lowest
		// (0.9 a) above B's highest (1.1 b): a/b > 1.1/0.9, a drop of 1 - 0.9/1.1 = 18.2%.
		{"apart, throughput", []float64{90, 100, 110}, []float64{45, 50, 55}, true, Significant, 0.05, 1 - 0.9/1.1},
		// Latency: B above A is worse: a rise of 1.1/0.9 - 1 = 22.2%.
		{"apart, latency", []float64{9, 10, 11}, []float64{18, 20, 22}, false, Significant, 0.05, 1.1/0.9 - 1},
		// Overlapping: A beats B in 6 pairs of 9 (p(B worse) = P(U >= 6) = 7/20). Floor: B's
		// deviations ln(85/95), 0, ln(105/95); A above B needs a/b > (105/95)/0.9: a drop of
		// 1 - 0.9 x 95/105.
		{"overlapping", []float64{90, 100, 110}, []float64{85, 95, 105}, true, WithinNoise, 0.35, 1 - 0.9*95/105},
		{"two repeats", []float64{90, 100}, []float64{45, 50}, true, Unknown, 1, 0},
	} {
		mark, p, d := judgeDelta(tc.a, tc.b, tc.higherBetter)
		if mark != tc.mark || math.Abs(p-tc.pWorse) > 1e-9 || math.Abs(d-tc.detectable) > 1e-9 {
			t.Errorf("%s: %q p %v floor %v, want %q %v %v", tc.name, mark, p, d, tc.mark, tc.pWorse, tc.detectable)
		}
	}
}
