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
// shows of them, from the run directory's own figures (the median over valid repeats): fewer
// broker samples than study.MinBrokerSamples (one broker's rows in the window), or fewer
// acknowledged records than a p99.9 needs (study.MinPercentileRecords).
func windowNote(rows []Row) string {
	var short []string
	for _, r := range rows {
		var samples, records, secs []float64
		for _, rep := range r.repeatsForPlot {
			if n := brokerSamples(rep); n > 0 {
				samples = append(samples, float64(n))
			}
			if rep.Summary.RecordsAcked > 0 {
				records = append(records, float64(rep.Summary.RecordsAcked))
			}
			secs = append(secs, rep.Summary.Elapsed)
		}
		var why []string
		if len(samples) > 0 {
			if n := stats.Median(samples); n < study.MinBrokerSamples {
				why = append(why, fmt.Sprintf("%.0f broker samples", n))
			}
		}
		if len(records) > 0 {
			if n := stats.Median(records); n < study.MinPercentileRecords {
				why = append(why, fmt.Sprintf("%s records (a p99.9 needs %s)", num(n), num(study.MinPercentileRecords)))
			}
		}
		if len(why) > 0 {
			short = append(short, fmt.Sprintf("%s (%.1f s: %s)", r.ID, stats.Median(secs), strings.Join(why, ", ")))
		}
	}
	if len(short) == 0 {
		return ""
	}
	sort.Strings(short)
	return fmt.Sprintf("Measured windows too short for what they measure: %s. Their broker figures rest on few samples and their p99.9 on few records; lengthen the scenarios' records or duration.",
		strings.Join(short, "; "))
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
