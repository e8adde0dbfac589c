package runner

import (
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

func TestAccountingReasons(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	tests := []struct {
		name string
		r    results.Records
		want string // "" for valid
	}{
		{"all acknowledged and consumed", results.Records{Acked: 1000, Consumed: n(1000)}, ""},
		{"drained records count as acknowledged", results.Records{Acked: 1000, AckedAfterEnd: 40, Consumed: n(1000)}, ""},
		// 0.1% of 10,000 acknowledged is 10: 10 unsent is within, 11 is not.
		{"unsent at the threshold", results.Records{Acked: 10_000, Unsent: 10}, ""},
		{"unsent above the threshold", results.Records{Acked: 10_000, Unsent: 11}, "11 records unsent"},
		{"unsent with nothing acknowledged", results.Records{Unsent: 1}, "1 records unsent"},
		{"fewer consumed", results.Records{Acked: 1000, Consumed: n(990)}, "10 acknowledged records were not consumed (990 of 1000 read)"},
		// Nothing failed or unsent: exactly the acknowledged records may be read.
		{"more consumed than acknowledged", results.Records{Acked: 1000, Consumed: n(1001)}, "1 records consumed that were never acknowledged"},
		// 3 unsent may have reached the topic: up to 1,003 read is accounted for, 1,004 not.
		{"unsent that reached the topic", results.Records{Acked: 1000, Unsent: 1, Failed: 2, Consumed: n(1003)}, ""},
		// 100 records of aborted transactions are hidden from read_committed consumers: 900
		// read is every visible one; 901 is one they should not have seen.
		{"aborted transactions hidden", results.Records{Acked: 1000, Hidden: 100, Consumed: n(900)}, ""},
		{"an aborted record read", results.Records{Acked: 1000, Hidden: 100, Consumed: n(901)}, "1 records consumed that were never acknowledged (901 read, 900 acknowledged)"},
		{"a committed record missing", results.Records{Acked: 1000, Hidden: 100, Consumed: n(899)}, "1 acknowledged records were not consumed (899 of 900 read)"},
		{"beyond unsent and failed", results.Records{Acked: 1000, Unsent: 1, Failed: 2, Consumed: n(1004)}, "1 records consumed beyond the 1000 acknowledged and 3 failed or unsent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := strings.Join(accountingReasons(&tt.r), "; ")
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("reasons %q, want %q", got, tt.want)
			}
		})
	}
}
