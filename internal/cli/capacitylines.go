package cli

import (
	"fmt"
	"strings"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/numfmt"
)

// capacityTrialLine is the progress line of one trial:
//
//	trial 4: 35,355 records/s offered, 35,350 achieved (34.5 MiB/s), p50 2.5 ms, p99 17.1 ms, p99.9 34.2 ms: pass
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
			verdict = append(verdict, "pass "+slo.String())
		default:
			verdict = append(verdict, "fail "+slo.String()+" ("+strings.Join(t.Reasons[i], "; ")+")")
		}
	}
	if t.Offered == 0 {
		verdict = []string{"bounds the search"}
	}
	return fmt.Sprintf("trial %d (%v): %s, %s achieved (%.1f MiB/s), p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms: %s",
		t.N, t.Duration, offered, groupDigits(t.Achieved), t.MiBPerSec, t.P50Ms, t.P99Ms, t.P999Ms, strings.Join(verdict, ", "))
}

// capacityLine is the answer for one SLO:
//
//	max sustainable rate: 41,200-43,100 records/s (40.2-42.1 MiB/s) at p99 <= 50 ms
func capacityLine(b capacity.Bracket) string {
	switch {
	case b.Lower == 0 && b.Upper == 0:
		return fmt.Sprintf("max sustainable rate: unknown at %s (%s)", b.SLO, b.Note)
	case b.Lower == 0:
		return fmt.Sprintf("max sustainable rate: below %s records/s at %s (%s)", groupDigits(b.Upper), b.SLO, b.Note)
	case b.Upper == 0:
		return fmt.Sprintf("max sustainable rate: at least %s records/s (%.1f MiB/s) at %s (%s)", groupDigits(b.Lower), b.LowerMiB, b.SLO, b.Note)
	}
	s := fmt.Sprintf("max sustainable rate: %s-%s records/s (%.1f-%.1f MiB/s) at %s",
		groupDigits(b.Lower), groupDigits(b.Upper), b.LowerMiB, b.UpperMiB, b.SLO)
	if !b.Converged {
		s += " (" + b.Note + ")"
	}
	return s
}

// groupDigits writes a rate as a whole number with thousands separators: 41,200.
func groupDigits(v float64) string { return numfmt.Whole(v) }
