package zones

import (
	"strings"
	"testing"
	"time"
)

func TestParseBandwidth(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  string
	}{
		{in: "100MiB", want: 100 << 20},
		{in: "100MiB/s", want: 100 << 20},
		{in: "12.5MB", want: 12_500_000},
		{in: "1GiB", want: 1 << 30},
		{in: "64KiB", want: 65536},
		{in: "500000", want: 500000},
		{in: "2 GB", want: 2_000_000_000},
		{in: "fast", err: "want a size per second"},
		{in: "-1MiB", err: "want a size per second"},
		{in: "0", err: "want a size per second"},
	}
	for _, tt := range tests {
		got, err := ParseBandwidth(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("ParseBandwidth(%q) error %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseBandwidth(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestFormatBandwidthReadsBack(t *testing.T) {
	for _, b := range []int64{100 << 20, 1 << 30, 65536, 12_500_000, 1536 << 10} {
		s := FormatBandwidth(b)
		got, err := ParseBandwidth(s)
		if err != nil || got != b {
			t.Errorf("%d -> %q -> %d, %v", b, s, got, err)
		}
	}
	if s := FormatBandwidth(1536 << 10); s != "1536KiB" { // 1.5 MiB is not a whole MiB
		t.Errorf("FormatBandwidth(1.5 MiB) = %q", s)
	}
}

func TestLinkValidate(t *testing.T) {
	tests := []struct {
		link Link
		err  string
	}{
		{link: Link{RTT: 10 * time.Millisecond}},
		{link: Link{RTT: 10 * time.Millisecond, Bandwidth: 100 << 20}},
		{link: Link{RTT: -time.Millisecond}, err: "want 0 to 10s"},
		{link: Link{RTT: 11 * time.Second}, err: "want 0 to 10s"},
		{link: Link{Bandwidth: 1000}, err: "at least 64KiB"},
	}
	for _, tt := range tests {
		err := tt.link.Validate()
		if (tt.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%v: error %v, want %q", tt.link, err, tt.err)
		}
	}
	if got := (Link{RTT: 10 * time.Millisecond}).OneWay(); got != 5*time.Millisecond {
		t.Errorf("one way of 10ms = %s", got)
	}
}
