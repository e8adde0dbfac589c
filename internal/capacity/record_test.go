package capacity

import (
	"testing"
	"time"
)

// TestRecord copies a search into its run-directory form: a 50 ms limit is 50 ms, a 2 s
// trial 2 s, 3 ms of send-time p99 3 ms, a 1.5 s settle 1.5 s; the goal is written as its
// code and the settings as given.
func TestRecord(t *testing.T) {
	cfg := Config{SLOs: []SLO{{99.9, 50 * time.Millisecond}}, Trial: 20 * time.Second, ExceedRatio: 0.5}.withDefaults()
	res := &Result{
		Config:   cfg,
		Brackets: []Bracket{{SLO: cfg.SLOs[0], Goal: cfg.goal(cfg.SLOs[0]), Lower: 100, Upper: 104, Converged: true, Confirmed: true, ConditionalThroughput: 99.9}},
		Trials: []Trial{{N: 1, Phase: PhaseFinal, Offered: 100, Duration: 2 * time.Second, Achieved: 99.5, SendP99: 3 * time.Millisecond,
			LossRatio: []float64{0.001}, Pass: []bool{true}, Reasons: [][]string{nil}, HostStealPct: 2.5, HostStealRead: true, Disturbed: true,
			HostDirtyAtStart: 3 << 29, HostDirtyRead: true, Stalled: true,
			Settle: Settle{Waited: 1500 * time.Millisecond, Probes: 2, Settled: true, ProbeP50: 2 * time.Millisecond, Baseline: 1800 * time.Microsecond}}},
		Spent: 90 * time.Second,
	}
	out := res.Record()
	b, tr := out.Brackets[0], out.Trials[0]
	if b.SLO.Percentile != 99.9 || b.SLO.LimitMs != 50 || b.Lower != 100 || b.Upper != 104 || !b.Converged || !b.Confirmed ||
		b.Goal != "20f40d0.1l50e" || b.ConditionalThroughput != 99.9 {
		t.Errorf("bracket = %+v", b)
	}
	if tr.DurationS != 2 || tr.Phase != "final" || tr.Offered != 100 || tr.Achieved != 99.5 || tr.SendP99Ms != 3 || !tr.Pass[0] ||
		tr.LossRatio[0] != 0.001 || tr.SettleS != 1.5 || !tr.Settled || tr.ProbeP50Ms != 2 || tr.BaselineP50Ms != 1.8 ||
		tr.HostStealPct == nil || *tr.HostStealPct != 2.5 || !tr.Disturbed ||
		tr.HostDirtyAtStartMiB == nil || *tr.HostDirtyAtStartMiB != 1536 || tr.HostDiskWrittenMiB != nil || !tr.Stalled {
		t.Errorf("trial = %+v", tr)
	}
	if out.TrialS != 20 || out.ShortS != 5 || out.DurationSumS != 40 || out.ExceedRatio != 0.5 || out.ConfirmS != 60 ||
		out.MaxDurationS != 600 || out.SpentS != 90 || out.Precision != 0.05 {
		t.Errorf("settings = %+v", out)
	}
}

// TestRecordCPU writes a trial's CPU in cores: 60 s of busy host CPU over 40 s of wall time
// is 1.5 cores, 20 s of the load's 0.5; a trial that measured nothing has none, and one that
// read only the load's (on agents) has only that, marked as elsewhere. A task waiting for a
// CPU 10 s of the 40 s is 25%, 28 s of the bracket's 100 s 28%.
func TestRecordCPU(t *testing.T) {
	cfg := Config{SLOs: []SLO{{99, 50 * time.Millisecond}}}.withDefaults()
	measured := CPUUse{Wall: 40 * time.Second, HostBusy: 60 * time.Second, HostCPUs: 2, HostRead: true, Load: 20 * time.Second,
		HostWaited: 10 * time.Second, HostWaitedRead: true}
	res := &Result{Config: cfg,
		Brackets: []Bracket{{SLO: cfg.SLOs[0], Goal: cfg.goal(cfg.SLOs[0]), Lower: 100, Upper: 104,
			AtLowerCPU: CPUUse{Wall: 100 * time.Second, HostBusy: 160 * time.Second, HostCPUs: 2, HostRead: true, Load: 60 * time.Second,
				HostWaited: 28 * time.Second, HostWaitedRead: true}}}}
	for _, c := range []CPUUse{measured, {}, {Wall: 40 * time.Second, Load: 20 * time.Second, LoadElsewhere: true}} {
		res.Trials = append(res.Trials, Trial{Offered: 100, CPU: c, Pass: []bool{true}, LossRatio: []float64{0}, Reasons: [][]string{nil}})
	}
	out := res.Record()
	got := out.Trials[0].CPU
	if got == nil || got.HostBusyCores == nil || *got.HostBusyCores != 1.5 || got.HostCPUs != 2 ||
		got.LoadCores == nil || *got.LoadCores != 0.5 || got.LoadElsewhere || got.HostCPUWaitedPct == nil || *got.HostCPUWaitedPct != 25 {
		t.Errorf("measured trial's CPU = %+v", got)
	}
	if out.Trials[1].CPU != nil {
		t.Errorf("unmeasured trial's CPU = %+v, want none", out.Trials[1].CPU)
	}
	if got := out.Trials[2].CPU; got == nil || got.HostBusyCores != nil || got.HostCPUWaitedPct != nil || got.LoadCores == nil || *got.LoadCores != 0.5 || !got.LoadElsewhere {
		t.Errorf("load-only trial's CPU = %+v", got)
	}
	if b := out.Brackets[0].AtLowerCPU; b == nil || *b.HostBusyCores != 1.6 || *b.LoadCores != 0.6 || b.HostCPUWaitedPct == nil || *b.HostCPUWaitedPct != 28 {
		t.Errorf("bracket's CPU = %+v", b)
	}
}
