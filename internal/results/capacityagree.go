package results

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kbench/kbench/internal/numfmt"
	"github.com/kbench/kbench/internal/stats"
)

// CapacitySearches is kbench capacity --searches N --json with N above one: every search, and
// how far their answers agree, SLO by SLO.
type CapacitySearches struct {
	Searches  []*Capacity         `json:"searches"`
	Agreement []CapacityAgreement `json:"agreement"`
}

// CapacityAgreement is how far repeated searches of one cluster agree on one SLO's answer.
// A search's own bracket says how its trials scatter while it runs, not where the next
// search lands: on the embedded 3-broker cluster here, in 14 bench runs of three searches
// minutes apart, another search's lower end fell inside a search's bracket in 14 of 84
// pairs, and the three lower ends lay a median 22.8% apart. Only searching again measures
// that.
type CapacityAgreement struct {
	SLO CapacitySLO `json:"slo"`
	// Lowers is each search's lower end, in search order (0: it found none).
	Lowers []float64 `json:"lower_ends"`
	// Median is the median of the lower ends found; Apart the highest found over the lowest,
	// less one (0 with fewer than two found).
	Median float64 `json:"median_lower_end"`
	Apart  float64 `json:"apart"`
	// WithinPrecision is true when every search found a lower end and they lie within the
	// precision asked of each search.
	WithinPrecision bool `json:"within_precision"`
}

// Agree compares the searches' lower ends, SLO by SLO (every search has the same SLOs).
func Agree(searches []*Capacity, precision float64) []CapacityAgreement {
	if len(searches) == 0 {
		return nil
	}
	var out []CapacityAgreement
	for i, b := range searches[0].Brackets {
		a := CapacityAgreement{SLO: b.SLO}
		var found []float64
		for _, s := range searches {
			lower := 0.0 // a search that ended before its brackets were made found none
			if i < len(s.Brackets) {
				lower = s.Brackets[i].Lower
			}
			a.Lowers = append(a.Lowers, lower)
			if lower > 0 {
				found = append(found, lower)
			}
		}
		if len(found) > 0 {
			a.Median = stats.Median(found)
			a.Apart = slices.Max(found)/slices.Min(found) - 1
		}
		a.WithinPrecision = len(found) == len(searches) && a.Apart <= precision
		out = append(out, a)
	}
	return out
}

// Text says how far the lower ends lie apart, against the precision asked of each search:
// "3 searches at p99 <= 50 ms: lower ends 58,186, 78,233 and 69,148 records/s (median
// 69,148), 34.5% apart: more than the 5% precision, so on this cluster a search's answer
// moves that far from one run to the next".
func (a CapacityAgreement) Text(precision float64) string {
	head := fmt.Sprintf("%d searches at %s", len(a.Lowers), a.SLO)
	if a.Median == 0 {
		return head + ": none found a lower end"
	}
	ends := make([]string, len(a.Lowers))
	var none []string
	for i, l := range a.Lowers {
		ends[i] = "none"
		if l > 0 {
			ends[i] = numfmt.Whole(l)
		} else {
			none = append(none, strconv.Itoa(i+1))
		}
	}
	s := fmt.Sprintf("%s: lower ends %s records/s", head, andList(ends))
	if len(none) < len(ends)-1 {
		s += fmt.Sprintf(" (median %s), %.1f%% apart", numfmt.Whole(a.Median), 100*a.Apart)
	}
	asked := fmt.Sprintf("the %s%% precision", strconv.FormatFloat(100*precision, 'f', -1, 64))
	switch {
	case len(none) == 1:
		return s + ": search " + none[0] + " found no lower end"
	case len(none) > 1:
		return s + ": searches " + andList(none) + " found no lower end"
	case a.WithinPrecision:
		return s + ": within " + asked
	}
	return s + ": more than " + asked + ", so on this cluster a search's answer moves that far from one run to the next"
}

// Name is the percentile's short name: p99, p999 (99.9), p50.
func (s CapacitySLO) Name() string {
	return "p" + strings.ReplaceAll(strconv.FormatFloat(s.Percentile, 'f', -1, 64), ".", "")
}

// String is the SLO as kbench capacity prints it: "p99 <= 50 ms", "p999 <= 200 ms".
func (s CapacitySLO) String() string {
	return fmt.Sprintf("%s <= %s ms", s.Name(), strconv.FormatFloat(s.LimitMs, 'f', -1, 64))
}

// andList is "a", "a and b", "a, b and c".
func andList(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
