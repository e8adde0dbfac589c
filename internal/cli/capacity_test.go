package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/results"
)

func TestCapacityLine(t *testing.T) {
	slo := capacity.SLO{Percentile: 99, Limit: 50 * time.Millisecond}
	goal := capacity.Goal{FinalTrial: 20 * time.Second, DurationSum: 40 * time.Second, LossRatio: slo.LossRatio(), ExceedRatio: 0.5}
	tests := []struct {
		b    capacity.Bracket
		want string
	}{
		{capacity.Bracket{SLO: slo, Goal: goal, Lower: 41200, Upper: 43100, LowerMiB: 40.23, UpperMiB: 42.09, Converged: true, Confirmed: true},
			"max sustainable rate: 41,200-43,100 records/s (40.2-42.1 MiB/s) at p99 <= 50 ms, goal 20f40d1l50e: converged, confirmed"},
		{capacity.Bracket{SLO: slo, Goal: goal, Lower: 41200, Upper: 43100, LowerMiB: 40.23, UpperMiB: 42.09, Converged: true, Note: "lower end not confirmed",
			Irregular: []float64{44000}},
			"max sustainable rate: 41,200-43,100 records/s (40.2-42.1 MiB/s) at p99 <= 50 ms, goal 20f40d1l50e: converged, not confirmed (lower end not confirmed); irregular: passed above the upper end at 44,000 records/s"},
		{capacity.Bracket{SLO: slo, Goal: goal, Lower: 900, Upper: 1200, LowerMiB: 0.88, UpperMiB: 1.17, Note: "bracket 33.3% wide, 5.0% asked"},
			"max sustainable rate: 900-1,200 records/s (0.9-1.2 MiB/s) at p99 <= 50 ms, goal 20f40d1l50e: not converged (bracket 33.3% wide, 5.0% asked)"},
		// Trials disagree from 72,160 to 85,813: 85,813 / 72,160 = 1.189, 19% apart; the
		// overlap says so in place of the consistent range.
		{capacity.Bracket{SLO: slo, Goal: goal, Lower: 69101, Upper: 72160, LowerMiB: 67.48, UpperMiB: 70.47, Converged: true, Confirmed: true,
			Consistent: [2]float64{66000, 72160}, Overlap: [2]float64{72160, 85813}},
			"max sustainable rate: 69,101-72,160 records/s (67.5-70.5 MiB/s) at p99 <= 50 ms, goal 20f40d1l50e: converged, confirmed; trials both failed and passed from 72,160 to 85,813 records/s (19% apart): their noise is wider than the bracket"},
		{capacity.Bracket{SLO: slo, Goal: goal, Upper: 1, Note: "no rate passed p99 <= 50 ms"},
			"max sustainable rate: below 1 records/s at p99 <= 50 ms: not converged (no rate passed p99 <= 50 ms)"},
		// No rate failed within the budget: a lower end alone, never "46,245-0 records/s".
		{capacity.Bracket{SLO: slo, Goal: goal, Lower: 46245, LowerMiB: 45.16, Note: "no rate failed p99 <= 50 ms"},
			"max sustainable rate: at least 46,245 records/s (45.2 MiB/s) at p99 <= 50 ms: not converged (no rate failed p99 <= 50 ms)"},
	}
	for _, tt := range tests {
		if got := capacityLine(tt.b); got != tt.want {
			t.Errorf("capacityLine:\n got %q\nwant %q", got, tt.want)
		}
	}
}

func TestGroupDigits(t *testing.T) {
	for in, want := range map[float64]string{0: "0", 999: "999", 1000: "1,000", 41237.6: "41,238", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := groupDigits(in); got != want {
			t.Errorf("groupDigits(%v) = %q, want %q", in, got, want)
		}
	}
}

