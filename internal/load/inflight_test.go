package load

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/settings"
)

// inflightHook counts produce requests written and responses read on the wire, and keeps
// the most that were ever outstanding at once.
type inflightHook struct {
	mu               sync.Mutex
	outstanding, max int
}

func (h *inflightHook) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, err error) {
	if key != 0 || err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.outstanding++
	h.max = max(h.max, h.outstanding)
}

func (h *inflightHook) OnBrokerRead(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, err error) {
	if key != 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.outstanding--
}

// TestOneRequestInFlight checks on the wire that max.in.flight.requests.per.connection=1 is
// what the client does: never a second produce request before the first one's response.
func TestOneRequestInFlight(t *testing.T) {
	boot := newFakeCluster(t, "inflight")
	s, err := ParseProperties(settings.Producer, map[string]string{
		"max.in.flight.requests.per.connection": "1", "linger.ms": "0", "batch.size": "1024"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Effective["enable.idempotence"] != "false" || s.Effective["max.in.flight.requests.per.connection"] != "1" {
		t.Fatalf("recorded %v", s.Effective)
	}
	h := &inflightHook{}
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(boot), kgo.WithHooks(h), kgo.DefaultProduceTopic("inflight")}, s.Opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	// 2,000 records of 100 bytes sent at once: with 1 KiB batches on 3 partitions the
	// client has many batches ready at every moment and would pipeline them if allowed.
	var wg sync.WaitGroup
	for range 2000 {
		wg.Add(1)
		cl.Produce(context.Background(), &kgo.Record{Value: make([]byte, 100)}, func(_ *kgo.Record, err error) {
			if err != nil {
				t.Error(err)
			}
			wg.Done()
		})
	}
	wg.Wait()
	if h.max != 1 {
		t.Errorf("at most %d produce requests in flight, want 1", h.max)
	}
}
