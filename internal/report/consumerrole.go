package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/kbench/kbench/internal/results"
)

// CatchUpRow is one repeat's catch-up read (consumers.backlog): the drain and what it cost
// the producers and the brokers.
type CatchUpRow struct {
	ID     string `json:"scenario"`
	Repeat int    `json:"repeat"`
	results.CatchUp
	// ExpectedDrainSeconds is BacklogRecords / (consume rate - produce rate): the drain the
	// recorded rates imply, beside the one timed (0 when the consumers did not outrun the
	// producers).
	ExpectedDrainSeconds float64 `json:"expected_drain_s,omitempty"`
	// ServedBytes and DiskReadBytes add up the brokers that had each counter; PageCacheShare
	// is 1 - DiskReadBytes / ServedBytes over the brokers that had both (nil without).
	ServedBytes    *float64 `json:"served_bytes,omitempty"`
	DiskReadBytes  *float64 `json:"disk_read_bytes,omitempty"`
	PageCacheShare *float64 `json:"page_cache_share,omitempty"`
}

// catchUpRows lists every repeat's catch-up read, in scenario then repeat order.
func catchUpRows(rd *results.RunDir) []CatchUpRow {
	var out []CatchUpRow
	for _, sc := range rd.Run.Scenarios {
		for _, rep := range rd.Repeats[sc.ID] {
			if rep.CatchUp == nil {
				continue
			}
			row := CatchUpRow{ID: sc.ID, Repeat: rep.Repeat, CatchUp: *rep.CatchUp}
			if d := row.ConsumeRecordsPerSec - row.ProduceRecordsPerSec; row.CaughtUp && d > 0 {
				row.ExpectedDrainSeconds = float64(row.BacklogRecords) / d
			}
			var served, disk, servedBoth float64
			var anyServed, anyDisk, both bool
			for _, b := range row.Brokers {
				if b.ServedBytes != nil {
					served, anyServed = served+*b.ServedBytes, true
				}
				if b.DiskBytes != nil {
					disk, anyDisk = disk+*b.DiskBytes, true
				}
				if b.ServedBytes != nil && b.DiskBytes != nil {
					servedBoth, both = servedBoth+*b.ServedBytes, true
				}
			}
			if anyServed {
				row.ServedBytes = &served
			}
			if anyDisk {
				row.DiskReadBytes = &disk
			}
			if both && servedBoth > 0 {
				share := max(0, 1-disk/servedBoth)
				row.PageCacheShare = &share
			}
			out = append(out, row)
		}
	}
	return out
}

// catchUpIntro explains the catch-up table, and what the brokers' counters can tell.
const catchUpIntro = "A catch-up read: the producers wrote the backlog alone at their paced rate, then the consumers started at the earliest offset while the producers kept that rate. " +
	"The drain runs from the consumers' start (joining the group included) until the records they read were fresh: the p99 end-to-end latency of a 200 ms tick of their records under the lag threshold (lag_threshold_ms in the repeat file). The producers stopped a few seconds after. " +
	"Consumers' and producers' records/s are over the drain; backlog / (consumers - producers) is the drain those rates imply, a check on the timed one. " +
	"The producers' due-time p99 is from the end of the warm-up to the consumers' start (before) and over the drain (during). " +
	"The brokers' reads: what they served to consumers and followers (Kafka's BytesOut and ReplicationBytesOut) against what their processes caused to be read from storage (/proc/<pid>/io read_bytes); the rest came from the page cache, as far as these counters tell (the share is over the brokers with both counters). " +
	"They cannot tell more: read_bytes counts reads the process started, readahead included, so a page read ahead and never served counts too; it is zero on tmpfs and unknown for brokers kbench has no PID of (an external cluster); " +
	"and a backlog smaller than the free memory is read from the page cache whatever the disk (the host's page cache size is in the broker series). The host's disk reads (/proc/diskstats) include every process on the host."

