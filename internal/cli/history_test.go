package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/results"
)

// writeNightly writes one synthetic run per rate list, a day apart, with the results
// package's own writers: scenario "s1", one repeat per rate.
func writeNightly(t *testing.T, parent string, runs ...[]float64) {
	t.Helper()
	for i, rates := range runs {
		started := time.Date(2026, 3, 1+i, 2, 0, 0, 0, time.UTC)
		dir, err := results.Create(parent, started, "nightly")
		if err != nil {
			t.Fatal(err)
		}
		run := &results.Run{KbenchVersion: "dev", Study: results.Study{Name: "nightly"}, Status: results.Status{State: results.Complete},
			Started: started, Scenarios: []results.Scenario{{ID: "s1", Repeats: len(rates)}},
			Environment: results.Environment{KafkaVersion: "4.1.1", Cluster: results.External, Brokers: 3}}
		if err := results.WriteRun(dir, run); err != nil {
			t.Fatal(err)
		}
		for j, rate := range rates {
			rep := &results.Repeat{Scenario: "s1", Repeat: j + 1, Workload: results.Workload{Kind: "produce", RecordSize: 100, Throughput: -1},
				Summary:  results.Summary{RecordsPerSec: rate, Latency: results.Latency{Count: 1, P99Ms: 5}},
				Validity: results.Validity{Valid: true}}
			if err := results.WriteRepeat(dir, rep); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestHistoryCommand(t *testing.T) {
	dir := t.TempDir()
	steady := filepath.Join(dir, "steady")
	dropped := filepath.Join(dir, "dropped")
	base := [][]float64{{1000, 1010, 990}, {1005, 995, 1000}, {990, 1000, 1010}, {1000, 1004, 996}, {1010, 1000, 995}, {998, 1002, 1000}}
	writeNightly(t, steady, base...)
	writeNightly(t, dropped, append(base, []float64{800, 805, 795}, []float64{798, 802, 800})...)

	out, errOut, code := runKbench("history", steady)
	if code != 0 || !strings.Contains(out, filepath.Join(steady, "2026-03-06-nightly")) || !strings.Contains(out, "external, 3 brokers, Kafka 4.1.1") {
		t.Errorf("index: exit %d, stderr %q:\n%s", code, errOut, out)
	}
	out, _, code = runKbench("history", steady, "--metric", "records_per_sec,p99")
	if code != 0 || !strings.Contains(out, "records/s, scenario s1") || !strings.Contains(out, "no step: one level") {
		t.Errorf("series: exit %d:\n%s", code, out)
	}
	if _, errOut, code := runKbench("history", steady, "--fail-on-step", "10%"); code != 0 {
		t.Errorf("steady series under the gate: exit %d, %s", code, errOut)
	}
	html := filepath.Join(dir, "trend.html")
	out, errOut, code = runKbench("history", dropped, "--fail-on-step", "10", "--html", html)
	want := "s1 records/s -20.0% from " + filepath.Join(dropped, "2026-03-07-nightly")
	if code != exitStep || !strings.Contains(errOut, want) {
		t.Errorf("a 20%% drop under a 10%% gate: exit %d, stderr %q, want %d naming %q", code, errOut, exitStep, want)
	}
	if !strings.Contains(out, "step at "+filepath.Join(dropped, "2026-03-07-nightly")) {
		t.Errorf("series text does not name the step:\n%s", out)
	}
	if page, err := os.ReadFile(html); err != nil || !strings.Contains(string(page), "<svg") {
		t.Errorf("--html: %v", err)
	}
	if _, errOut, code := runKbench("history", dropped, "--fail-on-step", "25%"); code != 0 {
		t.Errorf("a 20%% drop under a 25%% gate: exit %d, %s", code, errOut)
	}
	out, _, _ = runKbench("history", dropped, "--csv")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); len(lines) != 9 || !strings.HasPrefix(lines[0], "scenario,metric,") {
		t.Errorf("--csv: %d lines, want a header and 8:\n%s", len(lines), out)
	}

	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no runs", []string{"history", t.TempDir()}, "no run directory"},
		{"no such directory", []string{"history", filepath.Join(dir, "nowhere")}, "nowhere"},
		{"unknown metric", []string{"history", steady, "--metric", "speed"}, `--metric: unknown metric "speed"; choose from records_per_sec`},
		{"bad threshold", []string{"history", steady, "--fail-on-step", "ten"}, `--fail-on-step: "ten" is not a percentage`},
		{"threshold out of range", []string{"history", steady, "--fail-on-step", "150%"}, `"150%" is not a percentage between 0 and 100`},
		{"unknown scenario", []string{"history", steady, "--metric", "p99", "--scenario", "s9"}, "no valid repeat of scenario s9 in 6 runs; their scenarios: s1"},
		{"two formats", []string{"history", steady, "--csv", "--json"}, "choose one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, errOut, code := runKbench(tc.args...)
			lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
			if code != exitFailed || len(lines) != 1 || !strings.Contains(lines[0], tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 1 and one line with %q", code, errOut, tc.want)
			}
		})
	}
}

