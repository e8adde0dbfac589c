// One console line per broker: what it paid for the load.

package metrics

import (
	"fmt"
	"strings"
)

// mib is the unit of MB/s in kbench's output, as in Kafka's own perf tools.
const mib = 1024 * 1024

// FormatBrokerLines renders one line per broker of s: CPU (mean and max cores, and mean % of
// the allotment), disk write and read, network in and out (clients plus replication, with
// replication also named apart) and RSS, each part only when measured. For example:
//
//	broker 1: cpu 0.84 cores avg, 1.02 max (42.0% of 2); disk write 12.50 MB/s, read 0.00 MB/s; net in 10.00 MB/s, out 20.00 MB/s (replication in 5.00, out 5.00); rss 612.0 MB
func FormatBrokerLines(s Summary) []string {
	lines := make([]string, 0, len(s.Brokers))
	for _, b := range s.Brokers {
		f := b.Fields
		mean := func(name string) (float64, bool) { st, ok := f[name]; return st.Mean, ok }
		var parts []string
		if c, ok := f[FieldCPUCores]; ok {
			p := fmt.Sprintf("cpu %.2f cores avg, %.2f max", c.Mean, c.Max)
			if pct, ok := mean(FieldCPUPercent); ok && b.CPUAllotment > 0 {
				p += fmt.Sprintf(" (%.1f%% of %g)", pct, b.CPUAllotment)
			}
			parts = append(parts, p)
		}
		w, okW := mean(FieldDiskWriteBytesSec)
		r, okR := mean(FieldDiskReadBytesSec)
		if okW || okR {
			parts = append(parts, fmt.Sprintf("disk write %.2f MB/s, read %.2f MB/s", w/mib, r/mib))
		}
		in, okIn := mean(FieldBytesInSec)
		out, okOut := mean(FieldBytesOutSec)
		repIn, okRIn := mean(FieldReplicationBytesInSec)
		repOut, okROut := mean(FieldReplicationBytesOutSec)
		if okIn || okOut || okRIn || okROut {
			p := fmt.Sprintf("net in %.2f MB/s, out %.2f MB/s", (in+repIn)/mib, (out+repOut)/mib)
			if okRIn || okROut {
				p += fmt.Sprintf(" (replication in %.2f, out %.2f)", repIn/mib, repOut/mib)
			}
			parts = append(parts, p)
		}
		if rss, ok := mean(FieldRSSBytes); ok {
			parts = append(parts, fmt.Sprintf("rss %.1f MB", rss/mib))
		}
		if len(parts) == 0 {
			parts = append(parts, "no metrics")
		}
		lines = append(lines, fmt.Sprintf("broker %d: %s", b.ID, strings.Join(parts, "; ")))
	}
	return lines
}
