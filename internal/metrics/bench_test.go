package metrics

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"testing"
)

// BenchmarkSamplerCPU measures the sampler's own CPU per sampling round against the real
// /proc (host files and, three times, this process's stat and io) and three metrics
// endpoints serving a real broker's exporter output. It reports the CPU of one round and
// that cost as a percentage of one core at the default one-second interval, which must stay
// under 1%. The in-process HTTP servers' CPU is included, so the figure is an upper bound.
func BenchmarkSamplerCPU(b *testing.B) {
	if runtime.GOOS != "linux" {
		b.Skip("needs Linux /proc")
	}
	body, err := os.ReadFile("testdata/jmx-exporter.txt")
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write(body) }))
	defer srv.Close()
	var brokers []BrokerTarget
	for id := 1; id <= 3; id++ {
		brokers = append(brokers, BrokerTarget{ID: id, PID: os.Getpid(), MetricsURL: srv.URL})
	}
	s, err := NewSampler(SamplerConfig{Proc: "/proc", Brokers: brokers})
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	s.sample(ctx) // warm the HTTP connections
	rounds := max(b.N, 20)
	b.ResetTimer()
	start := processCPU()
	for range rounds {
		s.sample(ctx)
	}
	cpu := processCPU() - start
	b.StopTimer()
	perRound := cpu.Seconds() / float64(rounds)
	b.ReportMetric(perRound*1e6, "cpu-µs/round")
	b.ReportMetric(perRound/s.cfg.Interval.Seconds()*100, "%core@1s")
	if got := s.Snapshot(); got.Brokers[0].Errors != 0 || len(got.Host) == 0 {
		b.Fatalf("sampling failed: %+v", got.Brokers[0].LastError)
	}
}
