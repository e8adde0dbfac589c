package results

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestWriteReadRoundTrip(t *testing.T) {
	parent := t.TempDir()
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	dir, err := Create(parent, start, "quick")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := filepath.Base(dir), "2026-01-02-quick"; got != want {
		t.Fatalf("run directory %q, want %q", got, want)
	}
	run := &Run{
		KbenchVersion: "v1",
		Study:         Study{Name: "quick", Title: "Quick"},
		Status:        Status{State: Complete},
		Started:       start,
		Finished:      start.Add(time.Minute),
		Scenarios:     []Scenario{{ID: "b1k", Params: []Param{{"batch.size", "1024"}}, Repeats: 2}},
		Hypotheses:    []string{"records_per_sec[batch.size=16384] > records_per_sec[batch.size=1024]"},
		Environment: Environment{
			Cluster:      Embedded,
			Brokers:      3,
			BrokerConfig: map[string]string{"num.io.threads": "8", "listener.name.sasl.scram-sha-512.sasl.jaas.config": "secret!"},
		},
	}
	if err := WriteRun(dir, run); err != nil {
		t.Fatal(err)
	}
	if err := WriteStudy(dir, []byte("name: quick\n")); err != nil {
		t.Fatal(err)
	}
	rep := &Repeat{
		Scenario:       "b1k",
		Repeat:         1,
		Workload:       Workload{Kind: "produce", RecordSize: 1024, Throughput: -1, ProducerProps: map[string]string{"sasl.jaas.config": "pw", "acks": "1"}},
		ProducerConfig: map[string]string{"ssl.key.password": "pw", "key.serializer": "bytes"},
		Summary:        Summary{RecordsAcked: 10, Latency: Latency{P99Ms: 2.5}},
		Latency:        map[string][]Bucket{LatencyDue: {{UpperUs: 1000, Count: 10}}},
		Validity:       Validity{Valid: true},
	}
	if err := WriteRepeat(dir, rep); err != nil {
		t.Fatal(err)
	}
	rep2 := *rep
	rep2.Repeat = 2
	if err := WriteRepeat(dir, &rep2); err != nil {
		t.Fatal(err)
	}
	// A temporary file left by an interrupted write must not be read as a repeat.
	if err := os.WriteFile(filepath.Join(dir, ScenariosDir, "b1k", ".repeat-3.json.tmp-1"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}

	rd, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rd.Run.Version != FormatVersion || rd.Run.Study.File != StudyFile {
		t.Errorf("version %d file %q, want %d %q", rd.Run.Version, rd.Run.Study.File, FormatVersion, StudyFile)
	}
	if got := rd.Run.Environment.BrokerConfig["listener.name.sasl.scram-sha-512.sasl.jaas.config"]; got != Redacted {
		t.Errorf("jaas config written as %q", got)
	}
	if string(rd.Study) != "name: quick\n" {
		t.Errorf("study %q", rd.Study)
	}
	reps := rd.Repeats["b1k"]
	if len(reps) != 2 || reps[0].Repeat != 1 || reps[1].Repeat != 2 {
		t.Fatalf("repeats %+v", reps)
	}
	if got := reps[0].ProducerConfig; got["ssl.key.password"] != Redacted || got["key.serializer"] != "bytes" {
		t.Errorf("producer config %v", got)
	}
	if got := reps[0].Workload.ProducerProps; got["sasl.jaas.config"] != Redacted || got["acks"] != "1" {
		t.Errorf("producer props %v", got)
	}
	if !reflect.DeepEqual(reps[0].Latency, rep.Latency) || reps[0].Summary.Latency.P99Ms != 2.5 {
		t.Errorf("latency did not round-trip: %+v", reps[0].Latency)
	}
	// The caller's maps are not modified by redaction.
	if rep.ProducerConfig["ssl.key.password"] != "pw" {
		t.Error("WriteRepeat modified the caller's map")
	}
	b, _ := os.ReadFile(RepeatPath(dir, "b1k", 1))
	if strings.Contains(string(b), `"pw"`) {
		t.Error("secret written to disk")
	}
}

func TestCreateAddsSuffix(t *testing.T) {
	parent := t.TempDir()
	day := time.Date(2026, 5, 6, 0, 0, 0, 0, time.UTC)
	var got []string
	for range 3 {
		dir, err := Create(parent, day, "s")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, filepath.Base(dir))
	}
	want := []string{"2026-05-06-s", "2026-05-06-s-2", "2026-05-06-s-3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if _, err := Create(parent, day, "../x"); err == nil {
		t.Error("Create accepted a study name with a slash")
	}
}

func TestWriteRepeatRejects(t *testing.T) {
	dir := t.TempDir()
	for _, r := range []Repeat{
		{Scenario: "a/b", Repeat: 1}, // would escape the scenarios directory
		{Scenario: "", Repeat: 1},    // no directory name
		{Scenario: "a", Repeat: 0},   // repeats are 1-based
	} {
		if err := WriteRepeat(dir, &r); err == nil {
			t.Errorf("WriteRepeat(%+v) succeeded", r)
		}
	}
}

func TestReadRejectsNewerVersion(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, RunFile), []byte(`{"version": 99}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(dir); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Errorf("Read error %v, want a version error", err)
	}
	if _, err := Read(filepath.Join(dir, "missing")); err == nil {
		t.Error("Read of a missing directory succeeded")
	}
}

func TestWriteFileAtomicLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	for _, content := range []string{"one", "two"} {
		if err := WriteFileAtomic(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		if string(b) != content {
			t.Errorf("content %q, want %q", b, content)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want 1", len(entries))
	}
	if err := WriteFileAtomic(filepath.Join(dir, "no", "such", "dir"), nil); err == nil {
		t.Error("write into a missing directory succeeded")
	}
}
