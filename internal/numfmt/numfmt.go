// Package numfmt writes numbers for people the one way every kbench output does: whole
// numbers with thousands separators (41,200), as the report, the claims' sentences and the
// command lines print them.
package numfmt

import (
	"math"
	"strconv"
	"strings"
)

// Whole writes v rounded to a whole number with thousands separators: 41200.4 -> "41,200".
func Whole(v float64) string {
	return Digits(strconv.FormatFloat(math.Round(v), 'f', 0, 64))
}

// Digits inserts thousands separators into an integer written in decimal, keeping its sign:
// "-1234567" -> "-1,234,567".
func Digits(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