// TestCapacityBadInput: each bad flag gives one line naming it, before any connection (the
// bootstrap address is a closed port: reaching it would fail differently).
func TestCapacityBadInput(t *testing.T) {
	dead := closedPort(t)
	base := []string{"capacity", "--bootstrap-server", dead, "--topic", "t", "--record-size", "10"}
	tests := []struct {
		extra []string
		says  string
	}{
		{[]string{"--slo", "p99"}, `--slo: slo "p99" is not percentile=limit`},
		{[]string{"--slo", "p99=-5ms"}, `--slo: slo "p99=-5ms": limit "-5ms" is not a duration above zero`},
		{[]string{"--slo", "x=5ms"}, `--slo: slo percentile "x"`},
		{[]string{"--precision", "0"}, `--precision "0" is not a fraction between 0 and 1`},
		{[]string{"--precision", "-5%"}, `--precision "-5%"`},
		{[]string{"--trial", "1s"}, "--trial 1s: must be at least 4s"},
		{[]string{"--consumers", "-1"}, "--consumers -1"},
		{[]string{"--throughput", "1000"}, "--throughput: the search sets each trial's rate and length"},
		{[]string{"--num-records", "10"}, "--num-records: the search sets"},
		{[]string{"--max-trials", "-1"}, "--max-trials -1: must be 0 (no limit) or more"},
		{[]string{"--searches", "0"}, "--searches 0: must be 1 or more"},
		{[]string{"--max-duration", "-1m"}, "--max-duration -1m0s: must be above zero"},
		{[]string{"--confirm", "5s"}, "--confirm 5s: must be at least one --trial (40s)"},
		{[]string{"--duration-sum", "10s"}, "--duration-sum 10s: must be at least one --trial (40s)"},
		{[]string{"--exceed-ratio", "100%"}, `--exceed-ratio "100%" is not a fraction from 0 to below 1`},
	}
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := run(append(append([]string{}, base...), tt.extra...), &out, &errb)
		lines := strings.Split(strings.TrimRight(errb.String(), "\n"), "\n")
		if code == 0 || len(lines) != 1 || !strings.Contains(lines[0], tt.says) {
			t.Errorf("%v: exit %d, stderr %q, want one line with %q", tt.extra, code, errb.String(), tt.says)
		}
	}
}

// TestCapacityDefaultGoal: the goal the flags describe, by their defaults and with --trial
// or --duration-sum given (the search's default duration sum is twice the trial up to 40 s,
// at least one trial).
func TestCapacityDefaultGoal(t *testing.T) {
	for _, tt := range []struct {
		trial, durationSum time.Duration
		want               string
	}{
		{capacity.DefaultTrial, 0, "40f40d1l50e"},
		{20 * time.Second, 0, "20f40d1l50e"},
		{4 * time.Second, 0, "4f8d1l50e"},
		{60 * time.Second, 0, "60f60d1l50e"},
		{40 * time.Second, 80 * time.Second, "40f80d1l50e"},
	} {
		f := capacityFlags{slo: "p99=50ms", precision: "5%", exceedRatio: "50%", trial: tt.trial, durationSum: tt.durationSum,
			confirm: capacity.DefaultConfirm, maxDuration: capacity.DefaultMaxDuration, searches: 1}
		cfg, err := f.config(&cobra.Command{})
		if err != nil {
			t.Fatalf("--trial %v --duration-sum %v: %v", tt.trial, tt.durationSum, err)
		}
		if got := cfg.Goals()[0].Goal.Code(); got != tt.want {
			t.Errorf("--trial %v --duration-sum %v: goal %s, want %s", tt.trial, tt.durationSum, got, tt.want)
		}
	}
}

