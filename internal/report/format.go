package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/kbench/kbench/internal/numfmt"
)

// num formats a number for reading: thousands separators for large values, three
// significant digits for small ones.
func num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case v == 0:
		return "0"
	case abs(v) >= 1000:
		return group(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
	case abs(v) >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case abs(v) >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case abs(v) >= 1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		// Three significant digits without an exponent: a reader gets 0.0000111, not 1.11e-05.
		decimals := 2 - int(math.Floor(math.Log10(abs(v))))
		out := strconv.FormatFloat(v, 'f', decimals, 64)
		return strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
}

// group inserts thousands separators into an integer string.
func group(s string) string { return numfmt.Digits(s) }

// pct formats a relative change as a signed percentage: "+12%", "-52%".
func pct(r float64) string {
	return fmt.Sprintf("%+.0f%%", r*100)
}

// statText renders a stat as "median" or "median +/-4%" when it has a spread, "-" when empty.
func statText(s Stat) string {
	if s.N == 0 {
		return "-"
	}
	if sp := s.Spread(); sp > 0 {
		return fmt.Sprintf("%s ±%.0f%%", num(s.Median), sp*100)
	}
	return num(s.Median)
}

// medianText renders only the median of a stat.
func medianText(s Stat) string {
	if s.N == 0 {
		return "-"
	}
	return num(s.Median)
}

// spreadText renders the spread of a stat ("±4%"), "-" with fewer than two repeats.
func spreadText(s Stat) string {
	if s.N < 2 {
		return "-"
	}
	return fmt.Sprintf("±%.1f%%", s.Spread()*100)
}
