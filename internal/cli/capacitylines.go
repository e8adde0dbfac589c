package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/numfmt"
	"github.com/kbench/kbench/internal/results"
)

// capacityGoalLine states the search's goals before its first trial:
//
//	goals: p99 <= 50 ms as 40f40d1l50e; short trials 10s, confirmation 1m0s, budget 10m0s
func capacityGoalLine(c capacity.Config) string {
	var goals []string
	for _, g := range c.Goals() {
		goals = append(goals, g.SLO.String()+" as "+g.Goal.Code())
	}
	c = c.Filled()
	return fmt.Sprintf("goals: %s; short trials %v, confirmation %v, budget %v",
		strings.Join(goals, ", "), c.Short, c.Confirm, c.MaxDuration)
}

// capacityTrialLine is the progress line of one trial:
//
//	trial 9 (final, 20s): 43,092 records/s offered, 43,090 achieved (42.1 MiB/s), p50 3.0 ms, p99 43.4 ms, p99.9 86.8 ms: pass p99 <= 50 ms (0.15% late) [settled in 1s]
func capacityTrialLine(t capacity.Trial, slos []capacity.SLO) string {
	offered := "unthrottled"
	if t.Offered > 0 {
		offered = groupDigits(t.Offered) + " records/s offered"
	}
	var verdict []string
	for i, slo := range slos {
		switch {
		case t.Offered == 0:
		case t.Pass[i]:
			verdict = append(verdict, fmt.Sprintf("pass %s (%s late)", slo, lossText(t.LossRatio[i])))
		default:
			verdict = append(verdict, "fail "+slo.String()+" ("+strings.Join(t.Reasons[i], "; ")+")")
		}
	}
	if t.Offered == 0 {
		verdict = []string{"bounds the search"}
	}
	line := fmt.Sprintf("trial %d (%s, %v): %s, %s achieved (%.1f MiB/s), p50 %s, p99 %s, p99.9 %s: %s",
		t.N, t.Phase, t.Duration, offered, groupDigits(t.Achieved), t.MiBPerSec, msText(t.P50), msText(t.P99), msText(t.P999),
		strings.Join(verdict, ", "))
	switch {
	case t.Disturbed:
		line += fmt.Sprintf(" [host: %.0f%% of its CPU time stolen by the hypervisor: not counted, tried again]", t.HostStealPct)
	case t.HostStealRead && t.HostStealPct >= stealNoted:
		line += fmt.Sprintf(" [host: %.0f%% of its CPU time stolen by the hypervisor]", t.HostStealPct)
	}
	if t.Stalled {
		line += " [stalled: 10x the limit or more where this rate or a higher one held: not counted, tried again]"
	}
	if t.Offered > 0 && t.HostDiskRead && slices.Contains(t.Pass, false) {
		// What the host's disks did then: the brokers' write-back when they run here, or a
		// neighbour's I/O, which the steal does not show.
		line += fmt.Sprintf(" [host disk: %.0f MiB written, %.1f ms a write", float64(t.HostDiskWritten)/(1<<20), t.HostDiskWriteWaitMs)
		if t.HostDirtyRead {
			line += fmt.Sprintf("; %.0f MiB dirty at the start", float64(t.HostDirtyAtStart)/(1<<20))
		}
		line += "]"
	}
	if t.Offered > 0 && slices.Contains(t.Pass, false) {
		if c := cpuText(t.CPU); c != "" {
			line += " [" + c + "]"
		}
	}
	if st := t.Settle; st.Probes > 0 {
		if st.Settled {
			line += fmt.Sprintf(" [settled in %v]", st.Waited.Round(time.Second))
		} else {
			line += fmt.Sprintf(" [not at rest after %v: probe p50 %s against idle %s]", st.Waited.Round(time.Second), msText(st.ProbeP50), msText(st.Baseline))
		}
	}
	return line
}

// cpuText is what trials used of the CPUs, or "" when nothing was measured:
//
//	host CPU: 1.8 of 2 cores busy, 0.6 of them the load's; a task was waiting for a CPU 28% of the time
func cpuText(c capacity.CPUUse) string {
	s := cpuUseText(c)
	if s != "" && c.HostWaitedRead { // s is "" when Wall <= 0
		s += fmt.Sprintf("; a task was waiting for a CPU %.0f%% of the time", c.HostWaitedPct())
	}
	return s
}

