package report

import (
	"fmt"
	"strings"
)

// resultColumns are the results table's figure columns after the parameters, laid out like
// the source white papers.
var resultColumns = []string{"records/s", "MiB/s", "avg ms", "p50 ms", "p95 ms", "p99 ms", "p99.9 ms", "max ms",
	"broker CPU %", "client CPU s/M rec", "spread", "valid"}

// resultCells renders one row's figure columns.
func resultCells(r Row) []string {
	return []string{
		medianText(r.RecordsPerSec), medianText(r.MiBPerSec), medianText(r.LatAvg), medianText(r.P50),
		medianText(r.P95), medianText(r.P99), medianText(r.P999), medianText(r.Max),
		brokerPctText(r), medianText(r.ClientCPUPerM), spreadText(r.RecordsPerSec), validText(r),
	}
}

// brokerPctText lists each broker's mean CPU %, "54 / 55 / 52", like a console per broker.
func brokerPctText(r Row) string {
	var parts []string
	for _, b := range r.Brokers {
		if b.Pct.N > 0 {
			parts = append(parts, fmt.Sprintf("%.0f", b.Pct.Median))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " / ")
}

func validText(r Row) string {
	s := fmt.Sprintf("%d/%d", r.Valid, r.Total)
	if r.Unstable {
		s += " (unstable)"
	}
	return s
}

// verdictMark is a short mark for a verdict outcome.
func verdictMark(outcome string) string {
	switch outcome {
	case "confirmed":
		return "✅ confirmed"
	case "refuted":
		return "❌ refuted"
	case "inconclusive":
		return "❔ inconclusive"
	}
	return "⚠️ " + outcome
}

func agreeText(e Effect) string {
	if e.Agrees == nil {
		return ""
	}
	if *e.Agrees {
		return "holds here"
	}
	return "does not hold here"
}

func ratioText(r float64) string {
	if r == 0 {
		return "-"
	}
	return fmt.Sprintf("x%.2f", r)
}

// measuredNum is num(v), or "-" when nothing was measured.
func measuredNum(v float64, measured bool) string {
	if !measured {
		return "-"
	}
	return num(v)
}