// TestHistoryGateOnRealRuns builds a real series on the embedded cluster: five short runs
// of one study, then one more under a producer quota on the brokers (a cluster setting the
// workload's fingerprint does not see, as a changed server config would be), and checks
// that the gate names that run, and that the five alone pass. A first run, kept apart,
// warms the brokers' JIT: the shared cluster is attached to as an external one, which the
// runner does not warm.
func TestHistoryGateOnRealRuns(t *testing.T) {
	clustertest.Need(t, testCluster)
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	study := filepath.Join(dir, "nightly.yaml")
	text := `name: nightly
repeats: 2
warmup: 1s
cooldown: 0s
defaults:
  topic: {partitions: 3, replicas: 3}
  producers:
    count: 1
    record_size: 1KiB
    duration: 2s
    properties: {linger.ms: 5, buffer.memory: 1MiB}
`
	if err := os.WriteFile(study, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	kbenchRun := func(into string) {
		t.Helper()
		if _, errOut, code := runKbench("run", study, "--bootstrap-server", testCluster.Bootstrap(), "--yes",
			"--runs-dir", into, "--report", "json"); code != 0 {
			t.Fatalf("kbench run: exit %d: %s", code, errOut)
		}
	}
	kbenchRun(filepath.Join(dir, "warm-up"))
	for range 5 {
		kbenchRun(runs)
	}
	entries, err := os.ReadDir(runs)
	if err != nil || len(entries) != 5 {
		t.Fatalf("%d run directories (%v), want 5", len(entries), err)
	}
	var base []string
	for _, e := range entries {
		base = append(base, filepath.Join(runs, e.Name()))
	}
	out, errOut, code := runKbench(append([]string{"history", "--metric", "records_per_sec", "--fail-on-step", "10%"}, base...)...)
	t.Logf("five alike runs:\n%s%s", out, errOut)
	if code != 0 {
		t.Errorf("five alike runs under the gate: exit %d", code)
	}

	// 128 KiB/s a broker for every client: under 400 KiB/s in all, far below the MiB/s
	// the runs above reached.
	adm := quotaAdmin(t)
	setQuota(t, adm, false)
	t.Cleanup(func() { setQuota(t, adm, true) })
	kbenchRun(runs)
	setQuota(t, adm, true)

	entries, err = os.ReadDir(runs)
	if err != nil || len(entries) != 6 {
		t.Fatalf("%d run directories (%v), want 6", len(entries), err)
	}
	// Names sort as they were created: <date>-nightly, then -2 ... -6.
	throttled := filepath.Join(runs, entries[len(entries)-1].Name())
	if !strings.HasSuffix(throttled, "-6") {
		t.Fatalf("the last run is %s, want the sixth", throttled)
	}
	out, errOut, code = runKbench("history", runs, "--metric", "records_per_sec", "--fail-on-step", "10%")
	t.Logf("with the throttled run:\n%s%s", out, errOut)
	if code != exitStep || !strings.Contains(errOut, "from "+throttled) {
		t.Errorf("exit %d, stderr %q; want %d naming %s", code, errOut, exitStep, throttled)
	}
}

func quotaAdmin(t *testing.T) *kadm.Client {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return kadm.NewClient(cl)
}

// setQuota sets (or removes) a producer byte-rate quota for every client id.
func setQuota(t *testing.T, adm *kadm.Client, remove bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	entry := kadm.AlterClientQuotaEntry{Entity: kadm.ClientQuotaEntity{{Type: "client-id"}},
		Ops: []kadm.AlterClientQuotaOp{{Key: "producer_byte_rate", Value: 128 << 10, Remove: remove}}}
	res, err := adm.AlterClientQuotas(ctx, []kadm.AlterClientQuotaEntry{entry})
	if err == nil {
		for _, r := range res {
			if r.Err != nil {
				err = fmt.Errorf("%v: %s", r.Err, r.ErrMessage)
			}
		}
	}
	if err != nil {
		t.Fatalf("unable to alter the producer quota: %v", err)
	}
}
