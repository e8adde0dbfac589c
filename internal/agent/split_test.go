package agent

import (
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	abc := []string{"a", "b", "c"}
	tests := []struct {
		name                  string
		agents                []string
		producers             int
		rate                  float64
		records, warmup       int64
		wantProducers         []int
		wantFirst             []int
		wantRate              []float64
		wantRecords, wantWarm []int64
	}{
		{
			// 10 producers on 3 agents: 10/3 = 3 rem 1, the first agent runs one more: 4/3/3.
			// 1000 records over 10 producers: 100 each, so 400/300/300.
			// 30000 rec/s over 10 producers: 3000 each, so 12000/9000/9000.
			name: "10 producers on 3 agents", agents: abc, producers: 10, rate: 30000, records: 1000, warmup: 100,
			wantProducers: []int{4, 3, 3}, wantFirst: []int{0, 4, 7},
			wantRate: []float64{12000, 9000, 9000}, wantRecords: []int64{400, 300, 300}, wantWarm: []int64{40, 30, 30},
		},
		{
			// 1001 records over 10 producers: 100 each, producer 0 one more (1001 % 10 = 1),
			// so agent a (producers 0..3) gets 401. 7 warm-up records: producers 0..6 get one,
			// so a (0..3) 4, b (4..6) 3, c (7..9) 0.
			name: "records not divisible", agents: abc, producers: 10, records: 1001, warmup: 7,
			wantProducers: []int{4, 3, 3}, wantFirst: []int{0, 4, 7},
			wantRate: []float64{0, 0, 0}, wantRecords: []int64{401, 300, 300}, wantWarm: []int64{4, 3, 0},
		},
		{
			// One producer each; unlimited rate stays 0; a duration run has no record count.
			name: "one each, by duration", agents: abc, producers: 3,
			wantProducers: []int{1, 1, 1}, wantFirst: []int{0, 1, 2},
			wantRate: []float64{0, 0, 0}, wantRecords: []int64{0, 0, 0}, wantWarm: []int64{0, 0, 0},
		},
		{
			// 5 producers on 2 agents: 3/2; 1000 rec/s: 600/400; 11 records: producer 0 gets 3
			// (11/5 = 2 rem 1), the others 2: a (0..2) 3+2+2 = 7, b (3..4) 4.
			name: "5 on 2", agents: []string{"x", "y"}, producers: 5, rate: 1000, records: 11,
			wantProducers: []int{3, 2}, wantFirst: []int{0, 3},
			wantRate: []float64{600, 400}, wantRecords: []int64{7, 4}, wantWarm: []int64{0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Split(tt.agents, tt.producers, tt.rate, tt.records, tt.warmup, 42)
			if err != nil {
				t.Fatal(err)
			}
			var sumRecords, sumWarm int64
			for i, s := range got {
				if s.Agent != tt.agents[i] || s.Producers != tt.wantProducers[i] || s.FirstProducer != tt.wantFirst[i] ||
					s.Rate != tt.wantRate[i] || s.Records != tt.wantRecords[i] || s.WarmupRecords != tt.wantWarm[i] {
					t.Errorf("share %d = %+v, want producers %d first %d rate %v records %d warm-up %d", i, s,
						tt.wantProducers[i], tt.wantFirst[i], tt.wantRate[i], tt.wantRecords[i], tt.wantWarm[i])
				}
				if s.Seed != 42+uint64(tt.wantFirst[i]) {
					t.Errorf("share %d seed %d, want %d", i, s.Seed, 42+tt.wantFirst[i])
				}
				sumRecords += s.Records
				sumWarm += s.WarmupRecords
			}
			if sumRecords != tt.records || sumWarm != tt.warmup {
				t.Errorf("shares add to %d records, %d warm-up; want %d, %d", sumRecords, sumWarm, tt.records, tt.warmup)
			}
		})
	}
}

func TestSplitRefusesFewerProducersThanAgents(t *testing.T) {
	_, err := Split([]string{"a", "b", "c"}, 2, 0, 10, 0, 0)
	if err == nil || !strings.Contains(err.Error(), "2 producers cannot be split between 3 agents") {
		t.Fatalf("err = %v", err)
	}
}
