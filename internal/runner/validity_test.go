package runner

import (
	"context"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/cluster/clustertest"
)

// TestInvalidRepeats checks that a repeat which missed its target rate, or whose records
// failed, is kept but marked invalid with the reason.
func TestInvalidRepeats(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := `
name: t-invalid
repeats: 1
warmup: 1s
cooldown: 0s
defaults:
  topic: {partitions: 1, replicas: 1}
  producers: {record_size: 1KiB, duration: 1s, rate: 1000}
parameters:
  case:
    too-fast: {producers.rate: 50000000}
    too-large: {topic.configs.max.message.bytes: 200}
matrix:
  case: [too-fast, too-large]
`
	out, err := Run(context.Background(), options(t, parseStudy(t, text), text))
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if !out.Complete || out.Repeats != 2 || out.Invalid != 2 {
		t.Fatalf("outcome %+v, want complete with 2 invalid repeats", out)
	}
	rd := readRun(t, out.Dir)
	for id, want := range map[string]string{"case=too-fast": "missed the target rate", "case=too-large": "records failed"} {
		rep := repeats(t, rd, id, 1)[0]
		reasons := strings.Join(rep.Validity.Reasons, "; ")
		if rep.Validity.Valid || !strings.Contains(reasons, want) {
			t.Errorf("%s: valid=%v reasons %q, want invalid for %q", id, rep.Validity.Valid, reasons, want)
		}
	}
	if left := runTopics(t, out.Dir); len(left) > 0 {
		t.Errorf("topics left after the run: %v", left)
	}
}
