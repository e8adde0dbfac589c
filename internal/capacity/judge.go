package capacity

import (
	"fmt"
	"strconv"
	"time"

	"github.com/kbench/kbench/internal/metrics"
)

// Outcome is what one trial measured, after its warm-up.
type Outcome struct {
	// Achieved is the sustained rate in records/s: records both due and acknowledged within
	// the measured window, per second of it (load's WindowRecordsPerSec), so a backlog from
	// the warm-up acknowledged in the window cannot lift it above the offered rate. Acked
	// and Bytes are the steady state's counts.
	Achieved     float64
	Acked, Bytes int64
	// Failed records were refused by the cluster; Unsent were still unacknowledged when the
	// trial stopped waiting for them.
	Failed, Unsent int64
	// Latency is due-time latency: from each record's slot in the schedule.
	Latency *metrics.Histogram
	// SendLatency is measured from each record's hand-over to the client (nil when not
	// measured).
	SendLatency *metrics.Histogram
	// BlockedSends waited for space in the producer's buffer; Sent is every record handed
	// over.
	BlockedSends, Sent int64
	// ConsumerLagGrowth is how many records the consumers fell further behind during the
	// trial (0 without consumers).
	ConsumerLagGrowth int64
	// Records accounts for every record of the trial, warm-up included.
	Records Records
	// Elapsed is the trial's wall time, warm-up and drain included (0: not measured; the
	// search then counts warm-up plus the trial's length).
	Elapsed time.Duration
	// HostStealPct is the share of this host's CPU time the hypervisor gave to other
	// machines during the trial, in percent, when HostStealRead.
	HostStealPct  float64
	HostStealRead bool
	// HostDiskWriteWaitMs is how long a write to this host's disks took on average during the
	// trial, queue included (iostat's w_await), and HostDiskWritten the bytes written, when
	// HostDiskRead: the brokers' write-back when they run here, or a neighbour's I/O, which
	// the steal does not show.
	HostDiskWriteWaitMs float64
	HostDiskWritten     uint64
	HostDiskRead        bool
	// HostDirtyAtStart is the host's page cache waiting to be written back as the trial
	// began, when HostDirtyRead: what brokers on this host wrote before it and the kernel
	// had not yet written back, which this trial's writes then wait behind.
	HostDirtyAtStart uint64
	HostDirtyRead    bool
	// CPU is what the trial cost in CPU time.
	CPU CPUUse
}

// CPUUse is what a trial used of the CPUs over Wall, its warm-up and drain included: this
// host's as a whole and the load clients' own. Where the brokers run on the same host (an
// embedded cluster), the host's share is the cluster's and the load's together, and its busy
// cores say how close to the host's CPUs the rate ran: the load competes with the brokers
// for them there.
type CPUUse struct {
	// Wall is the time the readings cover (0: none).
	Wall time.Duration
	// HostBusy is the CPU time this host's CPUs were busy (every process; neither idle,
	// waiting for I/O nor stolen), of its HostCPUs, when HostRead.
	HostBusy time.Duration
	HostCPUs int
	HostRead bool
	// Load is the load clients' own CPU time (this process's, or the agents' together); 0
	// when not measured. LoadElsewhere says the load ran on other hosts (agents), so that
	// Load is not part of HostBusy.
	Load          time.Duration
	LoadElsewhere bool
	// HostWaited is the time at least one task on this host waited for a CPU it was ready
	// to run on (the kernel's CPU pressure, "some"), when HostWaitedRead.
	HostWaited     time.Duration
	HostWaitedRead bool
}

// HostWaitedPct is the share of Wall in which a task on this host waited for a CPU, in
// percent (0: not read).
func (c CPUUse) HostWaitedPct() float64 {
	if !c.HostWaitedRead || c.Wall <= 0 {
		return 0
	}
	return 100 * c.HostWaited.Seconds() / c.Wall.Seconds()
}

// HostBusyCores is how many of the host's CPUs were busy on average (0: not read).
func (c CPUUse) HostBusyCores() float64 {
	if !c.HostRead || c.Wall <= 0 {
		return 0
	}
	return c.HostBusy.Seconds() / c.Wall.Seconds()
}

