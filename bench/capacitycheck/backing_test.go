package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/procfs"
)

// The cases that touch nothing: touching a host's free memory is the bench's own run.
func TestBackMemoryTouchesNothing(t *testing.T) {
	for _, tc := range []struct {
		name        string
		meminfo     string // "" means no file
		reportingOn bool
		want        string
	}{
		{"reporting on gives it back", "MemFree: 20000000 kB\n", true, "free page reporting gives what is freed back"},
		{"too little free", "MemFree: 1500000 kB\n", false, "less than 2 GiB free"},
		{"unread", "", false, "its free memory unread"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.meminfo != "" {
				if err := os.WriteFile(filepath.Join(dir, "meminfo"), []byte(tc.meminfo), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			proc, err := procfs.NewFS(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := backMemory(proc, tc.reportingOn); !strings.Contains(got, tc.want) {
				t.Errorf("backMemory = %q, want it to contain %q", got, tc.want)
			}
		})
	}
}