// TestCapacityIntegration searches the shared test cluster's capacity with short trials and
// a short budget: it must end with a bracket (the figures depend on the machine, so only its
// shape is checked), exit 0 only when it converged and was confirmed and 7 otherwise, and
// account for every trial in the JSON and the progress lines.
func TestCapacityIntegration(t *testing.T) {
	if testCluster == nil {
		t.Skip("needs the embedded test cluster (not under -short)")
	}
	var res results.Capacity
	code, errOut := runCapacityJSON(t, &res, "--topic", "capacity-it", "--max-duration", "90s", "--consumers", "1")
	// The budget bounds the trials the search starts, by their expected cost; how long they
	// really took depends on the machine, and is not asserted.
	if len(res.Brackets) != 1 || len(res.Trials) < 3 || res.MaxDurationS != 90 || res.SpentS <= 0 {
		t.Fatalf("%d brackets, %d trials, budget %.0fs, spent %.0fs: want 1, at least 3, 90s and some; stderr: %s",
			len(res.Brackets), len(res.Trials), res.MaxDurationS, res.SpentS, errOut)
	}
	if res.Trials[0].Offered != 0 || res.Trials[0].Achieved <= 0 || res.Trials[0].Phase != "bound" {
		t.Errorf("first trial %+v, want the unthrottled one, with records", res.Trials[0])
	}
	b := res.Brackets[0]
	if b.Lower <= 0 && b.Upper <= 0 {
		t.Errorf("bracket %+v: neither end found", b)
	}
	if b.Goal != "4f8d1l50e" {
		t.Errorf("goal %q, want 4f8d1l50e", b.Goal)
	}
	switch {
	case code == 0 && (!b.Converged || !b.Confirmed || b.Upper/b.Lower > 1.2):
		t.Errorf("exit 0 with bracket %+v, want converged and confirmed within 20%%", b)
	case code != 0 && code != exitNotConverged:
		t.Errorf("exit %d, want 0 or %d; stderr: %s", code, exitNotConverged, errOut)
	case code == exitNotConverged && (b.Converged && b.Confirmed):
		t.Errorf("exit %d with a converged, confirmed bracket %+v", code, b)
	}
	got := 0
	for _, l := range strings.Split(errOut, "\n") {
		if strings.HasPrefix(l, "trial ") {
			got++
		}
	}
	if got != len(res.Trials) || !strings.Contains(errOut, "goals: p99 <= 50 ms as 4f8d1l50e") {
		t.Errorf("%d progress lines on stderr, want the goal and one per trial (%d): %s", got, len(res.Trials), errOut)
	}
	// The search's consumer group is kbench's, and deleted after it.
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	groups, err := kadm.NewClient(cl).ListGroups(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for g := range groups {
		if strings.HasPrefix(g, "kbench-capacity-") {
			t.Errorf("consumer group %s left after the search", g)
		}
	}
}

// TestCapacitySearchesIntegration: --searches 2 runs two searches on the cluster, one after
// the other, and says how far their answers lie apart: each search in the JSON as a single
// search's, the agreement beside them, recomputed here from the searches' own lower ends.
func TestCapacitySearchesIntegration(t *testing.T) {
	if testCluster == nil {
		t.Skip("needs the embedded test cluster (not under -short)")
	}
	var res results.CapacitySearches
	code, errOut := runCapacityJSON(t, &res, "--topic", "capacity-searches-it", "--max-duration", "30s", "--searches", "2")
	if len(res.Searches) != 2 || len(res.Agreement) != 1 {
		t.Fatalf("%d searches, %d agreements, want 2 and 1; stderr: %s", len(res.Searches), len(res.Agreement), errOut)
	}
	var lowers []float64
	done := true
	for i, s := range res.Searches {
		if len(s.Brackets) != 1 || len(s.Trials) == 0 || s.Trials[0].Phase != "bound" {
			t.Fatalf("search %d: %d brackets, %d trials, want 1 and a search from its unthrottled trial", i+1, len(s.Brackets), len(s.Trials))
		}
		b := s.Brackets[0]
		lowers = append(lowers, b.Lower)
		done = done && b.Converged && b.Confirmed
	}
	a := res.Agreement[0]
	if !slices.Equal(a.Lowers, lowers) {
		t.Errorf("agreement's lower ends %v, want the searches' %v", a.Lowers, lowers)
	}
	if lowers[0] > 0 && lowers[1] > 0 {
		lo, hi := min(lowers[0], lowers[1]), max(lowers[0], lowers[1])
		if a.Median != (lo+hi)/2 || math.Abs(a.Apart-(hi/lo-1)) > 1e-9 || a.WithinPrecision != (hi/lo-1 <= 0.2) {
			t.Errorf("agreement %+v, want median %v, apart %v", a, (lo+hi)/2, hi/lo-1)
		}
	}
	if !strings.Contains(errOut, "search 1 of 2\n") || !strings.Contains(errOut, "search 2 of 2\n") {
		t.Errorf("stderr does not announce each search: %s", errOut)
	}
	if want := map[bool]int{true: 0, false: exitNotConverged}[done]; code != want {
		t.Errorf("exit %d, want %d (both searches converged and confirmed: %v); stderr: %s", code, want, done, errOut)
	}
}

// runCapacityJSON runs kbench capacity --json on the shared test cluster with short trials
// (4 s, a 1 s warm-up, 20% precision) and the args given, and decodes stdout into into; it
// returns the exit code and stderr.
func runCapacityJSON(t *testing.T, into any, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"capacity", "--bootstrap-server", testCluster.Bootstrap(), "--record-size", "512",
		"--trial", "4s", "--confirm", "4s", "--warmup", "1s", "--precision", "20%", "--json"}, args...), &out, &errb)
	if err := json.Unmarshal(out.Bytes(), into); err != nil {
		t.Fatalf("exit %d, stdout not JSON (%v): %s\nstderr: %s", code, err, out.String(), errb.String())
	}
	return code, errb.String()
}

