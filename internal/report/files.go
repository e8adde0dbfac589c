package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/kbench/kbench/internal/results"
)

// Formats are the report formats and the file each is written to.
var Formats = map[string]string{
	"md":   "report.md",
	"html": "report.html",
	"csv":  "results.csv",
	"json": "report.json",
}

// DefaultFormats are written when none are asked for.
var DefaultFormats = []string{"md", "html", "csv", "json"}

func jsonEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc
}

// ParseFormats splits a comma-separated list of formats and checks each one.
func ParseFormats(s string) ([]string, error) {
	var out []string
	for _, f := range strings.Split(s, ",") {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		if f == "markdown" {
			f = "md"
		}
		if _, ok := Formats[f]; !ok {
			return nil, fmt.Errorf("unknown report format %q (valid: md, html, csv, json)", f)
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no report format given (valid: md, html, csv, json)")
	}
	return out, nil
}

// WriteFiles renders m in each format into dir (Markdown also writes its charts into
// dir/charts) and returns the paths written, in the order of formats.
func WriteFiles(m *Model, dir string, formats []string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("unable to create report directory: %w", err)
	}
	var paths []string
	for _, f := range formats {
		name, ok := Formats[f]
		if !ok {
			return paths, fmt.Errorf("unknown report format %q", f)
		}
		var buf bytes.Buffer
		var err error
		switch f {
		case "md":
			err = WriteMarkdown(&buf, m)
			if err == nil {
				err = writeCharts(m, filepath.Join(dir, chartDir))
			}
		case "html":
			err = WriteHTML(&buf, m)
		case "csv":
			err = WriteCSV(&buf, m)
		case "json":
			err = WriteJSON(&buf, m)
		}
		if err != nil {
			return paths, err
		}
		path := filepath.Join(dir, name)
		if err := results.WriteFileAtomic(path, buf.Bytes()); err != nil {
			return paths, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

func writeCharts(m *Model, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("unable to create chart directory: %w", err)
	}
	for _, c := range m.Charts {
		svg := append([]byte(`<?xml version="1.0"?>`+"\n"), c.SVG...)
		if err := results.WriteFileAtomic(filepath.Join(dir, c.Name+".svg"), svg); err != nil {
			return err
		}
	}
	return nil
}

// Generate reads the run directory runDir, builds its report and writes it in formats into
// out (runDir when empty). This is what `kbench report` and the end of `kbench run` do.
func Generate(runDir, out string, formats []string, opts Options) ([]string, error) {
	rd, err := results.Read(runDir)
	if err != nil {
		return nil, err
	}
	m, err := Build(rd, opts)
	if err != nil {
		return nil, err
	}
	if out == "" {
		out = runDir
	}
	return WriteFiles(m, out, formats)
}
