package results

import (
	"fmt"

	"github.com/kbench/kbench/internal/numfmt"
)

// Capacity is a repeat's capacity search: the highest offered rate at which due-time latency
// met each SLO, bracketed, and every trial that found it. It has the shape kbench capacity
// --json prints, with the search's settings beside it.
type Capacity struct {
	// Precision is the widest final bracket asked for, as a share of its lower end; TrialS
	// a full-length (final) trial, ShortS a short one, WarmupS each trial's warm-up, in
	// seconds; MaxTrials the limit (0: none).
	Precision float64 `json:"precision"`
	TrialS    float64 `json:"trial_s"`
	ShortS    float64 `json:"short_s,omitempty"`
	WarmupS   float64 `json:"warmup_s"`
	MaxTrials int     `json:"max_trials"`
	// DurationSumS and ExceedRatio complete each SLO's search goal (RFC 9971); ConfirmS is
	// the confirmation trial, MaxDurationS the budget, SpentS what the search took by its
	// trials' and settles' own accounts.
	DurationSumS float64 `json:"duration_sum_s,omitempty"`
	ExceedRatio  float64 `json:"exceed_ratio"`
	ConfirmS     float64 `json:"confirm_s,omitempty"`
	MaxDurationS float64 `json:"max_duration_s,omitempty"`
	SpentS       float64 `json:"spent_s,omitempty"`
	// Stopped says why the search ended before every bracket converged and was confirmed.
	Stopped string `json:"stopped,omitempty"`
	// BaselineRecords are what the idle probes before the first trial wrote to the topic;
	// with each trial's records and settle records, every record the search wrote.
	BaselineRecords int64 `json:"baseline_records,omitempty"`
	// HostPageReportingOrder is the free page reporting order of the host kbench ran on
	// (Host.PageReportingOrder), read before the first search: at MaxPageOrder or below,
	// that host was giving the memory it freed back to its hypervisor. A study keeps it in
	// its environment's host instead.
	HostPageReportingOrder *int `json:"host_page_reporting_order,omitempty"`
	// Brackets has one entry per SLO, in increasing order of percentile.
	Brackets []CapacityBracket `json:"brackets"`
	Trials   []CapacityTrial   `json:"trials"`
	// Error says why the search stopped early (a trial could not run); what it measured
	// until then is kept.
	Error string `json:"error,omitempty"`
}

// CapacitySLO is one latency bound: the Percentile (99, 99.9) of due-time latency must be
// at most LimitMs.
type CapacitySLO struct {
	Percentile float64 `json:"percentile"`
	LimitMs    float64 `json:"limit_ms"`
}

// CapacityBracket is the search's answer for one SLO.
type CapacityBracket struct {
	SLO CapacitySLO `json:"slo"`
	// Lower is the highest offered rate that passed, Upper the lowest that failed, in
	// records/s (0 when none did); LowerMiB and UpperMiB in MiB/s.
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	LowerMiB float64 `json:"lower_mib_per_sec"`
	UpperMiB float64 `json:"upper_mib_per_sec"`
	// Goal is the SLO as an RFC 9971 search goal, in its code: 20f40d1l50e.
	Goal string `json:"goal,omitempty"`
	// ConditionalThroughput is RFC 9971's: Lower times one minus the loss ratio at the
	// goal's exceed quantile of its full-length trials.
	ConditionalThroughput float64 `json:"conditional_throughput,omitempty"`
	// Converged is true when both ends are classified by full-length trials and
	// Upper/Lower - 1 is within the precision; Confirmed when the lower end then passed its
	// confirmation; Note says why not otherwise.
	Converged bool   `json:"converged"`
	Confirmed bool   `json:"confirmed"`
	Note      string `json:"note,omitempty"`
	// Undecided are rates inside the bracket still undecided at the end; Irregular rates
	// classified lower bounds above Upper (flukes, not the answer).
	Undecided []float64 `json:"undecided,omitempty"`
	Irregular []float64 `json:"irregular,omitempty"`
	// Consistent is the range the full-length trials are consistent with: from the highest
	// rate that passed every full-length and confirmation trial to the lowest that failed
	// every one (0: none); wider than [Lower, Upper] where rates between gave mixed results.
	Consistent [2]float64 `json:"consistent"`
	// Overlap is where the full-length and confirmation trials disagree: from the lowest
	// rate one failed at to the highest one passed at (0, 0: every failure above every
	// pass). Its width is how far the cluster's trials scatter in rate.
	Overlap [2]float64 `json:"overlap"`
	// AtLower* are the due-time percentiles of the trials at Lower merged, in ms; SpreadMs
	// the lowest and highest of the SLO's percentile across those trials.
	AtLowerP50Ms  float64    `json:"at_lower_p50_ms"`
	AtLowerP99Ms  float64    `json:"at_lower_p99_ms"`
	AtLowerP999Ms float64    `json:"at_lower_p999_ms"`
	SpreadMs      [2]float64 `json:"spread_ms"`
	// AtLowerCPU is what the trials at Lower used of the CPUs together (see CapacityCPU);
	// absent where none was measured.
	AtLowerCPU *CapacityCPU `json:"at_lower_cpu,omitempty"`
}