// TestPrintCapacitySpread: the lower end's SLO figure reads as a range across its trials,
// or as one figure when its trials agree (one trial, mostly), never "37.9 ms-37.9 ms".
func TestPrintCapacitySpread(t *testing.T) {
	slo := capacity.SLO{Percentile: 99, Limit: 50 * time.Millisecond}
	for _, tt := range []struct {
		spread [2]time.Duration
		want   string
	}{
		{[2]time.Duration{15700 * time.Microsecond, 29900 * time.Microsecond}, "p99 15.7 ms-29.9 ms across its trials;"},
		{[2]time.Duration{37900 * time.Microsecond, 37900 * time.Microsecond}, "p99 37.9 ms in every trial at it;"},
	} {
		var out bytes.Buffer
		printCapacity(&out, &capacity.Result{Brackets: []capacity.Bracket{{SLO: slo, Lower: 1000, Upper: 1040, Spread: tt.spread}}})
		if !strings.Contains(out.String(), tt.want) {
			t.Errorf("spread %v printed %q, want %q", tt.spread, out.String(), tt.want)
		}
	}
}

func TestCapacityStealNoted(t *testing.T) {
	slos := []capacity.SLO{{Percentile: 99, Limit: 50 * time.Millisecond}}
	trial := func(n int, steal float64, read bool) capacity.Trial {
		return capacity.Trial{N: n, Phase: capacity.PhaseFinal, Offered: 40000, Duration: 20 * time.Second, Achieved: 40000,
			LossRatio: []float64{0}, Pass: []bool{true}, Reasons: [][]string{nil}, HostStealPct: steal, HostStealRead: read}
	}
	const note = " [host: 34% of its CPU time stolen by the hypervisor]"
	for _, tt := range []struct {
		name  string
		trial capacity.Trial
		noted bool
	}{
		{"idle host", trial(1, 1.3, true), false},
		{"just under", trial(2, 1.9, true), false},
		{"at the threshold", trial(3, 2, true), true},
		{"not read", trial(4, 34, false), false},
	} {
		if got := strings.Contains(capacityTrialLine(tt.trial, slos), "stolen by the hypervisor"); got != tt.noted {
			t.Errorf("%s: line %q, noted %v, want %v", tt.name, capacityTrialLine(tt.trial, slos), got, tt.noted)
		}
	}
	if got := capacityTrialLine(trial(5, 34.2, true), slos); !strings.HasSuffix(got, note) {
		t.Errorf("trial line %q, want it to end %q", got, note)
	}
	// A disturbed trial (it failed at 2% or more) says it was set aside.
	disturbed := trial(6, 9.4, true)
	disturbed.Pass, disturbed.Reasons, disturbed.Disturbed = []bool{false}, [][]string{{"p99 1952.8 ms > 50.0 ms"}}, true
	if got := capacityTrialLine(disturbed, slos); !strings.HasSuffix(got, " [host: 9% of its CPU time stolen by the hypervisor: not counted, tried again]") {
		t.Errorf("disturbed trial line %q", got)
	}
	// Three of five trials lost 2% or more, the most 34.2% (printed 34%); the idle and
	// unread ones do not count.
	trials := []capacity.Trial{trial(1, 1.3, true), trial(2, 12, true), trial(3, 34.2, true), trial(4, 90, false), trial(5, 2, true)}
	want := "host: up to 34% of its CPU time stolen by the hypervisor (3 of 5 trials lost 2% or more): figures measured then are the host's neighbours' as much as the cluster's"
	if got := stealLine(trials); got != want {
		t.Errorf("stealLine:\n got %q\nwant %q", got, want)
	}
	// With the disturbed one: four of six, one set aside.
	want = "host: up to 34% of its CPU time stolen by the hypervisor (4 of 6 trials lost 2% or more; 1 failed then, set aside and tried again): figures measured then are the host's neighbours' as much as the cluster's"
	if got := stealLine(append(trials, disturbed)); got != want {
		t.Errorf("stealLine with a disturbed trial:\n got %q\nwant %q", got, want)
	}
	if got := stealLine(trials[:1]); got != "" {
		t.Errorf("stealLine of an idle host: %q, want none", got)
	}
}

