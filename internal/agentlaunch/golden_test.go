package agentlaunch

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// TestGolden pins the whole output, comments included, as users will read and apply it.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		file string
		o    Options
	}{
		{"job.golden.yaml", Options{Agents: 3, Image: "registry.example.com/kbench:1.0",
			Bootstrap: "kafka-0.kafka:9092,kafka-1.kafka:9092", Namespace: "bench", Secret: "kbench-client"}},
		{"kbench-agent@.service.golden", Options{Format: Systemd, Agents: 3,
			Bootstrap: "10.0.0.1:9092", CommandConfig: "/etc/kbench/client.properties"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, tc.o); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tc.file)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("output differs from %s (run with -update after checking):\n%s", path, buf.String())
			}
		})
	}
}
