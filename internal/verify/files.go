package verify

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/kbench/kbench/internal/results"
)

// historyFiles writes the history beside verify.json, so a reviewer can recompute every
// count without kbench.
type historyFiles struct {
	dir   string
	reads *tsvFile
}

type tsvFile struct {
	f  *os.File
	gz *gzip.Writer
	w  *bufio.Writer
}

func createTSV(path string) (*tsvFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("unable to create history file: %w", err)
	}
	gz := gzip.NewWriter(f)
	return &tsvFile{f: f, gz: gz, w: bufio.NewWriterSize(gz, 64<<10)}, nil
}

func (t *tsvFile) line(a, b, c, d int64, last string) {
	buf := strconv.AppendInt(nil, a, 10)
	buf = append(buf, '\t')
	buf = strconv.AppendInt(buf, b, 10)
	buf = append(buf, '\t')
	buf = strconv.AppendInt(buf, c, 10)
	if last != "" {
		buf = append(buf, '\t')
		buf = append(buf, last...)
	} else {
		buf = append(buf, '\t')
		buf = strconv.AppendInt(buf, d, 10)
	}
	t.w.Write(append(buf, '\n'))
}

func (t *tsvFile) close() error {
	if t == nil || t.f == nil {
		return nil
	}
	err := t.w.Flush()
	if e := t.gz.Close(); err == nil {
		err = e
	}
	if e := t.f.Close(); err == nil {
		err = e
	}
	t.f = nil
	if err != nil {
		return fmt.Errorf("unable to write history file: %w", err)
	}
	return nil
}

func createHistoryFiles(dir string) (*historyFiles, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("unable to create run directory: %w", err)
	}
	r, err := createTSV(filepath.Join(dir, results.ReadsFile))
	if err != nil {
		return nil, err
	}
	return &historyFiles{dir: dir, reads: r}, nil
}

func (h *historyFiles) read(e Entry) {
	h.reads.line(int64(e.Partition), e.Offset, int64(e.Producer), e.Seq, "")
}

// finish writes the acknowledgements and the unacknowledged records and closes every file.
func (h *historyFiles) finish(acks []Entry, hist *History) error {
	if err := h.reads.close(); err != nil {
		return err
	}
	a, err := createTSV(filepath.Join(h.dir, results.AcksFile))
	if err != nil {
		return err
	}
	for _, e := range acks {
		a.line(int64(e.Partition), e.Offset, int64(e.Producer), e.Seq, "")
	}
	if err := a.close(); err != nil {
		return err
	}
	u, err := createTSV(filepath.Join(h.dir, results.UnackedFile))
	if err != nil {
		return err
	}
	for i := range hist.producers {
		for seq, st := range hist.producers[i].status {
			if o := st & outcomeMask; o != acked {
				u.line(int64(i), int64(seq), 0, 0, outcomeWord(o))
			}
		}
	}
	return u.close()
}

func (h *historyFiles) close() { h.reads.close() }

func (h *historyFiles) names() []string {
	return []string{results.AcksFile, results.ReadsFile, results.UnackedFile}
}

func outcomeWord(o byte) string {
	switch o {
	case failed:
		return "failed"
	case unsent:
		return "unsent"
	}
	return "in-flight"
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