func TestCapacityPageReportingNoted(t *testing.T) {
	order := func(n int) *int { return &n }
	for _, tc := range []struct {
		name  string
		order *int
		want  string // "" means no line
	}{
		{"no balloon", nil, ""},
		{"reporting off", order(11), ""},
		{"reporting on in 2 MiB blocks", order(9), "host: gives the memory it frees back to its hypervisor (free page reporting on, in blocks of 2048 KiB): "},
	} {
		got := pageReportingLine(tc.order)
		if (tc.want == "") != (got == "") || !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: pageReportingLine = %q, want it to start %q", tc.name, got, tc.want)
		}
	}
}

// TestCapacityDiskNoted: a failed paced trial's line says what the host's disks wrote and
// how long a write took (and the dirty page cache it began with, when read); a passing one, the unthrottled one and one whose disks were not
// read do not.
func TestCapacityDiskNoted(t *testing.T) {
	slos := []capacity.SLO{{Percentile: 99, Limit: 50 * time.Millisecond}}
	trial := func(offered float64, pass, read bool) capacity.Trial {
		tr := capacity.Trial{N: 1, Phase: capacity.PhaseFinal, Offered: offered, Duration: 20 * time.Second, Achieved: 40000,
			LossRatio: []float64{0}, Pass: []bool{pass}, Reasons: [][]string{nil},
			HostDiskWriteWaitMs: 41.25, HostDiskWritten: 1536 << 20, HostDiskRead: read}
		if !pass {
			tr.LossRatio, tr.Reasons = []float64{0.05}, [][]string{{"p99 120.0 ms > 50.0 ms"}}
		}
		return tr
	}
	const note = " [host disk: 1536 MiB written, 41.2 ms a write]"
	for _, tt := range []struct {
		name  string
		trial capacity.Trial
		noted bool
	}{
		{"failed", trial(40000, false, true), true},
		{"passed", trial(40000, true, true), false},
		{"failed, disks not read", trial(40000, false, false), false},
		{"unthrottled", trial(0, false, true), false},
	} {
		if got := strings.Contains(capacityTrialLine(tt.trial, slos), note); got != tt.noted {
			t.Errorf("%s: line %q, noted %v, want %v", tt.name, capacityTrialLine(tt.trial, slos), got, tt.noted)
		}
	}
	// With the page cache's dirty bytes read as the trial began (2 GiB), the note says them.
	dirty := trial(40000, false, true)
	dirty.HostDirtyAtStart, dirty.HostDirtyRead = 2<<30, true
	const dirtyNote = " [host disk: 1536 MiB written, 41.2 ms a write; 2048 MiB dirty at the start]"
	if got := capacityTrialLine(dirty, slos); !strings.Contains(got, dirtyNote) {
		t.Errorf("line %q, want it to hold %q", got, dirtyNote)
	}
	// A trial set aside as stalled says so.
	stalled := trial(40000, false, true)
	stalled.Stalled = true
	if got := capacityTrialLine(stalled, slos); !strings.Contains(got, " [stalled: 10x the limit or more where this rate or a higher one held: not counted, tried again]") {
		t.Errorf("stalled trial's line %q, want it to say it was set aside", got)
	}
}

