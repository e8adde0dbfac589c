package load

import (
	"testing"
	"time"
)

func TestPacer(t *testing.T) {
	tests := []struct {
		name     string
		rate     float64
		elapsed  time.Duration
		sent     int64
		wantDue  time.Duration
		wantWait time.Duration
	}{
		// The first record is due at the start.
		{"first record at once", 1000, 0, 0, 0, 0},
		// 1000/s: record 5 is due at 5 ms; at 2 ms we wait 3 ms.
		{"ahead of schedule waits", 1000, 2 * time.Millisecond, 5, 5 * time.Millisecond, 3 * time.Millisecond},
		// At exactly its slot the record goes.
		{"on schedule", 1000, 5 * time.Millisecond, 5, 5 * time.Millisecond, 0},
		// Behind schedule (a stall): no wait, and the record's due time stays in the past,
		// which is what the due-time latency measures.
		{"behind schedule does not wait", 1000, time.Second, 5, 5 * time.Millisecond, 0},
		// A fractional rate: 0.5/s puts record 3 at 6 s.
		{"fractional rate", 0.5, time.Second, 3, 6 * time.Second, 5 * time.Second},
		// Unlimited: every record due at once.
		{"unlimited", 0, 0, 1_000_000, 0, 0},
		{"negative rate is unlimited", -1, 0, 7, 0, 0},
		// A high rate keeps sub-microsecond slots: 3M/s puts record 3 at 1 us.
		{"high rate", 3_000_000, 0, 3, time.Microsecond, time.Microsecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Pacer{Rate: tt.rate}
			if got := p.Due(tt.sent); got != tt.wantDue {
				t.Errorf("Due(%d) = %v, want %v", tt.sent, got, tt.wantDue)
			}
			if got := p.Wait(tt.elapsed, tt.sent); got != tt.wantWait {
				t.Errorf("Wait(%v, %d) = %v, want %v", tt.elapsed, tt.sent, got, tt.wantWait)
			}
		})
	}
}
