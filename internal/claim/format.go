package claim

import (
	"math"
	"strconv"

	"github.com/kbench/kbench/internal/numfmt"
)

// formatNumber renders n for people: integers with thousands separators from 1000 up,
// three significant figures below.
func formatNumber(n float64) string {
	a := math.Abs(n)
	switch {
	case a >= 1000:
		return numfmt.Whole(n)
	case a == math.Trunc(a):
		return strconv.FormatFloat(n, 'f', -1, 64)
	default:
		return strconv.FormatFloat(n, 'g', 3, 64)
	}
}

// formatRatio renders a ratio with two decimals, as "2.59".
func formatRatio(r float64) string { return strconv.FormatFloat(r, 'f', 2, 64) }