// TestCapacityCPUNoted: a failed paced trial's line says how many of the host's CPUs were
// busy (18 s over 10 s: 1.8 cores; the load's 6 s: 0.6); a passing one and the unthrottled
// one do not; one that read only the load's says that, and a load on agents is said apart
// from the host's share.
func TestCapacityCPUNoted(t *testing.T) {
	slos := []capacity.SLO{{Percentile: 99, Limit: 50 * time.Millisecond}}
	measured := capacity.CPUUse{Wall: 10 * time.Second, HostBusy: 18 * time.Second, HostCPUs: 2, HostRead: true, Load: 6 * time.Second}
	trial := func(offered float64, pass bool, c capacity.CPUUse) capacity.Trial {
		tr := capacity.Trial{N: 1, Phase: capacity.PhaseFinal, Offered: offered, Duration: 10 * time.Second, Achieved: 120000,
			LossRatio: []float64{0}, Pass: []bool{pass}, Reasons: [][]string{nil}, CPU: c}
		if !pass {
			tr.LossRatio, tr.Reasons = []float64{0.05}, [][]string{{"p99 120.0 ms > 50.0 ms"}}
		}
		return tr
	}
	for _, tt := range []struct {
		name  string
		trial capacity.Trial
		note  string
	}{
		{"failed", trial(120000, false, measured), " [host CPU: 1.8 of 2 cores busy, 0.6 of them the load's]"},
		{"failed, a task waiting for a CPU 2.5 s of 10", trial(120000, false, capacity.CPUUse{Wall: 10 * time.Second, HostBusy: 18 * time.Second, HostCPUs: 2, HostRead: true,
			Load: 6 * time.Second, HostWaited: 2500 * time.Millisecond, HostWaitedRead: true}),
			" [host CPU: 1.8 of 2 cores busy, 0.6 of them the load's; a task was waiting for a CPU 25% of the time]"},
		{"failed, host not read", trial(120000, false, capacity.CPUUse{Wall: 10 * time.Second, Load: 6 * time.Second}), " [the load's CPU: 0.6 cores]"},
		{"failed, load on agents", trial(120000, false, capacity.CPUUse{Wall: 10 * time.Second, HostBusy: 12 * time.Second, HostCPUs: 2, HostRead: true, Load: 6 * time.Second, LoadElsewhere: true}),
			" [host CPU: 1.2 of 2 cores busy; the load's agents: 0.6 cores]"},
		{"passed", trial(120000, true, measured), ""},
		{"unthrottled", trial(0, false, measured), ""},
		{"failed, nothing measured", trial(120000, false, capacity.CPUUse{}), ""},
	} {
		line := capacityTrialLine(tt.trial, slos)
		if got := strings.Contains(line, "cores"); got != (tt.note != "") || !strings.Contains(line, tt.note) {
			t.Errorf("%s: line %q, want note %q", tt.name, line, tt.note)
		}
	}
}
