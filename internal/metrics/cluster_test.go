package metrics

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// recordBatchOverhead is the header of a Kafka record batch (DefaultRecordBatch
// RECORD_BATCH_OVERHEAD), which BytesInPerSec counts and franz-go's batch metrics leave out.
const recordBatchOverhead = 61

// batchBytes adds up the bytes of every batch the client got acknowledged.
type batchBytes struct{ bytes, records atomic.Int64 }

func (b *batchBytes) OnProduceBatchWritten(_ kgo.BrokerMetadata, _ string, _ int32, m kgo.ProduceBatchMetrics) {
	b.bytes.Add(int64(m.CompressedBytes + recordBatchOverhead))
	b.records.Add(int64(m.NumRecords))
}

// sampledBytes integrates a per-second field of one broker's rows back into a total.
func sampledBytes(b BrokerSeries, field string, interval float64) float64 {
	total := 0.0
	for i, r := range b.Rows {
		dt := interval
		if i > 0 {
			dt = r.Time.Sub(b.Rows[i-1].Time).Seconds()
		}
		total += r.Values[field] * dt
	}
	return total
}

// startSampling starts s and waits for a row of every broker: the first scrape is the
// counters' baseline, and on a busy host it can land after the load began, whose first
// records the brokers' counters would then hold before the baseline and never count.
func startSampling(ctx context.Context, t *testing.T, s *Sampler) {
	t.Helper()
	s.Start(ctx)
	for sampled := false; !sampled; {
		snap := s.Snapshot()
		sampled = len(snap.Brokers) == len(testCluster.Brokers())
		for _, b := range snap.Brokers {
			sampled = sampled && len(b.Rows) > 0
		}
		select {
		case <-ctx.Done():
			t.Fatal("no broker rows before the load")
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// clusterSampler creates topic on the shared cluster and returns a sampler of its brokers
// (not started).
func clusterSampler(ctx context.Context, t *testing.T, topic string, partitions int32, replicas int16) *Sampler {
	t.Helper()
	adm, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	if _, err := kadm.NewClient(adm).CreateTopic(ctx, partitions, replicas, nil, topic); err != nil {
		t.Fatal(err)
	}
	var targets []BrokerTarget
	for _, b := range testCluster.Brokers() {
		if b.MetricsURL == "" {
			t.Fatalf("broker %d has no metrics URL", b.ID)
		}
		targets = append(targets, BrokerTarget{ID: b.ID, PID: b.PID, MetricsURL: b.MetricsURL, Combined: b.Controller})
	}
	s, err := NewSampler(SamplerConfig{Proc: "/proc", Brokers: targets})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Against the embedded cluster: produce a known volume with franz-go, and check that the
// brokers' BytesInPerSec, summed and integrated, agrees with what the client had
// acknowledged within 5%; that replication is counted apart (two followers per record); and
// that the series has a row per interval per broker.
func TestBrokerMetricsAgreeWithClient(t *testing.T) {
	clustertest.Need(t, testCluster)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	topic := fmt.Sprintf("metrics-bytes-in-%d", time.Now().UnixNano())

	s := clusterSampler(ctx, t, topic, 3, 3)

	counted := &batchBytes{}
	cl, err := kgo.NewClient(
		kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...),
		kgo.DefaultProduceTopic(topic),
		kgo.ProducerBatchCompression(kgo.NoCompression()), // the bytes on the wire are the record bytes
		kgo.WithHooks(counted),
	)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	// One produce before sampling, so the brokers' lazily created meters exist at the baseline.
	if err := cl.ProduceSync(ctx, &kgo.Record{Value: []byte("warm")}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	cl.Flush(ctx)
	counted.bytes.Store(0)
	counted.records.Store(0)
	time.Sleep(2 * time.Second) // let the warm-up's replication finish before the baseline

	startSampling(ctx, t, s)
	time.Sleep(1500 * time.Millisecond)
	value := make([]byte, 1024)
	const records = 40000
	for i := range records {
		cl.Produce(ctx, &kgo.Record{Value: value}, func(_ *kgo.Record, err error) {
			if err != nil {
				t.Errorf("produce: %v", err)
			}
		})
		if i%2000 == 1999 {
			time.Sleep(200 * time.Millisecond) // spread the load over several seconds
		}
	}
	if err := cl.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * time.Second) // followers catch up; the last rows see the end of the load
	series := s.Stop()

	client := float64(counted.bytes.Load())
	var in, repIn float64
	for _, b := range series.Brokers {
		in += sampledBytes(b, FieldBytesInSec, series.IntervalSeconds)
		repIn += sampledBytes(b, FieldReplicationBytesInSec, series.IntervalSeconds)
	}
	t.Logf("client acknowledged %d records, %.0f bytes; brokers' BytesIn %.0f, ReplicationBytesIn %.0f",
		counted.records.Load(), client, in, repIn)
	if math.Abs(in-client)/client > 0.05 {
		t.Errorf("summed BytesInPerSec gives %.0f bytes, the client produced %.0f: off by more than 5%%", in, client)
	}
	// Three replicas: every byte reaches two followers.
	if math.Abs(repIn-2*client)/(2*client) > 0.05 {
		t.Errorf("summed ReplicationBytesInPerSec gives %.0f bytes, want twice the client's %.0f within 5%%", repIn, client)
	}

	// A row per interval per broker, each with CPU from /proc and Kafka's metrics.
	rows := len(series.Host)
	if rows < 5 {
		t.Fatalf("only %d host rows", rows)
	}
	// The rows are one interval apart: over the span of their timestamps, one per interval.
	span := series.Host[rows-1].Time.Sub(series.Host[0].Time).Seconds()
	if perInterval := span / series.IntervalSeconds; math.Abs(perInterval-float64(rows-1)) > 1 {
		t.Errorf("%d rows over %.1f s at %g s intervals", rows, span, series.IntervalSeconds)
	}
	for _, b := range series.Brokers {
		if len(b.Rows) != rows || b.Errors != 0 {
			t.Errorf("broker %d: %d rows (host %d), %d errors (%s)", b.ID, len(b.Rows), rows, b.Errors, b.LastError)
		}
		for i, r := range b.Rows {
			if i > 0 && !r.Time.After(b.Rows[i-1].Time) {
				t.Errorf("broker %d: row %d is not after row %d", b.ID, i, i-1)
			}
			for _, f := range []string{FieldCPUCores, FieldCPUPercent, FieldRSSBytes, FieldBytesInSec, FieldRequestHandlerIdlePct, FieldJVMCPUCores} {
				if _, ok := r.Values[f]; !ok {
					t.Errorf("broker %d row %d lacks %s", b.ID, i, f)
				}
			}
		}
	}
	sum := series.Summarize(time.Time{}, time.Time{})
	for _, l := range FormatBrokerLines(sum) {
		t.Log(l)
	}
}
