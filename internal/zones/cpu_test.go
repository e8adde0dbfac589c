package zones

import (
	"os"
	"testing"
	"time"
)

func TestParseStatCPU(t *testing.T) {
	// A real line's shape with a command holding spaces and ')'; utime 250, stime 17:
	// 267 ticks of 10 ms = 2.67 s.
	line := "4242 (kbench (zones) x) S 1 4242 4242 0 -1 4194560 500 0 0 0 250 17 0 0 20 0 9 0 100 0 0"
	got, err := parseStatCPU(line)
	if err != nil || got != 2670*time.Millisecond {
		t.Fatalf("parseStatCPU = %s, %v; want 2.67s", got, err)
	}
	for _, bad := range []string{"", "4242 kbench S 1", "4242 (k) S 1 2 3"} {
		if _, err := parseStatCPU(bad); err == nil {
			t.Errorf("parseStatCPU(%q) accepted", bad)
		}
	}
	if _, err := ProcessCPU(os.Getpid()); err != nil {
		t.Errorf("own process: %v", err)
	}
}
