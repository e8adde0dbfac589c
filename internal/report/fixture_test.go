package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/results"
)

// fixture describes a synthetic study run: a model of how the parameters drive the rate,
// from which seeded noise produces every repeat. No expected number is written by hand: the
// tests derive what they check from this model or from the files it writes.
type fixture struct {
	seed      uint64
	batches   []int // batch.size values
	replicas  []int
	repeats   int
	brokers   int
	seconds   int
	noise     float64        // relative noise of the rate between repeats
	invalid   map[string]int // scenario ID -> repeat written as invalid
	start     time.Time
	reference bool
}

func defaultFixture() fixture {
	return fixture{
		seed: 42, batches: []int{1024, 16384, 65536}, replicas: []int{1, 3}, repeats: 3, brokers: 3,
		seconds: 12, noise: 0.03, invalid: map[string]int{"b65536-r3": 2},
		start: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC), reference: true,
	}
}

func scenarioID(batch, replicas int) string { return fmt.Sprintf("b%d-r%d", batch, replicas) }

// trueRate is the fixture's model: the rate grows with the batch size (with diminishing
// returns) and falls with replication.
func trueRate(batch, replicas int) float64 {
	return 20000 * math.Sqrt(float64(batch)/1024) / (1 + 0.3*float64(replicas-1))
}

