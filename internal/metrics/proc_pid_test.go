package metrics

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// procDirOf writes files into a new directory, which then stands for /proc.
func procDirOf(t *testing.T, files fstest.MapFS) string {
	t.Helper()
	dir := t.TempDir()
	writeProc(t, dir, files)
	return dir
}

// writeProc writes files into dir, replacing those already there.
func writeProc(t *testing.T, dir string, files fstest.MapFS) {
	t.Helper()
	for name, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// procFixture returns the readers of a proc directory holding files.
func procFixture(t *testing.T, files fstest.MapFS) procDir {
	t.Helper()
	proc, err := openProc(procDirOf(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return proc
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "proc", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReadProcStat(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    procStat
		wantErr string
	}{
		// comm holds spaces and parentheses; the fields are counted after the last ')'.
		{file: "pid_stat", want: procStat{CPUTicks: 1500 + 250, Threads: 87, RSSPages: 150000}},
		// A real line of this machine's /proc/self/stat parses.
		{file: "real/pid_stat"},
		{file: "pid_stat_truncated", wantErr: "EOF"},
		{file: "pid_stat_no_comm", wantErr: "couldn't extract comm"},
		{file: "pid_stat_bad_utime", wantErr: "expected integer"}, // utime
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, err := readProcStat(procFixture(t, fstest.MapFS{"7/stat": {Data: readFixture(t, tc.file)}}), 7)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.file == "real/pid_stat" {
				if got.Threads < 1 || got.RSSPages < 1 {
					t.Errorf("real stat parsed to %+v: want at least one thread and one page", got)
				}
				return
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestReadProcIO(t *testing.T) {
	for _, tc := range []struct {
		file    string
		want    procIO
		wantErr string
	}{
		{file: "pid_io", want: procIO{ReadBytes: 4096, WriteBytes: 1048576}},
		{file: "real/pid_io"},
		{file: "pid_io_no_write", wantErr: "does not match format"},
		{file: "pid_io_negative", wantErr: "does not match format"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, err := readProcIO(procFixture(t, fstest.MapFS{"7/io": {Data: readFixture(t, tc.file)}}), 7)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.file != "real/pid_io" && got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestReadProcErrorsNameTheFile(t *testing.T) {
	proc := procFixture(t, fstest.MapFS{"7/stat": {Data: []byte("garbage")}})
	if _, err := readProcStat(proc, 7); err == nil || !strings.Contains(err.Error(), "/proc/7/stat") {
		t.Errorf("malformed stat: error %v, want one naming /proc/7/stat", err)
	}
	if _, err := readProcIO(proc, 7); err == nil || !strings.Contains(err.Error(), "/proc/7/io") {
		t.Errorf("missing io: error %v, want one naming /proc/7/io", err)
	}
}
