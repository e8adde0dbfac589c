package capacity

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/numfmt"
)

// result is the search so far: each SLO's bracket and every trial.
func (s *search) result() *Result {
	cfg := s.cfg
	cfg.Settle, cfg.Progress = nil, nil
	res := &Result{Config: cfg, Trials: s.trials, Spent: s.spent, Budget: s.cfg.MaxDuration, Stopped: s.stopped}
	var acked, byts int64
	for _, t := range s.trials {
		acked, byts = acked+t.outcome.Acked, byts+t.outcome.Bytes
	}
	mib := func(r float64) float64 {
		if acked == 0 {
			return 0
		}
		return r * float64(byts) / float64(acked) / (1 << 20)
	}
	for i, slo := range s.cfg.SLOs {
		b := s.bracket(i, slo)
		b.LowerMiB, b.UpperMiB = mib(b.Lower), mib(b.Upper)
		if b.Lower > 0 {
			s.atLower(&b)
		}
		res.Brackets = append(res.Brackets, b)
	}
	if res.Done() {
		res.Stopped = ""
	}
	return res
}

// bracket is SLO i's answer: the relevant bounds of its goal, or, where full-length trials
// have not classified an end yet, the short trials' bound, labelled as such.
func (s *search) bracket(i int, slo SLO) Bracket {
	g := s.cfg.goal(slo)
	b := Bracket{SLO: slo, Goal: g}
	if len(s.loads) == 0 {
		b.Note = "no paced trial ran"
		return b
	}
	fin, co := s.bounds(g, i, PhaseFinal), s.bounds(s.cfg.coarse(slo), i, "")
	b.Lower, b.Upper, b.Irregular = fin.lower, fin.upper, fin.irregular
	var why []string
	if b.Lower == 0 && co.lower > 0 && (b.Upper == 0 || co.lower < b.Upper) {
		b.Lower = co.lower
		why = append(why, "lower end from short trials only")
	}
	if b.Upper == 0 && co.upper > b.Lower {
		b.Upper = co.upper
		why = append(why, "upper end from short trials only")
	}
	if b.Upper == 0 && b.Lower > 0 && s.max > b.Lower {
		b.Upper = roundRate(s.max)
		why = append(why, "upper end is the unthrottled rate")
	}
	hi := b.Upper
	if hi == 0 {
		hi = math.Inf(1)
	}
	b.Undecided = within(fin.undecided, b.Lower, hi)
	switch {
	case b.Lower == 0:
		why = append(why, "no rate passed "+slo.String())
	case b.Upper == 0:
		why = append(why, "no rate failed "+slo.String())
	case !narrow(b.Lower, b.Upper, 1+s.cfg.Precision):
		why = append(why, fmt.Sprintf("bracket %.1f%% wide, %.1f%% asked", 100*(b.Upper/b.Lower-1), 100*s.cfg.Precision))
	}
	if len(b.Undecided) > 0 {
		why = append(why, "undecided at "+rates(b.Undecided))
	}
	if s.stale(i, fin) {
		// The search would try the upper end again (only the budget stopped it): a pass far
		// below it since its failure puts that failure in doubt.
		why = append(why, fmt.Sprintf("upper end %s failed once before a pass far under the limit below it, and was not tried again", rates([]float64{fin.upper})))
	}
	b.Converged = len(why) == 0
	b.Consistent = s.consistent(i)
	b.Overlap = s.overlap(i)
	if fin.lower > 0 {
		b.Confirmed = s.confirmation(i, fin.lower) == LowerBound
		b.ConditionalThroughput = g.ConditionalThroughput(fin.lower, s.evidence(i, fin.lower, PhaseFinal))
	}
	var failed []float64
	for r := range s.loads {
		if s.confirmation(i, r) == UpperBound {
			failed = append(failed, r)
		}
	}
	if len(failed) > 0 {
		why = append(why, "confirmation failed at "+rates(failed))
	}
	if b.Lower > 0 && !b.Confirmed {
		why = append(why, "lower end not confirmed")
	}
	b.Note = strings.Join(why, "; ")
	return b
}

// consistent is SLO i's range of unanimous full-length results (see Bracket.Consistent).
func (s *search) consistent(i int) [2]float64 {
	pass, fail := map[float64]int{}, map[float64]int{}
	for _, t := range s.trials {
		if !t.countsInFinal() {
			continue
		}
		if t.Pass[i] {
			pass[t.Offered]++
		} else {
			fail[t.Offered]++
		}
	}
	var lo, hi float64
	for r := range fail {
		if pass[r] == 0 && (hi == 0 || r < hi) {
			hi = r
		}
	}
	for r := range pass {
		if fail[r] == 0 && r > lo && (hi == 0 || r < hi) {
			lo = r
		}
	}
	return [2]float64{lo, hi}
}

// countsInFinal says whether t is evidence the final goal reads: a full-length or
// confirmation trial not set aside as disturbed or stalled.
func (t Trial) countsInFinal() bool {
	return (t.Phase == PhaseFinal || t.Phase == PhaseConfirm) && !t.setAside()
}

// setAside says whether t is kept in the trials but read as no evidence: disturbed or
// stalled.
func (t Trial) setAside() bool { return t.Disturbed || t.Stalled }

// overlap is SLO i's range where its full-length and confirmation trials disagree (see
// Bracket.Overlap).
func (s *search) overlap(i int) [2]float64 {
	var lowestFail, highestPass float64
	for _, t := range s.trials {
		if !t.countsInFinal() {
			continue
		}
		switch {
		case t.Pass[i]:
			highestPass = max(highestPass, t.Offered)
		case lowestFail == 0 || t.Offered < lowestFail:
			lowestFail = t.Offered
		}
	}
	if lowestFail == 0 || lowestFail > highestPass {
		return [2]float64{}
	}
	return [2]float64{lowestFail, highestPass}
}

// rates lists rates in increasing order as the report writes them: 41,000 and 43,500.
func rates(rs []float64) string {
	sorted := slices.Sorted(slices.Values(rs))
	parts := make([]string, len(sorted))
	for i, r := range sorted {
		parts[i] = numfmt.Whole(r)
	}
	return strings.Join(parts, ", ") + " records/s"
}

// atLower sets b's percentiles from the trials at its lower end merged, the spread of its
// SLO's percentile across them, and what they used of the CPUs together.
func (s *search) atLower(b *Bracket) {
	merged := metrics.NewHistogram()
	first := true
	cpu := CPUUse{HostRead: true, HostWaitedRead: true}
	for _, t := range s.trials {
		if t.Offered != b.Lower || t.outcome.Latency == nil || t.setAside() {
			continue
		}
		// The host's share only when every trial at the rate read it, so that it covers
		// the whole wall time.
		cpu = cpu.add(t.CPU)
		merged.Merge(t.outcome.Latency)
		v := t.outcome.Latency.Quantile(b.SLO.Percentile / 100)
		if first || v < b.Spread[0] {
			b.Spread[0] = v
		}
		if first || v > b.Spread[1] {
			b.Spread[1] = v
		}
		first = false
	}
	if cpu.Wall > 0 {
		if !cpu.HostRead {
			cpu.HostBusy = 0
		}
		b.AtLowerCPU = cpu
	}
	b.AtLowerP50 = merged.Quantile(0.50)
	b.AtLowerP99 = merged.Quantile(0.99)
	b.AtLowerP999 = merged.Quantile(0.999)
}
