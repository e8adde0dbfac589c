package cli

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/results"
)

// writeRun writes a small run directory: two scenarios of three repeats whose records/s are
// rate*(1±2%) from a seeded generator.
func writeRun(t *testing.T, seed uint64, rate float64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed))
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	dir, err := results.Create(t.TempDir(), start, "cli")
	if err != nil {
		t.Fatal(err)
	}
	run := &results.Run{Study: results.Study{Name: "cli"}, Status: results.Status{State: results.Complete}, Started: start}
	for _, acks := range []string{"1", "all"} {
		id := "acks-" + acks
		run.Scenarios = append(run.Scenarios, results.Scenario{ID: id, Params: []results.Param{{Name: "acks", Value: acks}}, Repeats: 3})
		for n := 1; n <= 3; n++ {
			r := rate * (1 + 0.02*(2*rng.Float64()-1))
			rep := &results.Repeat{Scenario: id, Repeat: n,
				Workload: results.Workload{Kind: "produce", RecordSize: 100, NumRecords: 1000, Throughput: -1},
				Topic:    results.Topic{Name: fmt.Sprintf("t-%s-%d", id, n), Partitions: 1, Replicas: 1},
				Summary:  results.Summary{RecordsAcked: 1000, RecordsPerSec: r, MiBPerSec: r * 100 / (1 << 20), Elapsed: 1000 / r},
				Validity: results.Validity{Valid: true}}
			if err := results.WriteRepeat(dir, rep); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := results.WriteRun(dir, run); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestReportCommand(t *testing.T) {
	dir := writeRun(t, 1, 1000)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"report", dir, "--format", "md,csv"}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := filepath.Join(dir, "report.md") + "\n" + filepath.Join(dir, "results.csv") + "\n"
	if stdout.String() != want {
		t.Errorf("printed %q, want %q", stdout.String(), want)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.md")); err != nil {
		t.Error(err)
	}
	if code := run([]string{"report", dir, "--format", "pdf"}, &stdout, &stderr); code != 1 || !strings.Contains(stderr.String(), "valid: md, html, csv, json") {
		t.Errorf("bad format: exit %d, stderr %q", code, stderr.String())
	}
}

func TestCompareCommand(t *testing.T) {
	base := writeRun(t, 1, 1000)
	invalid := func(r *results.Repeat) { r.Validity = results.Validity{Reasons: []string{"lost 3 records"}} }
	smaller := func(r *results.Repeat) { r.Workload.RecordSize = 50 }
	// B's repeats of acks-all spread +-40%: the rank test could see only a drop of about 30%
	// or more (every A repeat, the lowest about 0.98 of A's median, must beat B's highest,
	// 1.4 of B's: a/b > 1.4/0.98, a drop of 1 - 0.98/1.4; the seeded values give 29%).
	noisy := func(r *results.Repeat) { r.Summary.RecordsPerSec *= []float64{0.6, 1.0, 1.4}[r.Repeat-1] }
	for _, tc := range []struct {
		name string
		rate float64
		edit func(*results.Repeat) // applied to every repeat of acks-all in B
		gone bool                  // acks-all removed from B
		args []string
		code int
		want string // in stderr
	}{
		{name: "no limit", rate: 500}, // deltas printed, no verdict asked
		{name: "halved rate", rate: 500, args: []string{"--fail-on-regression", "10"}, code: exitRegression, want: "records/s -"}, // -48% to -52% with ±2% noise,
		{name: "same rate", rate: 1000, args: []string{"--fail-on-regression", "10"}},                                             // noise only
		{name: "faster", rate: 2000, args: []string{"--fail-on-regression", "10"}},                                                // improvements never fail
		{name: "all repeats invalid", rate: 1000, edit: invalid, args: []string{"--fail-on-regression", "10"},
			code: exitRegression, want: "acks-all no valid repeat in B: repeat 1: lost 3 records"},
		{name: "scenario missing", rate: 1000, gone: true, args: []string{"--fail-on-regression", "10"},
			code: exitRegression, want: "acks-all not run in B"},
		{name: "other record size", rate: 1000, edit: smaller, args: []string{"--fail-on-regression", "10"},
			code: exitNotComparable, want: "not judged, B ran a different workload or cluster: acks-all; pass --allow-different"},
		{name: "other record size allowed", rate: 1000, edit: smaller, args: []string{"--fail-on-regression", "10", "--allow-different"}},
		{name: "noisy B", rate: 1000, edit: noisy, args: []string{"--fail-on-regression", "10"},
			code: exitBlind, want: "could not have shown one that small: acks-all records/s (29% or more)"},
		{name: "noisy B allowed", rate: 1000, edit: noisy, args: []string{"--fail-on-regression", "10", "--allow-blind"}},
		{name: "slower on other record size", rate: 500, edit: smaller, args: []string{"--fail-on-regression", "10"},
			code: exitRegression, want: "acks-1 records/s -"}, // acks-1 still judged, acks-all not
	} {
		t.Run(tc.name, func(t *testing.T) {
			other := writeRun(t, 2, tc.rate)
			if tc.edit != nil {
				editRepeats(t, other, "acks-all", tc.edit)
			}
			if tc.gone {
				if err := os.RemoveAll(filepath.Join(other, "scenarios", "acks-all")); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			code := run(append([]string{"compare", base, other}, tc.args...), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tc.want) {
				t.Errorf("stderr %q lacks %q", stderr.String(), tc.want)
			}
			if !strings.Contains(stdout.String(), "acks-all") {
				t.Errorf("output lacks the scenarios:\n%s", stdout.String())
			}
			if tc.name == "slower on other record size" && strings.Contains(stderr.String(), "acks-all") {
				t.Errorf("a scenario with another record size was judged: %q", stderr.String())
			}
		})
	}
}

// editRepeats rewrites the repeat files of scenario id in dir, as a person editing them would.
func editRepeats(t *testing.T, dir, id string, edit func(*results.Repeat)) {
	t.Helper()
	rd, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rd.Repeats[id] {
		r := &rd.Repeats[id][i]
		edit(r)
		if err := results.WriteRepeat(dir, r); err != nil {
			t.Fatal(err)
		}
	}
}
