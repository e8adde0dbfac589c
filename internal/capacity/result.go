package capacity

import (
	"fmt"

	"github.com/kbench/kbench/internal/metrics"
)

// result is the search so far: each SLO's bracket and every trial.
func (s *search) result() *Result {
	res := &Result{Trials: s.trials}
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
		b := Bracket{SLO: slo}
		if len(s.rates) > 0 {
			b.Lower, b.Upper = s.bracket(i)
		}
		b.LowerMiB, b.UpperMiB = mib(b.Lower), mib(b.Upper)
		switch {
		case b.Lower == 0:
			b.Note = fmt.Sprintf("no rate passed %s", slo)
		case b.Upper == 0:
			b.Note = fmt.Sprintf("no rate failed %s", slo)
		case b.Upper/b.Lower > 1+s.cfg.Precision ||
			s.rates[b.Lower].full < s.cfg.Confirm || s.rates[b.Upper].full < 1:
			b.Note = fmt.Sprintf("stopped after %d trials with the bracket %.1f%% wide", len(s.trials), 100*(b.Upper/b.Lower-1))
		default:
			b.Converged = true
		}
		if b.Lower > 0 {
			s.atLower(&b)
		}
		res.Brackets = append(res.Brackets, b)
	}
	return res
}

// atLower sets b's percentiles from the trials at its lower end merged, and the spread of
// its SLO's percentile across them.
func (s *search) atLower(b *Bracket) {
	merged := metrics.NewHistogram()
	first := true
	for _, t := range s.trials {
		if t.Offered != b.Lower || t.outcome.Latency == nil {
			continue
		}
		merged.Merge(t.outcome.Latency)
		v := msf(t.outcome.Latency.Quantile(b.SLO.Percentile / 100))
		if first || v < b.SpreadMs[0] {
			b.SpreadMs[0] = v
		}
		if first || v > b.SpreadMs[1] {
			b.SpreadMs[1] = v
		}
		first = false
	}
	b.AtLowerP50Ms = msf(merged.Quantile(0.50))
	b.AtLowerP99Ms = msf(merged.Quantile(0.99))
	b.AtLowerP999Ms = msf(merged.Quantile(0.999))
}
