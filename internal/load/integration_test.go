package load

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/redact"
)

// testCluster is one real embedded cluster shared by the package's tests, with SASL
// (SCRAM-SHA-512, over TLS) and TLS listeners so one cluster serves every test. One broker
// keeps the package's tests within the machine's two cores; pausing it pauses a leader, which
// is what the pause test needs.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	os.Exit(clustertest.Run(m, cluster.Options{Brokers: 1, SASL: "scram-sha-512", TLS: true}, &testCluster))
}

// createTopic makes a fresh topic on the test cluster.
func createTopic(t *testing.T, name string, partitions int32) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	rf := int16(min(len(testCluster.Brokers()), 3))
	if _, err := kadm.NewClient(cl).CreateTopic(context.Background(), partitions, rf, nil, name); err != nil {
		t.Fatalf("create topic %s: %v", name, err)
	}
}

func TestRealExactAccounting(t *testing.T) {
	clustertest.Need(t, testCluster)
	topic := "real-accounting"
	createTopic(t, topic, 6)
	const n = 50_000
	res, err := Produce(context.Background(), ProducerConfig{Bootstrap: testCluster.Bootstrap(), Topic: topic,
		Producers: 3, RecordSize: 200, Records: n, TimestampHeader: true, Keys: KeysRandom}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Sent != n || res.Total.Acked != n || res.Total.Failed != 0 {
		t.Fatalf("sent %d acked %d failed %d (errors %v), want %d sent and acked", res.Sent, res.Total.Acked, res.Total.Failed, res.Errors, n)
	}
	cres, err := Consume(context.Background(), ConsumerConfig{Bootstrap: testCluster.Bootstrap(), Topics: []string{topic},
		Records: n, Consumers: 2, Timeout: 30 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if cres.Records != n || cres.Bytes != res.Total.Bytes || cres.TimedOut {
		t.Fatalf("consumed %d records, %d bytes (timed out %v); produced %d, %d bytes", cres.Records, cres.Bytes, cres.TimedOut, n, res.Total.Bytes)
	}
	if cres.EndToEndSource != "header" || cres.EndToEnd.Count != n {
		t.Errorf("end-to-end source %q count %d, want header, %d", cres.EndToEndSource, cres.EndToEnd.Count, n)
	}
}

func TestRealSASLAndTLS(t *testing.T) {
	clustertest.Need(t, testCluster)
	for _, name := range []string{"sasl", "tls"} {
		t.Run(name, func(t *testing.T) {
			ep, ok := testCluster.Endpoint(name)
			if !ok {
				t.Fatalf("cluster has no %s endpoint", name)
			}
			topic := "real-secure-" + name
			createTopic(t, topic, 3)
			res, err := Produce(context.Background(), ProducerConfig{Bootstrap: ep.Bootstrap, Topic: topic,
				Properties: ep.Properties, RecordSize: 100, Records: 5000}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Total.Acked != 5000 {
				t.Fatalf("acked %d of 5000 (errors %v)", res.Total.Acked, res.Errors)
			}
			for k, v := range res.Settings {
				if pw := ep.Properties["sasl.jaas.config"]; pw != "" && strings.Contains(v, passwordOf(t, pw)) {
					t.Errorf("password visible in setting %s", k)
				}
			}
			cres, err := Consume(context.Background(), ConsumerConfig{Bootstrap: ep.Bootstrap, Topics: []string{topic},
				Properties: ep.Properties, Records: 5000, Timeout: 30 * time.Second}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if cres.Records != 5000 {
				t.Fatalf("consumed %d of 5000", cres.Records)
			}
		})
	}
}

func passwordOf(t *testing.T, jaas string) string {
	opts, err := redact.JAASOptions(jaas)
	p := opts["password"]
	if err != nil || p == "" {
		t.Fatalf("no password in the endpoint's JAAS config: %v", err)
	}
	return p
}

// TestRealBrokerPauseShowsInDueLatency pauses the broker (SIGSTOP) for one second during a
// rate-limited run: records due during the pause cannot be acknowledged before it ends, so
// the due-time p99.9 must be at least half the pause.
func TestRealBrokerPauseShowsInDueLatency(t *testing.T) {
	clustertest.Need(t, testCluster)
	topic := "real-pause"
	createTopic(t, topic, 3)
	const pause = time.Second
	broker := testCluster.Brokers()[0]
	ctx := context.Background()
	go func() {
		time.Sleep(2 * time.Second)
		if err := syscall.Kill(broker.PID, syscall.SIGSTOP); err != nil {
			t.Errorf("pause broker %d: %v", broker.PID, err)
			return
		}
		time.Sleep(pause)
		if err := syscall.Kill(broker.PID, syscall.SIGCONT); err != nil {
			t.Errorf("resume broker %d: %v", broker.PID, err)
		}
	}()
	t.Cleanup(func() { _ = syscall.Kill(broker.PID, syscall.SIGCONT) })
	res, err := Produce(ctx, ProducerConfig{Bootstrap: testCluster.Bootstrap(), Topic: topic,
		RecordSize: 100, Rate: 2000, Duration: 6 * time.Second, Warmup: time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Total.Failed != 0 || res.Sent != res.Total.Acked {
		t.Fatalf("sent %d acked %d failed %d: %v", res.Sent, res.Total.Acked, res.Total.Failed, res.Errors)
	}
	p999 := time.Duration(res.Steady.DueLatency.P999Us) * time.Microsecond
	if p999 < pause/2 {
		t.Errorf("due-time p99.9 = %v after a %v pause, want >= %v", p999, pause, pause/2)
	}
	t.Logf("due p99.9 %v, send p99.9 %v, due max %v", p999,
		time.Duration(res.Steady.SendLatency.P999Us)*time.Microsecond, time.Duration(res.Steady.DueLatency.MaxUs)*time.Microsecond)
}

// TestRealOverCapacity asks for far more than the cluster can take with a small client buffer:
// the producer falls further behind its schedule every second, so due-time latency grows
// through the run, while send-time latency stays bounded by the buffer.
func TestRealOverCapacity(t *testing.T) {
	clustertest.Need(t, testCluster)
	topic := "real-overcapacity"
	createTopic(t, topic, 3)
	var ticks []Tick
	res, err := Produce(context.Background(), ProducerConfig{Bootstrap: testCluster.Bootstrap(), Topic: topic,
		RecordSize: 1024, Rate: 5_000_000, Duration: 4 * time.Second, TickInterval: time.Second,
		Properties: map[string]string{"buffer.memory": "1048576", "acks": "1", "linger.ms": "0"}},
		func(tk Tick) { ticks = append(ticks, tk) })
	if err != nil {
		t.Fatal(err)
	}
	if len(ticks) < 3 {
		t.Fatalf("%d ticks, want at least 3", len(ticks))
	}
	first, last := ticks[0], ticks[len(ticks)-2] // the last tick may cover only the drain
	if last.DueLatency.P50Us <= 2*first.DueLatency.P50Us {
		t.Errorf("due-time p50 did not grow: first tick %d us, later tick %d us", first.DueLatency.P50Us, last.DueLatency.P50Us)
	}
	if last.SendLatency.P50Us*2 >= last.DueLatency.P50Us {
		t.Errorf("send-time p50 %d us is not well below due-time p50 %d us", last.SendLatency.P50Us, last.DueLatency.P50Us)
	}
	if res.Total.DueLatency.P99Us <= res.Total.SendLatency.P99Us {
		t.Errorf("due-time p99 %d us <= send-time p99 %d us", res.Total.DueLatency.P99Us, res.Total.SendLatency.P99Us)
	}
	// The buffer was full at the end: its records are drained (acknowledged after the end,
	// and timed), not dropped; 1 MiB drains well within the drain timeout.
	if res.Drained == 0 || res.Unsent != 0 || res.Total.SendLatency.Count != res.Total.Acked {
		t.Errorf("drained %d unsent %d, send latencies %d of %d acked: want the buffer drained, none unsent, every ack timed",
			res.Drained, res.Unsent, res.Total.SendLatency.Count, res.Total.Acked)
	}
	for i, tk := range ticks {
		t.Logf("tick %d: due p50 %d us, send p50 %d us, %d acked", i, tk.DueLatency.P50Us, tk.SendLatency.P50Us, tk.Acked)
	}
}
