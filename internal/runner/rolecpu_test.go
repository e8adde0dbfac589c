package runner

import (
	"testing"
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/results"
)

func TestSplitCPU(t *testing.T) {
	// The window's process CPU is 4 s (from its start until the consumers caught up); the
	// producers' steady window's is 3 s with 1,000,000 records acknowledged; the consumers
	// read 1,500,000 records, 500,000 of them before the window (the warm-up's).
	win := func() *window { return &window{cpuStart: 0, cpuEnd: 4 * time.Second, preConsumed: 500_000} }
	for _, tc := range []struct {
		name string
		m    measurement
		want results.Summary
	}{
		{name: "both, profile gave the producers 75%",
			m: measurement{prod: &load.ProduceResult{}, cons: &load.ConsumeResult{Records: 1_500_000}, window: win(), split: true, producerShare: 0.75},
			// producers 3 s x 0.75 = 2.25 s over 1 M records = 2.25 s/M;
			// consumers 4 s x 0.25 = 1 s over 1.5 M - 0.5 M = 1 M records = 1 s/M.
			want: results.Summary{ProducerCPUSeconds: 2.25, ProducerCPUPerMillion: 2.25, ConsumerCPUSeconds: 1, ConsumerCPUPerMillion: 1,
				ClientCPUSplit: results.SplitProfile}},
		{name: "both, no profile: no split",
			m:    measurement{prod: &load.ProduceResult{}, cons: &load.ConsumeResult{Records: 1_500_000}, window: win()},
			want: results.Summary{}},
		{name: "producers only",
			m: measurement{prod: &load.ProduceResult{}, window: win()},
			// all 3 s over 1 M records
			want: results.Summary{ProducerCPUSeconds: 3, ProducerCPUPerMillion: 3, ClientCPUSplit: results.SplitProducerOnly}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := results.Summary{RecordsAcked: 1_000_000}
			tc.m.splitCPU(&s, 3)
			tc.want.RecordsAcked = 1_000_000
			if s.ProducerCPUSeconds != tc.want.ProducerCPUSeconds || s.ProducerCPUPerMillion != tc.want.ProducerCPUPerMillion ||
				s.ConsumerCPUSeconds != tc.want.ConsumerCPUSeconds || s.ConsumerCPUPerMillion != tc.want.ConsumerCPUPerMillion ||
				s.ClientCPUSplit != tc.want.ClientCPUSplit {
				t.Errorf("got %+v\nwant %+v", s, tc.want)
			}
		})
	}
	// Consume-only: the window's own CPU (4 s) and the 1 M records read in it, all the
	// consumers'; the window began before any record was read.
	m := measurement{cons: &load.ConsumeResult{Records: 1_000_000}, consumeOnly: true, window: &window{cpuEnd: 4 * time.Second}}
	s := results.Summary{RecordsAcked: 1_000_000}
	m.splitCPU(&s, 4)
	if s.ConsumerCPUSeconds != 4 || s.ConsumerCPUPerMillion != 4 || s.ProducerCPUSeconds != 0 || s.ClientCPUSplit != results.SplitConsumerOnly {
		t.Errorf("consume-only: %+v", s)
	}
}
