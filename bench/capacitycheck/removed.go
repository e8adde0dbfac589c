package main

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"time"
)

// removeLimit bounds the wait for a deleted topic's files.
const removeLimit = 3 * time.Minute

// awaitRemoved waits until no partition directory of topic is left in the cluster's log
// dirs (under cdir and, with log dirs in memory, its memory-backed directory), and says how
// long that took and whether it happened within removeLimit. A broker removes a deleted
// topic's files a minute after the deletion (log.segment.delete.delay.ms), and freeing the
// tens of GB a search wrote costs CPU: without the wait that lands in the next search's
// first trials, a disturbance the bench made, not the host.
func awaitRemoved(cdir, topic string) (time.Duration, bool) {
	roots := []string{cdir}
	if data, err := os.ReadFile(filepath.Join(cdir, "cluster.json")); err == nil {
		var st struct {
			TmpfsDir string `json:"tmpfs_dir"`
		}
		if json.Unmarshal(data, &st) == nil && st.TmpfsDir != "" {
			roots = append(roots, st.TmpfsDir)
		}
	}
	start := time.Now()
	for {
		if !partitionDirsLeft(roots, topic) {
			return time.Since(start), true
		}
		if time.Since(start) > removeLimit {
			return time.Since(start), false
		}
		time.Sleep(time.Second)
	}
}

// partitionDirsLeft says whether a directory of one of topic's partitions, live (topic-N)
// or renamed for deletion (topic-N.<id>-delete), is under one of roots.
func partitionDirsLeft(roots []string, topic string) bool {
	dirName := regexp.MustCompile(`^` + regexp.QuoteMeta(topic) + `-[0-9]+(\.[0-9a-f]+-delete)?$`)
	for _, root := range roots {
		found := false
		_ = filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return nil // a file removed while walking, or not a directory
			}
			if dirName.MatchString(d.Name()) {
				found = true
				return fs.SkipAll
			}
			return nil
		})
		if found {
			return true
		}
	}
	return false
}

// removal waits for topic's files to go and says in a few words how long that took.
func removal(cdir, topic string) string {
	waited, gone := awaitRemoved(cdir, topic)
	if !gone {
		return fmt.Sprintf("still there after %v", waited.Round(time.Second))
	}
	return fmt.Sprintf("after %v", waited.Round(time.Second))
}
