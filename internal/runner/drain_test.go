package runner

import (
	"testing"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

func TestSendRate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stats load.ProduceStats
		want  float64
	}{
		// 1000 records due over 2 s, the last one acknowledged 0.5 s later: on pace.
		{"kept pace", load.ProduceStats{Acked: 1000, ElapsedSeconds: 2.5, RecordsPerSec: 400,
			SendLatency: metrics.LatencySummary{P50Us: 500_000}}, 500},
		// The same records went out over 4 s: the producer fell behind.
		{"fell behind", load.ProduceStats{Acked: 1000, ElapsedSeconds: 4.5, RecordsPerSec: 222,
			SendLatency: metrics.LatencySummary{P50Us: 500_000}}, 250},
		// Latency is most of the window: no correction, the load's own rate.
		{"latency dominates", load.ProduceStats{Acked: 1000, ElapsedSeconds: 2, RecordsPerSec: 500,
			SendLatency: metrics.LatencySummary{P50Us: 1_500_000}}, 500},
		{"nothing acknowledged", load.ProduceStats{}, 0},
	} {
		if got := sendRate(tc.stats); got != tc.want {
			t.Errorf("%s: sendRate = %v, want %v", tc.name, got, tc.want)
		}
	}
}
