package load

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"github.com/kbench/kbench/internal/cluster/kfaketest"
)

// newFakeCluster starts an in-process kfake cluster with the given topics (3 partitions each)
// and returns its bootstrap list.
func newFakeCluster(t *testing.T, topics ...string) string {
	t.Helper()
	_, boot := kfaketest.Start(t, kfake.NumBrokers(1), kfake.SeedTopics(3, topics...))
	return boot
}

func TestProduceConsumeAccountingFake(t *testing.T) {
	tests := []struct {
		name string
		cfg  ProducerConfig
		want int64
	}{
		{"one producer", ProducerConfig{Producers: 1, RecordSize: 100, Records: 2000}, 2000},
		// 1001 does not divide by 3: the remainder goes to the first producers.
		{"three producers uneven split", ProducerConfig{Producers: 3, RecordSize: 10, Records: 1001}, 1001},
		{"keys round robin with warm-up", ProducerConfig{Producers: 2, RecordSize: 50, Records: 1000, WarmupRecords: 200,
			Keys: KeysRoundRobin, KeySpace: 10}, 1000},
		// More producers than latency shards (GOMAXPROCS): producers share recorders, and every
		// latency still counts once (1000 = 25 x 40; steady: 1000 - 250 = 750).
		{"25 producers share latency shards", ProducerConfig{Producers: 25, RecordSize: 10, Records: 1000,
			WarmupRecords: 250}, 1000},
		{"monotonic payload, acks=1", ProducerConfig{PayloadMonotonic: true, Records: 500,
			Properties: map[string]string{"acks": "1", "linger.ms": "0"}}, 500},
		{"payload list, random keys, lz4", ProducerConfig{Payloads: [][]byte{[]byte("a"), []byte("bb")}, Records: 300,
			Keys: KeysRandom, Properties: map[string]string{"compression.type": "lz4"}}, 300},
		{"transactional", ProducerConfig{RecordSize: 20, Records: 400, TransactionalID: "txn-test",
			TransactionDuration: 10 * time.Millisecond}, 400},
		// What kafka08-tuning's sync mode asks for: one request in flight, no idempotence.
		{"one in flight", ProducerConfig{RecordSize: 512, Records: 300, Properties: map[string]string{
			"max.in.flight.requests.per.connection": "1", "enable.idempotence": "false", "linger.ms": "0"}}, 300},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			topic := "acct-" + string(rune('a'+i))
			boot := newFakeCluster(t, topic)
			cfg := tt.cfg
			cfg.Bootstrap, cfg.Topic, cfg.TimestampHeader = boot, topic, true
			res, err := Produce(context.Background(), cfg, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.Sent != tt.want || res.Total.Acked != tt.want || res.Total.Failed != 0 {
				t.Fatalf("sent %d acked %d failed %d (errors %v), want %d acked", res.Sent, res.Total.Acked, res.Total.Failed, res.Errors, tt.want)
			}
			if res.Total.DueLatency.Count != tt.want || res.Total.SendLatency.Count != tt.want {
				t.Errorf("latency counts due %d send %d, want %d", res.Total.DueLatency.Count, res.Total.SendLatency.Count, tt.want)
			}
			if cfg.WarmupRecords > 0 {
				if res.Steady == nil || res.Steady.Acked != tt.want-cfg.WarmupRecords {
					t.Errorf("steady = %+v, want %d acked", res.Steady, tt.want-cfg.WarmupRecords)
				}
				if n := tt.want - cfg.WarmupRecords; res.Steady != nil && (res.Steady.DueLatency.Count != n || res.Steady.SendLatency.Count != n) {
					t.Errorf("steady latency counts due %d send %d, want %d", res.Steady.DueLatency.Count, res.Steady.SendLatency.Count, n)
				}
			} else if res.Steady != nil {
				t.Errorf("steady stats without warm-up: %+v", res.Steady)
			}
			if res.CPU.Seconds <= 0 {
				t.Errorf("client CPU = %v, want > 0", res.CPU.Seconds)
			}
			isolation := "read_uncommitted"
			if cfg.TransactionalID != "" {
				isolation = "read_committed"
			}
			cres, err := Consume(context.Background(), ConsumerConfig{
				Bootstrap: boot, Topics: []string{topic}, Records: tt.want, Consumers: 2,
				Timeout:    20 * time.Second,
				Properties: map[string]string{"isolation.level": isolation},
			}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if cres.Records != tt.want || cres.Bytes != res.Total.Bytes {
				t.Errorf("consumed %d records %d bytes, produced %d records %d bytes", cres.Records, cres.Bytes, tt.want, res.Total.Bytes)
			}
			if cres.EndToEndSource != "header" || cres.EndToEnd.Count != tt.want {
				t.Errorf("end-to-end source %q count %d, want header and %d", cres.EndToEndSource, cres.EndToEnd.Count, tt.want)
			}
		})
	}
}