// catchUpTable is the catch-up section's table.
func catchUpTable(m *Model) textTable {
	t := textTable{Head: []string{"Scenario", "repeat", "backlog", "drain s", "consumers records/s", "consumers MiB/s", "producers records/s",
		"backlog / (consumers - producers) s", "producer p99 before ms", "producer p99 during ms", "brokers served MiB", "read from storage MiB", "from page cache", "host disk reads MiB", "note"},
		Numeric: []bool{false, true, true, true, true, true, true, true, true, true, true, true, true, true, false}}
	opt := func(v *float64, scale float64) string {
		if v == nil {
			return "-"
		}
		return num(*v / scale)
	}
	lat := func(l *results.Latency) string {
		if l == nil {
			return "-"
		}
		return num(l.P99Ms)
	}
	for _, r := range m.CatchUp {
		drain, expected, share := "-", "-", "-"
		if r.CaughtUp {
			drain = num(r.DrainSeconds)
		}
		if r.ExpectedDrainSeconds > 0 {
			expected = num(r.ExpectedDrainSeconds)
		}
		if r.PageCacheShare != nil {
			share = fmt.Sprintf("%.0f%%", *r.PageCacheShare*100)
		}
		t.Rows = append(t.Rows, []string{r.ID, fmt.Sprint(r.Repeat), fmt.Sprintf("%s MiB (%s records)", num(float64(r.BacklogBytes)/(1<<20)), whole(r.BacklogRecords)),
			drain, num(r.ConsumeRecordsPerSec), num(r.ConsumeMiBPerSec), num(r.ProduceRecordsPerSec), expected,
			lat(r.Before), lat(r.During), opt(r.ServedBytes, 1<<20), opt(r.DiskReadBytes, 1<<20), share, opt(r.HostDiskReadBytes, 1<<20), r.Note})
	}
	return t
}

// ShareRow is one repeat's share consumers (consumers.share_group).
type ShareRow struct {
	ID     string `json:"scenario"`
	Repeat int    `json:"repeat"`
	results.Share
	RedeliveredShare float64 `json:"redelivered_share"`
}

// shareRows lists every repeat's share consumers, in scenario then repeat order.
func shareRows(rd *results.RunDir) []ShareRow {
	var out []ShareRow
	for _, sc := range rd.Run.Scenarios {
		for _, rep := range rd.Repeats[sc.ID] {
			if rep.Share != nil {
				out = append(out, ShareRow{ID: sc.ID, Repeat: rep.Repeat, Share: *rep.Share, RedeliveredShare: rep.Share.RedeliveredShare()})
			}
		}
	}
	return out
}

// shareIntro explains the share-group table.
const shareIntro = "The scenario's consumers were one share group (KIP-932), created for each repeat and deleted after: any number of consumers read the same partitions, each record acquired by one of them at a time and acknowledged. " +
	"Delivered counts every delivery, distinct the records delivered at least once; a redelivery is a delivery with a delivery count above 1: a record a consumer released, or one whose acquisition lock expired or whose holder left (unreleased). " +
	"The results tables count deliveries as the consumers' records."

// shareTable is the share-group section's table.
func shareTable(m *Model) textTable {
	t := textTable{Head: []string{"Scenario", "repeat", "consumers", "acknowledgement", "release / reject asked", "delivered", "distinct", "redelivered", "of them unreleased", "max delivery count", "accepted / released / rejected", "deliveries/s", "MiB/s"},
		Numeric: []bool{false, true, true, false, false, true, true, true, true, true, false, true, true}}
	for _, r := range m.Share {
		t.Rows = append(t.Rows, []string{r.ID, fmt.Sprint(r.Repeat), fmt.Sprint(r.Consumers), r.Acknowledgement,
			fmt.Sprintf("%s / %s", pctOf(r.Release), pctOf(r.Reject)), whole(r.Delivered), whole(r.Distinct),
			fmt.Sprintf("%s (%s)", whole(r.Redelivered), pctOf(r.RedeliveredShare)), whole(r.Unreleased), fmt.Sprint(r.MaxDeliveryCount),
			fmt.Sprintf("%s / %s / %s", whole(r.Accepted), whole(r.Released), whole(r.Rejected)), num(r.RecordsPerSec), num(r.MiBPerSec)})
	}
	return t
}

// pctOf formats a share as a percentage with up to two decimals: "1%", "0.25%".
func pctOf(v float64) string {
	return strconv.FormatFloat(math.Round(v*10000)/100, 'f', -1, 64) + "%"
}

// shareCommands reproduce a consume-only scenario's share consumers with kbench and with
// Kafka's share-consumer perf tool (4.2 spelling), which has no release or reject share.
func shareCommands(r results.Repeat, numRecords int64) (kbench, tool string) {
	s := r.Share
	common := fmt.Sprintf("--bootstrap-server %s --topic %s", bootstrapVar, r.Topic.Name)
	kbench = fmt.Sprintf("kbench consume %s --messages %d --share-group %s --consumers %d --share-acknowledgement %s", common, numRecords, s.Group, s.Consumers, s.Acknowledgement)
	if s.Release > 0 {
		kbench += " --release-share " + strconv.FormatFloat(s.Release, 'g', -1, 64)
	}
	if s.Reject > 0 {
		kbench += " --reject-share " + strconv.FormatFloat(s.Reject, 'g', -1, 64)
	}
	tool = fmt.Sprintf("kafka-share-consumer-perf-test.sh %s --group %s --num-records %d --threads %d", common, s.Group, numRecords, s.Consumers)
	if s.Release > 0 || s.Reject > 0 {
		tool = "# Kafka's tool accepts every record: no release or reject share\n" + tool
	}
	return kbench, tool
}
