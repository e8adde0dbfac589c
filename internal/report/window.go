package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/stats"
	"github.com/kbench/kbench/internal/study"
)

// windowNote flags the scenarios whose measured windows were too short for what the report
// shows of them, by the rule the dry run applies (study.WindowShortfalls) to the run
// directory's own figures, each the median over the valid repeats: one broker's samples in
// the window, and the acknowledged records behind the latency percentiles of a scenario
// that produced.
func windowNote(rows []Row) string {
	var short []string
	for _, r := range rows {
		if why := rowWindowShortfalls(r); why != "" {
			short = append(short, fmt.Sprintf("%s (%.1f s: %s)", r.ID, windowSeconds(r), why))
		}
	}
	if len(short) == 0 {
		return ""
	}
	sort.Strings(short)
	return fmt.Sprintf("Measured windows too short for what they measure: %s. Their broker figures rest on few samples and their p99.9 on few records; lengthen the scenarios' records or duration.",
		strings.Join(short, "; "))
}

// rowWindowShortfalls says why the row's measured windows were too short, "" when they were
// long enough or held no figures to judge (a run without broker metrics is flagged
// elsewhere).
func rowWindowShortfalls(r Row) string {
	var samples, latencies []float64
	for _, rep := range r.repeatsForPlot {
		if n := brokerSamples(rep); n > 0 {
			samples = append(samples, float64(n))
		}
		if n := rep.Summary.RecordsAcked; n > 0 && r.Kind != "consume" {
			latencies = append(latencies, float64(n))
		}
	}
	n := study.MinBrokerSamples // no samples: nothing to flag
	if len(samples) > 0 {
		n = int(stats.Median(samples))
	}
	var records int64
	if len(latencies) > 0 {
		records = int64(stats.Median(latencies))
	}
	return strings.Join(study.WindowShortfalls(n, records), ", ")
}

// windowSeconds is the median length of the row's measured windows.
func windowSeconds(r Row) float64 {
	var secs []float64
	for _, rep := range r.repeatsForPlot {
		secs = append(secs, rep.Summary.Elapsed)
	}
	if len(secs) == 0 {
		return 0
	}
	return stats.Median(secs)
}

// brokerSamples is how many samples the repeat's window holds for one broker.
func brokerSamples(rep results.Repeat) int {
	n := map[string]int{}
	for _, row := range rep.Brokers {
		if row.Broker != results.HostSeries {
			n[row.Broker]++
		}
	}
	most := 0
	for _, c := range n {
		most = max(most, c)
	}
	return most
}
