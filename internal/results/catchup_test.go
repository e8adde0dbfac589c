package results

import (
	"testing"

	"github.com/kbench/kbench/internal/metrics"
)

// TestDrainReads integrates rows of half-second intervals over [0.75, 1.75]: the rows ending
// at 1.0 and 2.0 s overlap it by 0.25 s, the one at 1.5 s by 0.5 s, the one at 0.5 s not at
// all, so each rate counts for one second (worked out by hand).
func TestDrainReads(t *testing.T) {
	broker := func(T float64, id string, f map[string]float64) SeriesRow {
		return SeriesRow{T: T, Broker: id, Fields: f}
	}
	full := map[string]float64{FieldBytesOutBps: 100, FieldReplicationOutBps: 50, FieldDiskReadBps: 10}
	noDisk := map[string]float64{FieldBytesOutBps: 40}
	host := map[string]float64{metrics.FieldHostDiskReadBytesSec: 1000}
	var rows []SeriesRow
	for _, T := range []float64{0.5, 1.0, 1.5, 2.0} {
		rows = append(rows, broker(T, "1", full), broker(T, "2", noDisk), broker(T, HostSeries, host))
	}
	got := DrainReads(rows, 0.75, 1.75, 0.5)
	if len(got) != 2 || got[0].Broker != "1" || got[1].Broker != "2" {
		t.Fatalf("brokers %+v", got)
	}
	if got[0].ServedBytes == nil || *got[0].ServedBytes != 150 || got[0].DiskBytes == nil || *got[0].DiskBytes != 10 {
		t.Errorf("broker 1: %+v, want 150 served, 10 read", got[0])
	}
	if got[1].ServedBytes == nil || *got[1].ServedBytes != 40 || got[1].DiskBytes != nil {
		t.Errorf("broker 2: %+v, want 40 served, reads unknown", got[1])
	}
	if h := HostDiskReads(rows, 0.75, 1.75, 0.5); h == nil || *h != 1000 {
		t.Errorf("host reads %v, want 1000", h)
	}
	if h := HostDiskReads(rows[:2], 0.75, 1.75, 0.5); h != nil {
		t.Errorf("host reads %v without host rows, want none", *h)
	}
}
