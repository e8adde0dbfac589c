package load

import (
	"slices"
	"time"

	"github.com/kbench/kbench/internal/metrics"
)

// MergeResults is the accounting of several trials run at once (agents on other hosts) as
// if one had run them all: counts add, histograms merge (a percentile is never averaged), so
// every latency figure is that of the union of the records. Elapsed times are the longest
// (the trials start together), and the rates are the merged counts over it. Settings are
// the first result's; nil results are skipped.
func MergeResults(rs ...*ProduceResult) *ProduceResult {
	rs = slices.DeleteFunc(slices.Clone(rs), func(r *ProduceResult) bool { return r == nil })
	if len(rs) == 0 {
		return nil
	}
	m := &ProduceResult{Topic: rs[0].Topic, Settings: rs[0].Settings, Errors: map[string]int64{}}
	total := make([]ProduceStats, 0, len(rs))
	var steady []ProduceStats
	var cpu, steadyCPU CPUUsage
	for _, r := range rs {
		m.Producers += r.Producers
		m.Rate += r.Rate
		m.Sent += r.Sent
		m.Unsent += r.Unsent
		m.Drained += r.Drained
		m.BlockedSends += r.BlockedSends
		m.MaxSendLagMs = max(m.MaxSendLagMs, r.MaxSendLagMs)
		for k, v := range r.Errors {
			m.Errors[k] += v
		}
		for _, w := range r.Warnings {
			if !slices.Contains(m.Warnings, w) {
				m.Warnings = append(m.Warnings, w)
			}
		}
		m.Interrupted = m.Interrupted || r.Interrupted
		total = append(total, r.Total)
		if r.Steady != nil {
			steady = append(steady, *r.Steady)
		}
		cpu = cpu.add(r.CPU)
		if r.SteadyCPU != nil {
			steadyCPU = steadyCPU.add(*r.SteadyCPU)
			if m.SteadyStart.IsZero() || r.SteadyStart.Before(m.SteadyStart) {
				m.SteadyStart = r.SteadyStart
			}
		}
	}
	m.Total = mergeStats(total)
	m.CPU = clientCPU(cpu, m.Total.Acked)
	if len(steady) > 0 {
		s := mergeStats(steady)
		m.Steady = &s
	}
	if !m.SteadyStart.IsZero() {
		c := clientCPU(steadyCPU, m.Steady.Acked)
		m.SteadyCPU = &c
	}
	return m
}

// mergeStats adds counts and merges histograms; the elapsed time is the longest.
func mergeStats(ss []ProduceStats) ProduceStats {
	var acked, failed, byts int64
	var el float64
	due, send := metrics.NewHistogram(), metrics.NewHistogram()
	for _, s := range ss {
		acked += s.Acked
		failed += s.Failed
		byts += s.Bytes
		el = max(el, s.ElapsedSeconds)
		if s.DueHistogram != nil {
			due.Merge(s.DueHistogram)
		}
		if s.SendHistogram != nil {
			send.Merge(s.SendHistogram)
		}
	}
	return newProduceStats(acked, failed, byts, time.Duration(el*float64(time.Second)), due, send)
}

// add is c plus the CPU seconds of o.
func (c CPUUsage) add(o ClientCPU) CPUUsage {
	return CPUUsage{User: c.User + secs(o.UserSeconds), System: c.System + secs(o.SystemSeconds)}
}

func secs(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

// MergeConsumeResults is the accounting of several consume runs at once (agents' consumers)
// as one: counts add and the end-to-end histograms merge; the span runs from the earliest
// start to the latest end, and the rates are the merged counts over it. nil results are
// skipped.
func MergeConsumeResults(rs ...*ConsumeResult) *ConsumeResult {
	rs = slices.DeleteFunc(slices.Clone(rs), func(r *ConsumeResult) bool { return r == nil })
	if len(rs) == 0 {
		return nil
	}
	m := &ConsumeResult{Group: rs[0].Group, Settings: rs[0].Settings, Errors: map[string]int64{},
		EndToEndSource: rs[0].EndToEndSource, Start: rs[0].Start, End: rs[0].End}
	e2e := metrics.NewHistogram()
	var cpu CPUUsage
	for _, r := range rs {
		m.Consumers += r.Consumers
		m.Records += r.Records
		m.Bytes += r.Bytes
		m.Rereads += r.Rereads
		m.RebalanceSeconds = max(m.RebalanceSeconds, r.RebalanceSeconds)
		m.TimedOut = m.TimedOut || r.TimedOut
		m.Interrupted = m.Interrupted || r.Interrupted
		if r.Start.Before(m.Start) {
			m.Start = r.Start
		}
		if r.End.After(m.End) {
			m.End = r.End
		}
		if r.EndToEndSource != m.EndToEndSource && r.EndToEndHistogram != nil && r.EndToEndHistogram.Count() > 0 {
			m.EndToEndSource = "timestamp" // a mix: some records carried no header
		}
		for k, v := range r.Errors {
			m.Errors[k] += v
		}
		if r.EndToEndHistogram != nil {
			e2e.Merge(r.EndToEndHistogram)
		}
		cpu = cpu.add(r.CPU)
	}
	m.EndToEndHistogram, m.EndToEnd = e2e, e2e.Summary()
	m.ElapsedSeconds = m.End.Sub(m.Start).Seconds()
	m.FetchSeconds = m.ElapsedSeconds - m.RebalanceSeconds
	mib := float64(m.Bytes) / (1024 * 1024)
	if m.ElapsedSeconds > 0 {
		m.RecordsPerSec, m.MiBPerSec = float64(m.Records)/m.ElapsedSeconds, mib/m.ElapsedSeconds
	}
	if m.FetchSeconds > 0 {
		m.FetchRecordsPerSec, m.FetchMiBPerSec = float64(m.Records)/m.FetchSeconds, mib/m.FetchSeconds
	}
	m.CPU = clientCPU(cpu, m.Records)
	return m
}
