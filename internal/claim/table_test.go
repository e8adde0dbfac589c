package claim

import (
	"slices"
	"strings"
	"testing"
)

func TestTable(t *testing.T) {
	lookup := Table([]Observed{
		{Params: map[string]string{"batch": "1KiB", "acks": "1"}, Values: map[string][]float64{RecordsPerSec: {10, 20, 30}}},
		{Params: map[string]string{"batch": "1KiB", "acks": "all"}, Values: map[string][]float64{RecordsPerSec: {30, 40}}},
		{Params: map[string]string{"batch": "16KiB", "acks": "1"}, Values: map[string][]float64{RecordsPerSec: {100, 110, 120}}},
	})
	tests := []struct {
		params  map[string]string
		want    []float64
		wantErr string
	}{
		// one match: its repeats as they are
		{map[string]string{"batch": "16KiB"}, []float64{100, 110, 120}, ""},
		// two matches: mean per repeat, over the repeats both have
		{map[string]string{"batch": "1KiB"}, []float64{20, 30}, ""},
		{map[string]string{"acks": "1"}, []float64{55, 65, 75}, ""},
		{map[string]string{"batch": "64KiB"}, nil, "no scenario matches records_per_sec(batch=64KiB)"},
	}
	for _, tt := range tests {
		got, err := lookup(RecordsPerSec, tt.params)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("lookup(%v) error = %v, want %q", tt.params, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("lookup(%v) = %v, %v; want %v", tt.params, got, err, tt.want)
		}
	}
	if _, err := lookup(P99, map[string]string{"batch": "16KiB"}); err == nil || !strings.Contains(err.Error(), "no p99 values") {
		t.Errorf("lookup of a metric without values: error = %v", err)
	}
}
