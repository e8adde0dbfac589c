package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestBuildFromFixture(t *testing.T) {
	f := defaultFixture()
	rd := readFixture(t, f)
	m, err := Build(rd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Rows) != len(f.batches)*len(f.replicas) {
		t.Fatalf("%d rows", len(m.Rows))
	}
	for _, r := range m.Rows {
		// The median must come from the valid repeats only, as read back from the files.
		var valid []float64
		for _, rep := range rd.Repeats[r.ID] {
			if rep.Validity.Valid {
				valid = append(valid, rep.Summary.RecordsPerSec)
			}
		}
		// Expected from the sorted values directly, not from the summary under test: the
		// middle of 3 valid repeats, the mean of 2 when one is marked invalid.
		slices.Sort(valid)
		want := Stat{N: len(valid)}
		switch len(valid) {
		case 3:
			want.Median, want.Min, want.Max = valid[1], valid[0], valid[2]
		case 2:
			want.Median, want.Min, want.Max = (valid[0]+valid[1])/2, valid[0], valid[1]
		default:
			t.Fatalf("%s: %d valid repeats, the fixture writes 2 or 3", r.ID, len(valid))
		}
		if r.RecordsPerSec != want {
			t.Errorf("%s records/s %+v, want %+v from the valid repeats", r.ID, r.RecordsPerSec, want)
		}
		if n, ok := f.invalid[r.ID]; ok {
			if len(r.Invalid) != 1 || r.Invalid[0].Repeat != n || r.Valid != f.repeats-1 {
				t.Errorf("%s invalid %+v valid %d", r.ID, r.Invalid, r.Valid)
			}
		}
		if len(r.Brokers) != f.brokers {
			t.Errorf("%s has %d brokers", r.ID, len(r.Brokers))
		}
	}
	// Effects follow the fixture's model: rate up with batch.size, down with replicas.
	for _, e := range m.Effects {
		a, _ := parseNumber(e.From)
		b, _ := parseNumber(e.To)
		var ra, rb float64
		switch e.Dimension {
		case "batch.size":
			ra, rb = trueRate(int(a), 1), trueRate(int(b), 1)
		case "replicas":
			ra, rb = trueRate(1024, int(a)), trueRate(1024, int(b))
		default:
			t.Fatalf("effect on unknown dimension %q", e.Dimension)
		}
		if direction(e.RateRatio) != direction(rb/ra) {
			t.Errorf("%s: ratio %.2f, model says %.2f", e.Text, e.RateRatio, rb/ra)
		}
	}
	if len(m.Effects) != len(f.replicas)*(len(f.batches)-1)+len(f.batches)*(len(f.replicas)-1) {
		t.Errorf("%d effects", len(m.Effects))
	}
	outcomes := map[string]string{}
	for _, v := range m.Verdicts {
		outcomes[v.Hypothesis] = v.Outcome
	}
	if got := outcomes[rd.Run.Hypotheses[1]]; got != "confirmed" {
		t.Errorf("replication hypothesis %s, the model lowers the rate with replicas", got)
	}
	// the aggregate loses round 2 (b65536-r3's repeat 2 is invalid): 2 rounds, below 3
	if got := outcomes[rd.Run.Hypotheses[2]]; got != "indicative" {
		t.Errorf("hypothesis with an incomplete round: %s", got)
	}
	if got := outcomes[rd.Run.Hypotheses[3]]; got != "inconclusive" {
		t.Errorf("hypothesis on a missing scenario: %s", got)
	}
	if len(m.References) == 0 || len(m.Charts) < 4 {
		t.Errorf("%d references, %d charts", len(m.References), len(m.Charts))
	}
}

func TestInvalidHypothesis(t *testing.T) {
	v := verdicts([]string{"throughput(a=1) >"}, nil, 0.05)
	if len(v) != 1 || v[0].Outcome != "invalid" || v[0].Sentence == "" {
		t.Errorf("verdicts = %+v", v)
	}
}

func TestWriteFiles(t *testing.T) {
	f := defaultFixture()
	dir := f.write(t)
	out := t.TempDir()
	paths, err := Generate(dir, out, DefaultFormats, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != len(DefaultFormats) {
		t.Fatalf("paths %v", paths)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("must not appear")) {
			t.Errorf("%s contains a secret", p)
		}
	}
	charts, _ := filepath.Glob(filepath.Join(out, "charts", "*.svg"))
	if len(charts) == 0 {
		t.Error("no charts written for the Markdown report")
	}
	rows, err := csv.NewReader(strings.NewReader(mustRead(t, filepath.Join(out, "results.csv")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1+len(f.batches)*len(f.replicas) {
		t.Errorf("CSV has %d lines, want a header and one per scenario", len(rows))
	}
	var m Model
	if err := json.Unmarshal([]byte(mustRead(t, filepath.Join(out, "report.json"))), &m); err != nil {
		t.Fatal(err)
	}
	if m.Version != FormatVersion || len(m.Rows) != len(rows)-1 {
		t.Errorf("report.json version %d with %d rows", m.Version, len(m.Rows))
	}
	// The same run directory gives the same report: nothing is read from the clock.
	again := t.TempDir()
	if _, err := Generate(dir, again, []string{"md", "html"}, Options{}); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.md", "report.html"} {
		if mustRead(t, filepath.Join(out, name)) != mustRead(t, filepath.Join(again, name)) {
			t.Errorf("%s differs between two renderings of the same run", name)
		}
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseFormats(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    string
		wantErr bool
	}{
		{"md,html", "md,html", false},
		{" Markdown , json ", "md,json", false},
		{"pdf", "", true}, // not a format we write
		{",", "", true},   // nothing asked for
	} {
		got, err := ParseFormats(tc.in)
		if (err != nil) != tc.wantErr || strings.Join(got, ",") != tc.want {
			t.Errorf("ParseFormats(%q) = %v, %v", tc.in, got, err)
		}
	}
}

func TestParseNumber(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"16384", 16384, true}, {"16KiB", 16384, true}, {"1MB", 1 << 20, true}, {"0.5", 0.5, true},
		{"gzip", 0, false}, {"", 0, false},
	} {
		got, ok := parseNumber(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseNumber(%q) = %v, %v", tc.in, got, ok)
		}
	}
}
