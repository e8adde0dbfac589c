package study

import (
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr string
	}{
		{"16384", 16384, ""},
		{"16KiB", 16384, ""},
		{"1.5MiB", 1572864, ""},
		{"100B", 100, ""},
		{"1 GiB", 1 << 30, ""},
		{"0", 0, ""},
		{"1KB", 0, `unit "KB" is ambiguous`},
		{"4M", 0, `unit "M" is ambiguous`},
		{"-1", 0, "is negative"},
		{"0.5B", 0, "not a whole number of bytes"},
		{"lots", 0, "not a byte count"},
	}
	for _, tt := range tests {
		got, err := ParseSize(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseSize(%q) error = %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
}

func TestFormatSize(t *testing.T) {
	tests := []struct {
		in   int64
		want string
	}{
		{16384, "16KiB"},
		{1 << 20, "1MiB"},
		{1000, "1000B"},
		{0, "0B"},
	}
	for _, tt := range tests {
		if got := FormatSize(tt.in); got != tt.want {
			t.Errorf("FormatSize(%d) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
