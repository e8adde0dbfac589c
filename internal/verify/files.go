package verify

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/kbench/kbench/internal/atomicfile"
)

// The files of a verify run directory.
const (
	// ResultFile is the Result as JSON.
	ResultFile = "verify.json"
	// AcksFile lists every acknowledgement, sorted by partition and offset:
	// "partition offset producer seq" per line, tab-separated, gzipped.
	AcksFile = "acks.tsv.gz"
	// ReadsFile lists every record read back in the order read: "partition offset producer
	// seq" (producer -1: not a record of this run).
	ReadsFile = "reads.tsv.gz"
	// UnackedFile lists every record sent but not acknowledged: "producer seq outcome"
	// (failed, unsent or in-flight). With AcksFile it is every record sent.
	UnackedFile = "unacknowledged.tsv.gz"
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
	r, err := createTSV(filepath.Join(dir, ReadsFile))
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
	a, err := createTSV(filepath.Join(h.dir, AcksFile))
	if err != nil {
		return err
	}
	for _, e := range acks {
		a.line(int64(e.Partition), e.Offset, int64(e.Producer), e.Seq, "")
	}
	if err := a.close(); err != nil {
		return err
	}
	u, err := createTSV(filepath.Join(h.dir, UnackedFile))
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

func (h *historyFiles) names() []string { return []string{AcksFile, ReadsFile, UnackedFile} }

func outcomeWord(o byte) string {
	switch o {
	case failed:
		return "failed"
	case unsent:
		return "unsent"
	}
	return "in-flight"
}

// WriteResult writes res as dir/verify.json, atomically.
func WriteResult(dir string, res *Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("unable to create run directory: %w", err)
	}
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return fmt.Errorf("unable to encode %s: %w", ResultFile, err)
	}
	return atomicfile.Write(filepath.Join(dir, ResultFile), append(b, '\n'), 0o644)
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
