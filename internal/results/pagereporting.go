package results

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// PageReportingOrderPath is where, under /sys, a virtual machine's kernel says whether its
// balloon driver gives the memory it frees back to the hypervisor (virtio_balloon's free page
// reporting), and in free blocks of which order. Memory so given back costs a host fault
// when touched again (4 GiB written into tmpfs: 800-980 MiB/s into memory given back, 1,060-
// 1,490 MiB/s into memory just freed, on one such host): a cluster on this host with its log
// dirs in memory frees and writes its segments' pages all the time and pays it as it writes
// (docs/capacity.md, "Memory given back to the hypervisor").
const PageReportingOrderPath = "module/page_reporting/parameters/page_reporting_order"

// MaxPageOrder is the largest block the kernel's buddy allocator holds (order 10, 4 MiB, on
// x86-64 and arm64 with 4 KiB pages): reporting in blocks of a larger order never reports.
const MaxPageOrder = 10

// ReadPageReportingOrder reads the order from sys, a file system rooted at /sys; present is
// false when the kernel has no free page reporting (no balloon driver that uses it).
func ReadPageReportingOrder(sys fs.FS) (order int, present bool, err error) {
	b, err := fs.ReadFile(sys, PageReportingOrderPath)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("free page reporting: %w", err)
	}
	text := strings.TrimSpace(string(b))
	order, err = strconv.Atoi(text)
	if err != nil || order < 0 {
		return 0, false, fmt.Errorf("free page reporting: order %q in /sys/%s is not a number", text, PageReportingOrderPath)
	}
	return order, true, nil
}

// PageReportingOrder is the order read from sys, nil when the kernel has no free page
// reporting or the order cannot be read: the host facts then say nothing of it.
func PageReportingOrder(sys fs.FS) *int {
	order, present, err := ReadPageReportingOrder(sys)
	if !present || err != nil {
		return nil
	}
	return &order
}

// PageReportingOn is whether a host whose order is order (nil: none) gives freed memory back.
func PageReportingOn(order *int) bool { return order != nil && *order <= MaxPageOrder }

// PageReportingText says in words what order means, "" when the host has no free page
// reporting: "on, in blocks of 2048 KiB" or "off (order 11, above the largest block)".
func PageReportingText(order *int) string {
	switch {
	case order == nil:
		return ""
	case PageReportingOn(order):
		return fmt.Sprintf("on, in blocks of %d KiB", 4<<*order)
	}
	return fmt.Sprintf("off (order %d, above the largest block)", *order)
}