// CapacityTrial is one trial: an open-loop run at one offered rate after its warm-up.
type CapacityTrial struct {
	N int `json:"n"`
	// Phase is what the trial was for: bound (unthrottled), coarse (short, while the
	// bracket is wide), final (full-length) or confirm.
	Phase string `json:"phase,omitempty"`
	// Offered is the rate in records/s, 0 for the unthrottled trial that bounds the search.
	Offered   float64 `json:"offered"`
	DurationS float64 `json:"duration_s"`
	Achieved  float64 `json:"achieved"`
	MiBPerSec float64 `json:"mib_per_sec"`
	// P50Ms, P99Ms and P999Ms are due-time latency; Send* send-time latency.
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	P999Ms     float64 `json:"p999_ms"`
	SendP50Ms  float64 `json:"send_p50_ms"`
	SendP99Ms  float64 `json:"send_p99_ms"`
	SendP999Ms float64 `json:"send_p999_ms"`
	// LossRatio is, per bracket in order, the share of due records late, failed or unsent;
	// Pass whether the trial met that SLO; Reasons why not.
	LossRatio []float64  `json:"loss_ratio,omitempty"`
	Pass      []bool     `json:"pass"`
	Reasons   [][]string `json:"reasons"`
	// Records accounts for the trial's records, warm-up included: every one handed to the
	// clients was acknowledged, failed or unsent; SettleRecords are what the settle probes
	// before it wrote.
	Records       CapacityRecords `json:"records"`
	SettleRecords int64           `json:"settle_records,omitempty"`
	// SettleS is how long the cluster took to come back to rest before the trial (probes
	// included), Settled false when the wait ended at its bound; ProbeP50Ms and
	// BaselineP50Ms the last probe's median latency and the idle cluster's.
	SettleS       float64 `json:"settle_s,omitempty"`
	Settled       bool    `json:"settled,omitempty"`
	ProbeP50Ms    float64 `json:"probe_p50_ms,omitempty"`
	BaselineP50Ms float64 `json:"baseline_p50_ms,omitempty"`
	// HostStealPct is the share of the searching host's CPU time the hypervisor gave to
	// other machines during the trial (/proc/stat's steal), in percent; absent where it
	// could not be read.
	HostStealPct *float64 `json:"host_steal_pct,omitempty"`
	// HostDiskWriteWaitMs is how long a write to the searching host's disks took on average
	// during the trial, queue included (/proc/diskstats: time writing over writes completed,
	// iostat's w_await), and HostDiskWrittenMiB what they wrote; absent where no write
	// completed or /proc/diskstats could not be read.
	HostDiskWriteWaitMs *float64 `json:"host_disk_write_wait_ms,omitempty"`
	HostDiskWrittenMiB  *float64 `json:"host_disk_written_mib,omitempty"`
	// HostDirtyAtStartMiB is the searching host's page cache waiting to be written back
	// (/proc/meminfo's Dirty) as the trial began; absent where it could not be read.
	HostDirtyAtStartMiB *float64 `json:"host_dirty_at_start_mib,omitempty"`
	// Disturbed marks a trial that failed while the hypervisor took 2% or more of the host's
	// CPU time: it is not counted in the classification, and its rate was tried again.
	Disturbed bool `json:"disturbed,omitempty"`
	// Stalled marks a full-length trial that failed with its percentile 10 times the limit
	// or more at a rate where it, or a higher one, had held under that: a freeze, not the
	// rate. It is not counted, and its rate was tried again (once a rate, twice a search).
	Stalled bool `json:"stalled,omitempty"`
	// CPU is what the trial used of the CPUs, warm-up and drain included; absent where
	// nothing was measured.
	CPU *CapacityCPU `json:"cpu,omitempty"`
}

