package results

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestPageReporting(t *testing.T) {
	for _, tc := range []struct {
		name, content string // content "" means no file
		present, on   bool
		order         int
		text, err     string
	}{
		// 4 KiB pages: order 9 is 2^9 pages, 2048 KiB; order 10 the largest block, 4096 KiB.
		{name: "on in 2 MiB blocks", content: "9\n", present: true, on: true, order: 9, text: "on, in blocks of 2048 KiB"},
		{name: "on in 4 MiB blocks", content: "10\n", present: true, on: true, order: 10, text: "on, in blocks of 4096 KiB"},
		{name: "off above the largest block", content: "11\n", present: true, order: 11, text: "off (order 11, above the largest block)"},
		{name: "not a number", content: "x\n", err: `order "x" in /sys/module/page_reporting/parameters/page_reporting_order is not a number`},
		{name: "no balloon"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sys := fstest.MapFS{}
			if tc.content != "" {
				sys[PageReportingOrderPath] = &fstest.MapFile{Data: []byte(tc.content)}
			}
			order, present, err := ReadPageReportingOrder(sys)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil || present != tc.present || order != tc.order {
				t.Fatalf("ReadPageReportingOrder = %d, %v, %v; want %d, %v, nil", order, present, err, tc.order, tc.present)
			}
			var p *int
			if present {
				p = &order
			}
			if got := PageReportingOn(p); got != tc.on {
				t.Errorf("PageReportingOn = %v, want %v", got, tc.on)
			}
			if got := PageReportingText(p); got != tc.text {
				t.Errorf("PageReportingText = %q, want %q", got, tc.text)
			}
		})
	}
	// CollectHost records the order when the file is there.
	sys := fstest.MapFS{PageReportingOrderPath: {Data: []byte("9\n")}}
	if h, _ := CollectHost(fstest.MapFS{}, sys); h.PageReportingOrder == nil || *h.PageReportingOrder != 9 {
		t.Errorf("CollectHost page reporting order %v, want 9", h.PageReportingOrder)
	}
}