func TestProduceRateAndTicksFake(t *testing.T) {
	boot := newFakeCluster(t, "rate")
	var ticks []Tick
	res, err := Produce(context.Background(), ProducerConfig{
		Bootstrap: boot, Topic: "rate", RecordSize: 10, Rate: 2000, Records: 3000,
		Producers: 2, WarmupRecords: 1000, TickInterval: 200 * time.Millisecond,
	}, func(t Tick) { ticks = append(ticks, t) })
	if err != nil {
		t.Fatal(err)
	}
	// A record count, not a duration, so the counts do not depend on how busy the machine is.
	if res.Sent != 3000 || res.Total.Acked != res.Sent {
		t.Fatalf("sent %d acked %d, want 3000 sent and all acked (errors %v)", res.Sent, res.Total.Acked, res.Errors)
	}
	// The first 1000 records are the warm-up.
	if res.Steady == nil || res.Steady.Acked != 2000 {
		t.Fatalf("steady = %+v, want 2000 acked", res.Steady)
	}
	if len(ticks) == 0 {
		t.Fatal("no ticks")
	}
	var sum int64
	for _, tk := range ticks {
		sum += tk.Acked
	}
	last := ticks[len(ticks)-1]
	if sum != last.TotalAcked {
		t.Errorf("interval acks add to %d, last total %d", sum, last.TotalAcked)
	}
	if !ticks[0].Warmup {
		t.Error("first tick is not marked as warm-up")
	}
	// The rate, from the schedule rather than the wall clock: no record goes before its due
	// time, so a record acknowledged by elapsed e was due by e. Each producer paces 1,000/s
	// (2,000 split in two) with record n due at n/1000 s, so by e at most floor(1000*e)+1
	// records each, 2*(floor(1000*e)+1) in all (a tick's Elapsed is taken after its counts).
	// A pacer that ran ahead of its schedule (sending in bursts, or ignoring the rate: 3,000
	// records within the first tick) breaks this bound.
	for _, tk := range ticks {
		e := tk.Elapsed.Seconds()
		if bound := 2 * (int64(1000*e) + 1); tk.TotalAcked > bound {
			t.Errorf("%d records acknowledged by %v, more than the %d the schedule allows", tk.TotalAcked, tk.Elapsed, bound)
		}
	}
	// The last records (n = 1,499 of each producer) are due at 1.499 s, so the run lasted at
	// least that long and its rate is at most 3000/1.499 = 2,001.3 records/s.
	if res.Total.ElapsedSeconds < 1.499 || res.Total.RecordsPerSec > 2001.4 {
		t.Errorf("elapsed %.3f s at %.1f records/s, want >= 1.499 s and <= 2,001.3 records/s",
			res.Total.ElapsedSeconds, res.Total.RecordsPerSec)
	}
}

func TestProduceInvalidConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  ProducerConfig
		want string
	}{
		{"no topic", ProducerConfig{Bootstrap: "x:1", RecordSize: 1, Records: 1}, "topic is required"},
		{"two payload sources", ProducerConfig{Bootstrap: "x:1", Topic: "t", RecordSize: 1, PayloadMonotonic: true, Records: 1}, "exactly one of"},
		{"no end", ProducerConfig{Bootstrap: "x:1", Topic: "t", RecordSize: 1}, "records or a duration"},
		{"warm-up too long", ProducerConfig{Bootstrap: "x:1", Topic: "t", RecordSize: 1, Records: 5, WarmupRecords: 5}, "warm-up records 5"},
		{"unknown property", ProducerConfig{Bootstrap: "x:1", Topic: "t", RecordSize: 1, Records: 5,
			Properties: map[string]string{"lingerms": "1"}}, `unknown producer property "lingerms"`},
		{"no bootstrap", ProducerConfig{Topic: "t", RecordSize: 1, Records: 5}, "no bootstrap servers"},
		// 2 GiB records are refused before their payload buffer is allocated.
		{"record above max.request.size", ProducerConfig{Bootstrap: "x:1", Topic: "t", RecordSize: 2 << 30, Records: 5},
			"invalid producer configuration: record size 2147483648 bytes does not fit max.request.size=1048576"},
		{"payload above max.request.size", ProducerConfig{Bootstrap: "x:1", Topic: "t", Records: 5,
			Payloads:   [][]byte{make([]byte, 10), make([]byte, 2000)},
			Properties: map[string]string{"max.request.size": "2048"}},
			"record size 2000 bytes does not fit max.request.size=2048"},
		{"one in flight with explicit idempotence", ProducerConfig{Bootstrap: "x:1", Topic: "t", RecordSize: 1, Records: 5,
			Properties: map[string]string{"max.in.flight.requests.per.connection": "1", "enable.idempotence": "true"}},
			"enable.idempotence=true cannot be honoured with max.in.flight.requests.per.connection=1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Produce(context.Background(), tt.cfg, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
