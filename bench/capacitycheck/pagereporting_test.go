package main

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kbench/kbench/internal/results"
)

func TestPageReporting(t *testing.T) {
	for _, tc := range []struct {
		name, content string // content "" means no file
		want          string
	}{
		{"on in 2 MiB blocks", "9\n", "free page reporting on, in blocks of 2048 KiB: "},
		{"the way off named, and back", "9\n", "echo 11 > /sys/module/page_reporting/parameters/page_reporting_order; put back 9 after"},
		{"off above the largest block", "11\n", "free page reporting off (order 11"},
		{"not a number", "x\n", `order "x"`},
		{"no balloon", "", "no free page reporting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := fstest.MapFS{}
			if tc.content != "" {
				sys[results.PageReportingOrderPath] = &fstest.MapFile{Data: []byte(tc.content)}
			}
			if got := pageReporting(sys); !strings.Contains(got, tc.want) {
				t.Errorf("pageReporting(%q) = %q, want it to contain %q", tc.content, got, tc.want)
			}
		})
	}
}
