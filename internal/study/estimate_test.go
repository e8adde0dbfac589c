package study

import (
	"testing"
	"time"
)

func TestMeasuredDuration(t *testing.T) {
	tests := []struct {
		name string
		s    Scenario
		want time.Duration
	}{
		{"fixed duration", Scenario{Producers: Producers{Count: 1, Duration: 10 * time.Second}}, 10 * time.Second},
		// 100,000 records at a 10,000/s target
		{"records at a rate", Scenario{Producers: Producers{Count: 1, Records: 100000, Rate: 10000, RecordSize: 1024}}, 10 * time.Second},
		// unlimited: 20 MiB/s of 1 KiB records is 20,480 records/s
		{"records unlimited", Scenario{Producers: Producers{Count: 1, Records: 204800, RecordSize: 1024}}, 10 * time.Second},
		// a rate above the assumed throughput does not shorten the estimate
		{"rate above capacity", Scenario{Producers: Producers{Count: 1, Records: 204800, Rate: 1000000, RecordSize: 1024}}, 10 * time.Second},
		// consume-only: fill plus read
		{"consume only", Scenario{Producers: Producers{RecordSize: 1024}, Consumers: Consumers{Count: 1, Records: 204800}}, 20 * time.Second},
		// both: the longer of the two
		{"both", Scenario{Producers: Producers{Count: 1, Duration: 5 * time.Second}, Consumers: Consumers{Count: 1, Duration: 8 * time.Second}}, 8 * time.Second},
	}
	for _, tt := range tests {
		if got := tt.s.MeasuredDuration(); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}
