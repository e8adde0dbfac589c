// Package atomicfile writes a file whole or not at all: through a temporary file in the same
// directory, synced, then renamed over the target, so a reader (a report, a proxy reloading
// on SIGHUP, kbench cluster down) sees either the old file or the whole new one.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes data to path with permissions perm, atomically; a failure leaves the old
// file in place and no temporary file behind.
func Write(path string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("unable to write %s: %w", path, err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, perm)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("unable to write %s: %w", path, err)
	}
	return nil
}
