package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/results"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func buildFixture(t *testing.T, f fixture) *Model {
	t.Helper()
	rd, err := results.Read(f.write(t))
	if err != nil {
		t.Fatal(err)
	}
	rd.Dir = "runs/fixture" // the temporary path must not reach the golden files
	m, err := Build(rd, Options{Generated: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGolden(t *testing.T) {
	m := buildFixture(t, defaultFixture())
	for _, tc := range []struct {
		file   string
		render func(*bytes.Buffer, *Model) error
	}{
		{"fixture.golden.md", func(b *bytes.Buffer, m *Model) error { return WriteMarkdown(b, m) }},
		{"fixture.golden.html", func(b *bytes.Buffer, m *Model) error { return WriteHTML(b, m) }},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tc.render(&buf, m); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s differs from the rendered report; inspect the diff and run go test -update if it is intended", path)
			}
		})
	}
}
