package stats

import "testing"

func TestParsePercentile(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"p50", 50, true},
		{"p99", 99, true},
		{"p999", 99.9, true}, // digits after the first two are decimals
		{"p9999", 99.99, true},
		{"p99.9", 99.9, true},
		{"p5", 5, true},
		{"p100", 0, false},
		{"p0", 0, false},
		{"p", 0, false},
		{"q99", 0, false},
		{"P99", 0, false}, // callers lower-case names they accept in either case
		{"pxx", 0, false},
	} {
		got, ok := ParsePercentile(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParsePercentile(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestParseFraction(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"5%", 0.05, true},
		{" 0.02 ", 0.02, true},
		{"2.5%", 0.025, true},
		{"0", 0, false},
		{"-5%", 0, false},
		{"100%", 0, false},
		{"1", 0, false},
		{"five", 0, false},
	} {
		got, ok := ParseFraction(tt.in)
		if ok != tt.ok || got < tt.want-1e-12 || got > tt.want+1e-12 {
			t.Errorf("ParseFraction(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