// LoadCores is how many CPUs the load clients kept busy on average (0: not measured).
func (c CPUUse) LoadCores() float64 {
	if c.Wall <= 0 {
		return 0
	}
	return c.Load.Seconds() / c.Wall.Seconds()
}

// add is c and o over their walls together.
func (c CPUUse) add(o CPUUse) CPUUse {
	return CPUUse{Wall: c.Wall + o.Wall, HostBusy: c.HostBusy + o.HostBusy, HostCPUs: max(c.HostCPUs, o.HostCPUs),
		HostRead: c.HostRead && o.HostRead, Load: c.Load + o.Load, LoadElsewhere: c.LoadElsewhere || o.LoadElsewhere,
		HostWaited: c.HostWaited + o.HostWaited, HostWaitedRead: c.HostWaitedRead && o.HostWaitedRead}
}

// The thresholds of a passing trial besides latency.
const (
	// MinAchieved is the least share of the offered rate a passing trial acknowledges.
	MinAchieved = 0.99
	// maxBlocked is the largest share of sends that may wait for buffer space: a scheduler
	// hiccup on a busy client machine blocks a few; a buffer that fills blocks most.
	maxBlocked = 0.01
	// maxLagGrowth is how far consumers may fall behind, as a share of the trial's records,
	// before they count as not keeping up (records in flight at the trial's end are not
	// backlog).
	maxLagGrowth = 0.01
)

// judgeCommon returns why a trial at offered records/s fails whatever the SLO: the rate was
// not sustained; none when it was. Failed and unsent records count in each SLO's loss
// ratio instead (judgeSLO).
func judgeCommon(o Outcome, offered float64) []string {
	var why []string
	if o.Achieved < MinAchieved*offered {
		why = append(why, fmt.Sprintf("achieved %.0f of %.0f records/s (%.1f%%)", o.Achieved, offered, 100*o.Achieved/offered))
	}
	if o.Sent > 0 && float64(o.BlockedSends) > maxBlocked*float64(o.Sent) {
		why = append(why, fmt.Sprintf("producer buffer full (%d of %d sends waited)", o.BlockedSends, o.Sent))
	}
	if o.ConsumerLagGrowth > 0 && float64(o.ConsumerLagGrowth) > maxLagGrowth*float64(o.Acked) {
		why = append(why, fmt.Sprintf("consumers fell %d records behind", o.ConsumerLagGrowth))
	}
	return why
}

// judgeSLO returns o's loss ratio for slo, the share of its due records that were late
// (due-time latency above the limit), failed or unsent, and why o misses slo: none when the
// ratio is within the goal's (1 % for p99). Due records are those acknowledged after the
// warm-up, plus every failed and unsent one.
func judgeSLO(o Outcome, slo SLO) (loss float64, why []string) {
	if o.Latency == nil || o.Latency.Count() == 0 {
		return 1, []string{"no acknowledgement measured"}
	}
	due := o.Latency.Count() + o.Failed + o.Unsent
	bad := o.Latency.CountAbove(slo.Limit) + o.Failed + o.Unsent
	loss = float64(bad) / float64(due)
	if loss <= slo.LossRatio() {
		return loss, nil
	}
	if q := o.Latency.Quantile(slo.Percentile / 100); q > slo.Limit {
		why = append(why, fmt.Sprintf("%s %s > %s", slo.Name(), ms(q), ms(slo.Limit)))
	}
	if o.Failed+o.Unsent > 0 {
		why = append(why, fmt.Sprintf("%d failed and %d unsent of %d due", o.Failed, o.Unsent, due))
	}
	why = append(why, fmt.Sprintf("%s of due records late, failed or unsent (at most %s)", pct(loss), pct(slo.LossRatio())))
	return loss, why
}

// pct formats a ratio as a percentage with up to three significant digits: 1.23%.
func pct(r float64) string { return strconv.FormatFloat(100*r, 'g', 3, 64) + "%" }

// ms formats d in milliseconds with one decimal.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}
