package capacity

import (
	"time"

	"github.com/kbench/kbench/internal/results"
)

// Record is the search as the run directory and kbench capacity --json keep it: the
// settings it ran with, each SLO's bracket and every trial.
func (r *Result) Record() *results.Capacity {
	c := r.Config
	out := &results.Capacity{Precision: c.Precision, TrialS: c.Trial.Seconds(), ShortS: c.Short.Seconds(),
		WarmupS: c.Warmup.Seconds(), MaxTrials: c.MaxTrials, DurationSumS: c.DurationSum.Seconds(),
		ExceedRatio: c.ExceedRatio, ConfirmS: c.Confirm.Seconds(), MaxDurationS: c.MaxDuration.Seconds(),
		SpentS: r.Spent.Seconds(), Stopped: r.Stopped, BaselineRecords: r.BaselineRecords,
		HostPageReportingOrder: r.HostPageReportingOrder}
	for _, b := range r.Brackets {
		out.Brackets = append(out.Brackets, results.CapacityBracket{
			SLO:   b.SLO.record(),
			Lower: b.Lower, Upper: b.Upper, LowerMiB: b.LowerMiB, UpperMiB: b.UpperMiB,
			Goal: b.Goal.Code(), ConditionalThroughput: b.ConditionalThroughput,
			Converged: b.Converged, Confirmed: b.Confirmed, Note: b.Note, Undecided: b.Undecided, Irregular: b.Irregular, Consistent: b.Consistent, Overlap: b.Overlap,
			AtLowerP50Ms: msf(b.AtLowerP50), AtLowerP99Ms: msf(b.AtLowerP99), AtLowerP999Ms: msf(b.AtLowerP999),
			SpreadMs:   [2]float64{msf(b.Spread[0]), msf(b.Spread[1])},
			AtLowerCPU: b.AtLowerCPU.record(),
		})
	}
	for _, t := range r.Trials {
		var steal, diskWait, diskWritten, dirty *float64
		if t.HostStealRead {
			steal = &t.HostStealPct
		}
		if t.HostDiskRead {
			mib := float64(t.HostDiskWritten) / (1 << 20)
			diskWait, diskWritten = &t.HostDiskWriteWaitMs, &mib
		}
		if t.HostDirtyRead {
			mib := float64(t.HostDirtyAtStart) / (1 << 20)
			dirty = &mib
		}
		out.Trials = append(out.Trials, results.CapacityTrial{
			CPU:          t.CPU.record(),
			HostStealPct: steal, Disturbed: t.Disturbed, Stalled: t.Stalled, HostDiskWriteWaitMs: diskWait, HostDiskWrittenMiB: diskWritten, HostDirtyAtStartMiB: dirty,
			N: t.N, Phase: string(t.Phase), Offered: t.Offered, DurationS: t.Duration.Seconds(), Achieved: t.Achieved,
			MiBPerSec: t.MiBPerSec, P50Ms: msf(t.P50), P99Ms: msf(t.P99), P999Ms: msf(t.P999),
			SendP50Ms: msf(t.SendP50), SendP99Ms: msf(t.SendP99), SendP999Ms: msf(t.SendP999),
			LossRatio: t.LossRatio, Pass: t.Pass, Reasons: t.Reasons,
			Records:       results.CapacityRecords{Sent: t.Records.Handed, Acked: t.Records.Acked, Failed: t.Records.Failed, Unsent: t.Records.Unsent},
			SettleRecords: t.Settle.Records,
			SettleS:       t.Settle.Waited.Seconds(), Settled: t.Settle.Settled,
			ProbeP50Ms: msf(t.Settle.ProbeP50), BaselineP50Ms: msf(t.Settle.Baseline),
		})
	}
	return out
}

// msf is d in milliseconds.
func msf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// record is c as a run directory keeps it, or nil when nothing was measured.
func (c CPUUse) record() *results.CapacityCPU {
	if c.Wall <= 0 || (!c.HostRead && !c.HostWaitedRead && c.Load <= 0) {
		return nil
	}
	out := &results.CapacityCPU{}
	if c.HostRead {
		cores := c.HostBusyCores()
		out.HostBusyCores, out.HostCPUs = &cores, c.HostCPUs
	}
	if c.HostWaitedRead {
		pct := c.HostWaitedPct()
		out.HostCPUWaitedPct = &pct
	}
	if c.Load > 0 {
		cores := c.LoadCores()
		out.LoadCores, out.LoadElsewhere = &cores, c.LoadElsewhere
	}
	return out
}
