package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPageReporting(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content string // content "" means no file
		want          string
	}{
		{"on in 2 MiB blocks", "9\n", "on, blocks of 2048 KiB"},
		{"the way off named", "9\n", "echo 11 > "},
		{"on in 4 MiB blocks", "10\n", "on, blocks of 4096 KiB"},
		{"off above the largest block", "11\n", "off (order 11"},
		{"not a number", "x\n", `order "x" not understood`},
		{"no balloon", "", "no free page reporting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			if tc.content != "" {
				if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := pageReporting(path); !strings.Contains(got, tc.want) {
				t.Errorf("pageReporting(%q) = %q, want it to contain %q", tc.content, got, tc.want)
			}
		})
	}
}
