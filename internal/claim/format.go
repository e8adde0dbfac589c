package claim

import (
	"math"
	"strconv"
	"strings"
)

// formatNumber renders n for people: integers with thousands separators from 1000 up,
// three significant figures below.
func formatNumber(n float64) string {
	a := math.Abs(n)
	switch {
	case a >= 1000:
		s := strconv.FormatInt(int64(math.Round(a)), 10)
		var b strings.Builder
		if n < 0 {
			b.WriteByte('-')
		}
		for i, r := range s {
			if i > 0 && (len(s)-i)%3 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(r)
		}
		return b.String()
	case a == math.Trunc(a):
		return strconv.FormatFloat(n, 'f', -1, 64)
	default:
		return strconv.FormatFloat(n, 'g', 3, 64)
	}
}

// formatRatio renders a ratio with two decimals, as "2.59".
func formatRatio(r float64) string { return strconv.FormatFloat(r, 'f', 2, 64) }
