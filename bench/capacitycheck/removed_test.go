package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPartitionDirsLeft(t *testing.T) {
	for _, tt := range []struct {
		dir  string
		left bool
	}{
		{"capcheck-1-1-0", true},
		{"capcheck-1-1-2.3f2a9c1e4b5d4e6f8a7b9c0d1e2f3a4b-delete", true},
		{"capcheck-1-10-0", false},      // another search's topic
		{"capcheck-1-1-probe-0", false}, // not a partition of the topic
		{"__consumer_offsets-0", false},
	} {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "broker-1", "data", tt.dir), 0o755); err != nil {
			t.Fatal(err)
		}
		if got := partitionDirsLeft([]string{root}, partitionDir("capcheck-1-1")); got != tt.left {
			t.Errorf("%s: left %v, want %v", tt.dir, got, tt.left)
		}
	}
}