// CapacityCPU is what trials used of the CPUs, in cores kept busy on average. Where the
// brokers run on the searching host (an embedded cluster), its host share is the cluster's
// and the load's together: how close to the host's CPUs the rate ran.
type CapacityCPU struct {
	// HostBusyCores is how many of the searching host's HostCPUs were busy on average
	// (/proc/stat: every process; idle, I/O wait and steal left out); absent where
	// /proc/stat could not be read.
	HostBusyCores *float64 `json:"host_busy_cores,omitempty"`
	HostCPUs      int      `json:"host_cpus,omitempty"`
	// LoadCores is how many CPUs the load clients kept busy (getrusage: kbench's process,
	// or the agents' together); absent when not measured. LoadElsewhere is true when the
	// load ran on other hosts (agents): then it is not part of the host's share.
	LoadCores     *float64 `json:"load_cores,omitempty"`
	LoadElsewhere bool     `json:"load_elsewhere,omitempty"`
	// HostCPUWaitedPct is the share of the time in which at least one task on the searching
	// host waited for a CPU it was ready to run on (/proc/pressure/cpu, "some"), in percent;
	// absent where the kernel does not give it.
	HostCPUWaitedPct *float64 `json:"host_cpu_waited_pct,omitempty"`
}

// LowerFor returns the bracket of the SLO on percentile p, if the search had one.
func (c *Capacity) LowerFor(p float64) (CapacityBracket, bool) {
	if c == nil {
		return CapacityBracket{}, false
	}
	for _, b := range c.Brackets {
		if b.SLO.Percentile == p {
			return b, true
		}
	}
	return CapacityBracket{}, false
}

// CapacityRecords accounts for a trial's records: Sent = Acked + Failed + Unsent.
type CapacityRecords struct {
	Sent   int64 `json:"sent"`
	Acked  int64 `json:"acked"`
	Failed int64 `json:"failed"`
	Unsent int64 `json:"unsent"`
}

// OverlapText states a bracket's Overlap when it is wider than the bracket [lower, upper],
// as the answer line and the report say it, and "" otherwise:
//
//	trials both failed and passed from 72,160 to 85,813 records/s (19% apart): their noise is wider than the bracket
//
// It is the scatter of the trials' verdicts, not a range for the answer: in the simulation
// it held the capacity in 31 of the 195 searches (of 1,200) whose bracket missed it.
func OverlapText(o [2]float64, lower, upper float64) string {
	if o[0] <= 0 || lower <= 0 || upper <= 0 || o[1]/o[0] <= upper/lower {
		return ""
	}
	return fmt.Sprintf("trials both failed and passed from %s to %s records/s (%.0f%% apart): their noise is wider than the bracket",
		numfmt.Whole(o[0]), numfmt.Whole(o[1]), 100*(o[1]/o[0]-1))
}
