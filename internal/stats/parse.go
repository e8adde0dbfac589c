package stats

import (
	"strconv"
	"strings"
)

// ParsePercentile reads a percentile's short name: p50, p99, p999 (99.9), p9999 (99.99) or
// p99.9; without a decimal point the digits after the first two are decimals. It reports
// false for anything that is not a percentile above 0 and below 100.
func ParsePercentile(name string) (float64, bool) {
	digits, ok := strings.CutPrefix(name, "p")
	if !ok || digits == "" {
		return 0, false
	}
	if !strings.Contains(digits, ".") && len(digits) > 2 {
		if digits[0] == '1' {
			return 0, false // p100 and above: no decimals can make them a percentile below 100
		}
		digits = digits[:2] + "." + digits[2:]
	}
	p, err := strconv.ParseFloat(digits, 64)
	if err != nil || p <= 0 || p >= 100 {
		return 0, false
	}
	return p, true
}

// ParseFraction reads a fraction strictly between 0 and 1 written as a percentage ("5%") or
// a number ("0.05"). It reports false for anything else.
func ParseFraction(s string) (float64, bool) {
	t := strings.TrimSpace(s)
	pct := strings.HasSuffix(t, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(t, "%"), 64)
	if pct {
		v /= 100
	}
	if err != nil || v <= 0 || v >= 1 {
		return 0, false
	}
	return v, true
}
