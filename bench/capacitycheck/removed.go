package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"time"

	kcluster "github.com/kbench/kbench/internal/cluster"
)

// removeLimit bounds the wait for a deleted topic's files.
const removeLimit = 3 * time.Minute

// clusterDirs are the log dirs of the embedded cluster in cdir, as the cluster package
// records them; none when it cannot be read (the wait is then skipped and says so).
func clusterDirs(cdir string) []string {
	c, err := kcluster.Open(cdir)
	if err != nil {
		return nil
	}
	return c.LogDirs()
}

// awaitRemoved waits until no partition directory of topic is left under roots, and says
// how long that took and whether it happened within removeLimit. A broker removes a deleted
// topic's files log.segment.delete.delay.ms after the deletion (Kafka's default a minute; a
// second on the clusters kbench starts), and freeing the GBs a search wrote costs CPU:
// measured on a 1-broker cluster with its log dir in memory, 5.6 GB freed 60-65 s after the
// deletion made one 2 s window of a 50,000 records/s run reach 221 ms (the others 6-20 ms).
// Without the wait that lands in the next search's first trials, a disturbance the bench
// made, not the host.
func awaitRemoved(roots []string, topic string) (time.Duration, bool) {
	dirName := partitionDir(topic)
	start := time.Now()
	for {
		if !partitionDirsLeft(roots, dirName) {
			return time.Since(start), true
		}
		if time.Since(start) > removeLimit {
			return time.Since(start), false
		}
		time.Sleep(time.Second)
	}
}

// partitionDir matches the name of a directory of one of topic's partitions, live (topic-N)
// or renamed for deletion (topic-N.<id>-delete).
func partitionDir(topic string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(topic) + `-[0-9]+(\.[0-9a-f]+-delete)?$`)
}

// partitionDirsLeft says whether a directory whose name dirName matches is under one of
// roots.
func partitionDirsLeft(roots []string, dirName *regexp.Regexp) bool {
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

// removal waits for topic's files to go from roots and says in a few words how long that
// took.
func removal(roots []string, topic string) string {
	if len(roots) == 0 {
		return "not watched (no -log-dirs)"
	}
	waited, gone := awaitRemoved(roots, topic)
	if !gone {
		return fmt.Sprintf("still there after %v", waited.Round(time.Second))
	}
	return fmt.Sprintf("after %v", waited.Round(time.Second))
}
