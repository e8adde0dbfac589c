package results

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/kbench/kbench/internal/rebalance"
)

// Rebalance is what a repeat's membership events cost the application, event by event: the
// figures of rebalance.Analyze over the log kept beside the repeat (RebalanceLogPath), so
// they can be computed again from the run directory.
type Rebalance struct {
	// Protocol is the consumers' group.protocol (classic or consumer).
	Protocol   string `json:"group_protocol"`
	Partitions int    `json:"partitions"`
	// WindowSeconds is the span of the end-to-end p99 before and after each event.
	WindowSeconds float64 `json:"window_s"`
	// WarmupSeconds is how long the consumers ran before the measured window: an event's
	// at_s less this is its time in the window, as the schedule gives it.
	WarmupSeconds float64 `json:"warmup_s"`
	// Records is how many consumed records the log holds; Truncated says it stopped at
	// rebalance.MaxRecords, so later events' figures miss records.
	Records   int                 `json:"records"`
	Truncated bool                `json:"truncated,omitempty"`
	Events    []rebalance.Figures `json:"events"`
	// Coordinator is, event by event (same order as Events), what the brokers' group
	// coordinators reported over the event's span, from the repeat's broker rows; absent
	// when no broker was sampled.
	Coordinator []CoordinatorSpan `json:"coordinator,omitempty"`
}

// NewRebalance computes a repeat's figures from its log and, when the repeat has broker
// rows, the coordinators' view of each event from them; rowsOrigin is the rows' T origin in
// seconds after the measured window's start, interval the sampling interval.
func NewRebalance(log *rebalance.Log, protocol string, warmup float64, rows []SeriesRow, rowsOrigin, interval float64) *Rebalance {
	rb := &Rebalance{Protocol: protocol, Partitions: log.Partitions, WindowSeconds: rebalance.DefaultWindow.Seconds(),
		WarmupSeconds: warmup, Records: log.Records.Len(), Truncated: log.Truncated,
		Events: rebalance.Analyze(*log, rebalance.DefaultWindow)}
	if len(rows) > 0 && len(rb.Events) > 0 {
		starts := make([]float64, len(rb.Events))
		for i, f := range rb.Events {
			starts[i] = f.AtS - warmup - rowsOrigin
		}
		rb.Coordinator = CoordinatorSpans(rows, starts, interval)
	}
	return rb
}

// RebalanceLogPath returns the path of the membership-event log of repeat n of scenario id:
// every assignment and every consumed record's partition, offset and times (gzip JSON).
func RebalanceLogPath(dir, id string, n int) string {
	return filepath.Join(dir, ScenariosDir, id, fmt.Sprintf("rebalance-%d.json.gz", n))
}

// WriteRebalanceLog writes a repeat's membership-event log.
func WriteRebalanceLog(dir, id string, n int, log *rebalance.Log) error {
	path := RebalanceLogPath(dir, id, n)
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if err := json.NewEncoder(zw).Encode(log); err != nil {
		return fmt.Errorf("unable to encode %s: %w", path, err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("unable to compress %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("unable to write %s: %w", path, err)
	}
	return WriteFileAtomic(path, b.Bytes())
}

// ReadRebalanceLog reads a repeat's membership-event log.
func ReadRebalanceLog(dir, id string, n int) (*rebalance.Log, error) {
	path := RebalanceLogPath(dir, id, n)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("unable to read %s: %w", path, err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("unable to read %s: %w", path, err)
	}
	var log rebalance.Log
	if err := json.NewDecoder(zr).Decode(&log); err != nil {
		return nil, fmt.Errorf("unable to decode %s: %w", path, err)
	}
	return &log, nil
}
