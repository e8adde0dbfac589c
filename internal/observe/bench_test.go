package observe

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

// BenchmarkOneSecondLive is what watching costs kbench per second of a run: one producers'
// tick of 50,000 records (latencies spread over 1-100 ms) into the series, one Prometheus
// scrape encoded as text, and one poll of the page. Its time per op, against the client's
// CPU per second at that rate, is the overhead of --web and --metrics-addr.
func BenchmarkOneSecondLive(b *testing.B) {
	s := New()
	s.Begin(Scenario{Study: "bench", ID: "sc", Repeat: 1, Offered: 50000})
	rng := rand.New(rand.NewPCG(1, 2))
	tick := metrics.NewHistogram()
	for range 50000 {
		tick.Record(time.Millisecond + time.Duration(rng.ExpFloat64()*float64(5*time.Millisecond)))
	}
	t := load.Tick{Acked: 50000, RecordsPerSec: 50000, DueHistogram: tick, SendHistogram: tick, DueLatency: tick.Summary()}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		t.TotalAcked = int64(i+1) * 50000
		s.ProduceTick(t, nil)
		families, err := s.Registry().Gather()
		if err != nil {
			b.Fatal(err)
		}
		enc := expfmt.NewEncoder(io.Discard, expfmt.NewFormat(expfmt.TypeTextPlain))
		for _, f := range families {
			if err := enc.Encode(f); err != nil {
				b.Fatal(err)
			}
		}
		if err := json.NewEncoder(io.Discard).Encode(s.Snapshot(i)); err != nil {
			b.Fatal(err)
		}
	}
}