// write builds the run directory under t.TempDir and returns its path.
func (f fixture) write(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(f.seed, f.seed^0x9e3779b97f4a7c15))
	dir, err := results.Create(t.TempDir(), f.start, "fixture")
	if err != nil {
		t.Fatal(err)
	}
	run := &results.Run{
		KbenchVersion: "v0.0.0-test",
		Study:         results.Study{Name: "fixture", Title: "Producer rate and broker CPU by batch size and replication", Notes: "A synthetic study for tests."},
		Status:        results.Status{State: results.Complete},
		Started:       f.start,
		Order:         &results.Order{Kind: "interleaved", Seed: 42},
		Hypotheses: []string{
			"throughput(batch.size=16384,replicas=1) > 2 x throughput(batch.size=1024,replicas=1)",
			"throughput(batch.size=1024,replicas=3) < throughput(batch.size=1024,replicas=1)",
			// b65536-r3's repeat 2 is invalid: round 2 is incomplete, 2 rounds remain
			"max(p99(batch.size=65536)) ~ max(p99(batch.size=16384)) within 5%",
			"throughput(batch.size=nope) > 1",
		},
		Environment: results.Environment{
			KbenchVersion: "v0.0.0-test", KafkaVersion: "4.1.1", GoVersion: "go1.26", Cluster: results.Embedded,
			Brokers: f.brokers, Security: "PLAINTEXT", BrokerCPUs: 1,
			BrokerConfig:    map[string]string{"num.network.threads": "3", "log.flush.interval.messages": "9223372036854775807"},
			ClientPlacement: "same host as the brokers",
			Host:            results.Host{CPUModel: "Synthetic CPU", Cores: 8, MemoryBytes: 16 << 30, Kernel: "Linux 6.1.0", Arch: "amd64", Disks: []string{"nvme0n1 ssd 512 GiB"}},
		},
	}
	if f.reference {
		run.Reference = &results.Reference{
			Source: "a synthetic white paper, Table 1",
			Figures: map[string]map[string]float64{
				scenarioID(1024, 1):  {"records_per_sec": 37697, "broker_cpu_pct": 54},
				scenarioID(16384, 1): {"records_per_sec": 102399, "broker_cpu_pct": 26},
				scenarioID(1024, 3):  {"records_per_sec": 30000},
				scenarioID(16384, 3): {"records_per_sec": 25000},
			},
			Notes: []string{"a larger batch.size raises the production rate and lowers broker CPU"},
		}
	}
	clock := f.start
	for _, rep := range f.replicas {
		for _, b := range f.batches {
			id := scenarioID(b, rep)
			run.Scenarios = append(run.Scenarios, results.Scenario{
				ID:      id,
				Params:  []results.Param{{Name: "batch.size", Value: strconv.Itoa(b)}, {Name: "replicas", Value: strconv.Itoa(rep)}},
				Repeats: f.repeats,
			})
			for n := 1; n <= f.repeats; n++ {
				r := f.repeat(rng, id, n, b, rep, clock)
				clock = r.Finished
				if err := results.WriteRepeat(dir, &r); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	run.Finished = clock
	if err := results.WriteRun(dir, run); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteStudy(dir, []byte("name: fixture\n")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func (f fixture) repeat(rng *rand.Rand, id string, n, batch, replicas int, start time.Time) results.Repeat {
	elapsed := float64(f.seconds)
	rate := trueRate(batch, replicas) * (1 + f.noise*(2*rng.Float64()-1))
	valid := results.Validity{Valid: true}
	if f.invalid[id] == n {
		rate *= 0.5
		valid = results.Validity{Valid: false, Reasons: []string{"missed the target rate: 50% of the records/s of the other repeats"}}
	}
	acked := int64(rate * elapsed)
	// Latency: log-normal around a median that shrinks as batches grow.
	medianMs := 40 / math.Sqrt(float64(batch)/1024) * float64(replicas)
	samples := make([]float64, 4000)
	for i := range samples {
		samples[i] = medianMs * math.Exp(0.6*rng.NormFloat64())
	}
	buckets, lat := histogram(samples)
	cpuPct := 50 / math.Sqrt(float64(batch)/1024) * (1 + 0.4*float64(replicas-1))
	var series []results.SeriesRow
	for s := 1; s <= f.seconds; s++ {
		for b := 1; b <= f.brokers; b++ {
			v := cpuPct * (1 + 0.08*rng.NormFloat64())
			series = append(series, results.SeriesRow{T: float64(s), Broker: strconv.Itoa(b),
				Fields: map[string]float64{results.FieldCPUPct: v, results.FieldCPUCores: v / 100}})
		}
		series = append(series, results.SeriesRow{T: float64(s), Broker: results.HostSeries,
			Fields: map[string]float64{results.FieldHostCPUPct: cpuPct * 0.5}})
	}
	clientCPU := 0.2 * elapsed * (1 + 0.1*rng.Float64())
	return results.Repeat{
		Scenario: id, Repeat: n, Started: start, Finished: start.Add(time.Duration(f.seconds+5) * time.Second),
		Workload: results.Workload{Kind: "produce", RecordSize: 1024, Duration: elapsed, Warmup: 5, Throughput: -1, Producers: 1,
			ProducerProps: map[string]string{"acks": "1", "batch.size": strconv.Itoa(batch), "linger.ms": "0"}},
		Topic:          results.Topic{Name: fmt.Sprintf("kbench-%s-%d", id, n), Partitions: 3, Replicas: replicas, Configs: map[string]string{"min.insync.replicas": "1"}},
		ProducerConfig: map[string]string{"acks": "1", "batch.size": strconv.Itoa(batch), "linger.ms": "0", "sasl.jaas.config": "must not appear"},
		Summary: results.Summary{
			RecordsAcked: acked, Bytes: acked * 1024, Elapsed: elapsed,
			RecordsPerSec: rate, MiBPerSec: rate * 1024 / (1 << 20), Latency: lat,
			ClientCPUSeconds: clientCPU, ClientCPUPerMillion: clientCPU / (float64(acked) / 1e6),
		},
		Latency:       map[string][]results.Bucket{results.LatencyDue: buckets},
		Brokers:       series,
		BrokerSummary: results.Summarize(series),
		Validity:      valid,
	}
}

// histogram buckets samples (ms) on 10%-wide bounds in microseconds and summarises them.
func histogram(samples []float64) ([]results.Bucket, results.Latency) {
	sort.Float64s(samples)
	q := func(p float64) float64 {
		return samples[min(len(samples)-1, int(math.Ceil(p*float64(len(samples))))-1)]
	}
	var sum float64
	for _, s := range samples {
		sum += s
	}
	lat := results.Latency{Count: int64(len(samples)), AvgMs: sum / float64(len(samples)),
		P50Ms: q(0.5), P90Ms: q(0.9), P95Ms: q(0.95), P99Ms: q(0.99), P999Ms: q(0.999), P9999Ms: q(0.9999), MaxMs: samples[len(samples)-1]}
	var buckets []results.Bucket
	bound := 100.0
	for _, s := range samples {
		for s*1000 > bound {
			bound *= 1.1
		}
		if len(buckets) == 0 || buckets[len(buckets)-1].UpperUs != int64(bound) {
			buckets = append(buckets, results.Bucket{UpperUs: int64(bound)})
		}
		buckets[len(buckets)-1].Count++
	}
	return buckets, lat
}
