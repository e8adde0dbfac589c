package report

import (
	"sort"

	"github.com/kbench/kbench/internal/results"
)

// referenceOrder is the order figures appear in; others follow alphabetically.
var referenceOrder = []string{"records_per_sec", "mb_per_sec", "avg", "p50", "p95", "p99", "p999", "max", "broker_cpu_pct", "broker_cpu"}

// references sets each published figure beside our median for the same scenario.
func references(ref *results.Reference, rows []Row) ([]ReferenceRow, string, []string) {
	if ref == nil {
		return nil, "", nil
	}
	rank := map[string]int{}
	for i, n := range referenceOrder {
		rank[n] = i + 1
	}
	var out []ReferenceRow
	for _, row := range rows {
		figs := ref.Figures[row.ID]
		names := make([]string, 0, len(figs))
		for n := range figs {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool {
			ri, rj := rank[names[i]], rank[names[j]]
			if ri == 0 || rj == 0 || ri == rj {
				if ri != rj {
					return ri != 0
				}
				return names[i] < names[j]
			}
			return ri < rj
		})
		for _, n := range names {
			rr := ReferenceRow{Scenario: row.ID, Figure: n, Source: figs[n]}
			if s := statOfMetric(row.repeatsForPlot, n); s.N > 0 {
				rr.Ours, rr.Measured = s.Median, true
				if rr.Source != 0 {
					rr.Ratio = rr.Ours / rr.Source
				}
			}
			out = append(out, rr)
		}
	}
	return out, ref.Source, ref.Notes
}
