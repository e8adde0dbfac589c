package metrics

import (
	"encoding/json"
	"testing"
	"time"
)

func TestHistogramClampsNeverDrops(t *testing.T) {
	tests := []struct {
		name        string
		in          time.Duration
		wantMax     time.Duration
		wantClamped int64
	}{
		{"in range", 1500 * time.Microsecond, 1500 * time.Microsecond, 0},
		{"negative counts as zero", -time.Second, 0, 1},
		{"beyond ten minutes is clamped to the top", time.Hour, time.Duration(LatencyMaxMicros) * time.Microsecond, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHistogram()
			h.Record(tt.in)
			if h.Count() != 1 {
				t.Fatalf("count = %d, want 1", h.Count())
			}
			if h.Clamped() != tt.wantClamped {
				t.Errorf("clamped = %d, want %d", h.Clamped(), tt.wantClamped)
			}
			// 3 significant figures: the reported max is within 0.1 % of the value.
			if got, lo, hi := h.Max(), tt.wantMax-tt.wantMax/1000, tt.wantMax+tt.wantMax/1000; got < lo || got > hi {
				t.Errorf("max = %v, want %v (+-0.1%%)", got, tt.wantMax)
			}
		})
	}
}

func TestHistogramSummaryPercentiles(t *testing.T) {
	h := NewHistogram()
	// 1..10000 us, one each: the p-th percentile is p*100 us.
	for us := int64(1); us <= 10000; us++ {
		h.RecordMicros(us)
	}
	s := h.Summary()
	tests := []struct {
		name string
		got  int64
		want int64
	}{
		{"p50", s.P50Us, 5000},
		{"p90", s.P90Us, 9000},
		{"p95", s.P95Us, 9500},
		{"p99", s.P99Us, 9900},
		{"p99.9", s.P999Us, 9990},
		{"p99.99", s.P9999Us, 9999},
		{"max", s.MaxUs, 10000},
	}
	for _, tt := range tests {
		if d := tt.got - tt.want; d < -tt.want/500 || d > tt.want/500 {
			t.Errorf("%s = %d us, want %d us (+-0.2%%)", tt.name, tt.got, tt.want)
		}
	}
	if s.Count != 10000 {
		t.Errorf("count = %d, want 10000", s.Count)
	}
	if s.AvgUs < 4995 || s.AvgUs > 5006 {
		t.Errorf("avg = %.1f us, want ~5000.5", s.AvgUs)
	}
}

func TestHistogramEncodeRoundTrip(t *testing.T) {
	h := NewHistogram()
	for _, us := range []int64{3, 70, 900, 12_000, 450_000, 9_000_000} {
		h.RecordMicros(us)
	}
	h.Record(time.Hour) // clamped
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	var back Histogram
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Count() != h.Count() {
		t.Fatalf("count after round trip = %d, want %d", back.Count(), h.Count())
	}
	if back.Summary().P50Us != h.Summary().P50Us || back.Max() != h.Max() {
		t.Errorf("summary after round trip = %+v, want %+v", back.Summary(), h.Summary())
	}
	if _, err := DecodeHistogram("not base64!"); err == nil {
		t.Error("decoding garbage succeeded")
	}
}

func TestMergerIntervalAndCumulative(t *testing.T) {
	a, b := NewRecorder(), NewRecorder()
	m := NewMerger(a, b)
	a.Record(time.Millisecond)
	b.Record(2 * time.Millisecond)
	iv, cum := m.Tick()
	if iv.Count() != 2 || cum.Count() != 2 {
		t.Fatalf("first tick: interval %d, cumulative %d; want 2, 2", iv.Count(), cum.Count())
	}
	b.Record(3 * time.Millisecond)
	iv, cum = m.Tick()
	if iv.Count() != 1 || cum.Count() != 3 {
		t.Fatalf("second tick: interval %d, cumulative %d; want 1, 3", iv.Count(), cum.Count())
	}
	a.Record(time.Second)
	m.Reset() // end of warm-up: everything so far is discarded
	a.Record(5 * time.Millisecond)
	iv, cum = m.Tick()
	if iv.Count() != 1 || cum.Count() != 1 {
		t.Fatalf("after reset: interval %d, cumulative %d; want 1, 1", iv.Count(), cum.Count())
	}
	if cum.Max() > 6*time.Millisecond {
		t.Errorf("warm-up value survived the reset: max %v", cum.Max())
	}
}

func TestCountAbove(t *testing.T) {
	h := NewHistogram()
	for _, ms := range []int{1, 2, 3, 49, 50, 51, 60, 1000} {
		h.Record(time.Duration(ms) * time.Millisecond)
	}
	// By hand: above 50 ms are 51, 60 and 1000; above 0 all eight; above 1 s none; above
	// 2.5 ms all but 1 and 2.
	for _, tt := range []struct {
		limit time.Duration
		want  int64
	}{{50 * time.Millisecond, 3}, {0, 8}, {time.Second, 0}, {2500 * time.Microsecond, 6}} {
		if got := h.CountAbove(tt.limit); got != tt.want {
			t.Errorf("CountAbove(%v) = %d, want %d", tt.limit, got, tt.want)
		}
	}
}