// cpuUseText is the cores busy of cpuText.
func cpuUseText(c capacity.CPUUse) string {
	switch {
	case c.Wall <= 0:
		return ""
	case c.HostRead && c.Load > 0 && !c.LoadElsewhere:
		return fmt.Sprintf("host CPU: %.1f of %d cores busy, %.1f of them the load's", c.HostBusyCores(), c.HostCPUs, c.LoadCores())
	case c.HostRead && c.Load > 0:
		return fmt.Sprintf("host CPU: %.1f of %d cores busy; the load's agents: %.1f cores", c.HostBusyCores(), c.HostCPUs, c.LoadCores())
	case c.HostRead:
		return fmt.Sprintf("host CPU: %.1f of %d cores busy", c.HostBusyCores(), c.HostCPUs)
	case c.Load > 0:
		return fmt.Sprintf("the load's CPU: %.1f cores", c.LoadCores())
	}
	return ""
}

// stealNoted is the share of CPU time stolen (percent) from which a trial line says so: the
// share from which a failed trial is set aside as disturbed (see capacity.DisturbedStealPct
// for what was measured).
const stealNoted = capacity.DisturbedStealPct

// stealLine says how much CPU time the host lost to other machines during the trials, when
// a trial lost stealNoted percent or more, or "":
//
//	host: up to 34% of its CPU time stolen by the hypervisor (4 of 21 trials lost 2% or more; 3 failed then, set aside and tried again): figures measured then are the host's neighbours' as much as the cluster's
func stealLine(trials []capacity.Trial) string {
	most, noted, disturbed := 0.0, 0, 0
	for _, t := range trials {
		if t.HostStealRead && t.HostStealPct >= stealNoted {
			noted++
			most = max(most, t.HostStealPct)
		}
		if t.Disturbed {
			disturbed++
		}
	}
	if noted == 0 {
		return ""
	}
	line := fmt.Sprintf("host: up to %.0f%% of its CPU time stolen by the hypervisor (%d of %d trials lost %d%% or more", most, noted, len(trials), stealNoted)
	if disturbed > 0 {
		line += fmt.Sprintf("; %d failed then, set aside and tried again", disturbed)
	}
	return line + "): figures measured then are the host's neighbours' as much as the cluster's"
}

// pageReportingLine says, when the host gave the memory it freed back to its hypervisor,
// what that can do to the answer; "" otherwise.
func pageReportingLine(order *int) string {
	if !results.PageReportingOn(order) {
		return ""
	}
	return "host: gives the memory it frees back to its hypervisor (free page reporting " + results.PageReportingText(order) +
		"): each page of it written again costs a host fault, which brokers on this host with their log dirs in memory pay as they write (docs/capacity.md, \"Memory given back to the hypervisor\")"
}

// capacityLine is the answer for one SLO:
//
//	max sustainable rate: 43,092-45,000 records/s (42.1-43.9 MiB/s) at p99 <= 50 ms, goal 40f40d1l50e: converged, confirmed
func capacityLine(b capacity.Bracket) string {
	switch {
	case b.Lower == 0 && b.Upper == 0:
		return fmt.Sprintf("max sustainable rate: unknown at %s (%s)", b.SLO, b.Note)
	case b.Lower == 0:
		return fmt.Sprintf("max sustainable rate: below %s records/s at %s: not converged (%s)", groupDigits(b.Upper), b.SLO, b.Note)
	case b.Upper == 0:
		return fmt.Sprintf("max sustainable rate: at least %s records/s (%.1f MiB/s) at %s: not converged (%s)", groupDigits(b.Lower), b.LowerMiB, b.SLO, b.Note)
	}
	s := fmt.Sprintf("max sustainable rate: %s-%s records/s (%.1f-%.1f MiB/s) at %s, goal %s",
		groupDigits(b.Lower), groupDigits(b.Upper), b.LowerMiB, b.UpperMiB, b.SLO, b.Goal.Code())
	switch {
	case b.Converged && b.Confirmed:
		s += ": converged, confirmed"
	case b.Converged:
		s += ": converged, not confirmed (" + b.Note + ")"
	default:
		s += ": not converged (" + b.Note + ")"
	}
	if o := results.OverlapText(b.Overlap, b.Lower, b.Upper); o != "" {
		s += "; " + o
	} else if c := b.Consistent; c[0] > 0 && c[1] > 0 && (c[0] != b.Lower || c[1] != b.Upper) {
		s += fmt.Sprintf("; mixed results near it: the trials are consistent with %s-%s records/s", groupDigits(c[0]), groupDigits(c[1]))
	}
	if len(b.Irregular) > 0 {
		s += "; irregular: passed above the upper end at " + rateList(b.Irregular)
	}
	return s
}

// rateList is rates as "46,500 and 47,100 records/s".
func rateList(rs []float64) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = groupDigits(r)
	}
	return strings.Join(parts, ", ") + " records/s"
}

// msText is d in milliseconds with one decimal: "43.4 ms".
func msText(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// lossText is a loss ratio as a percentage: "0.15%".
func lossText(r float64) string { return fmt.Sprintf("%.2g%%", 100*r) }

// groupDigits writes a rate as a whole number with thousands separators: 41,200.
func groupDigits(v float64) string { return numfmt.Whole(v) }
