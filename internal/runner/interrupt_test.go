package runner

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/results"
)

// cancelWriter cancels the run once the progress output shows repeat 2 began, after delay,
// as Ctrl-C in the middle of a measured window would.
type cancelWriter struct {
	lockedBuffer
	once   sync.Once
	delay  time.Duration
	cancel context.CancelFunc
}

func (w *cancelWriter) Write(p []byte) (int, error) {
	if strings.Contains(string(p), "(repeat 2/2)") {
		w.once.Do(func() { time.AfterFunc(w.delay, w.cancel) })
	}
	return w.lockedBuffer.Write(p)
}

// TestInterruptAndResume cancels a run in its second repeat, then finishes it with
// ResumeDir.
func TestInterruptAndResume(t *testing.T) {
	clustertest.Need(t, testCluster)
	text := `
name: t-interrupt
repeats: 2
warmup: 1s
cooldown: 0s
defaults:
  topic: {partitions: 2, replicas: 2}
  producers: {record_size: 100, duration: 2s, rate: 300}
`
	plan := parseStudy(t, text)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	progress := &cancelWriter{delay: 2 * time.Second, cancel: cancel} // inside the measured window
	opts := options(t, plan, text)
	opts.Progress = progress
	opts.Seed = 11
	out, err := Run(ctx, opts)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("run returned %v, want context.Canceled; progress:\n%s", err, progress.String())
	}
	if out == nil || out.Complete || out.Repeats != 1 {
		t.Fatalf("outcome %+v, want incomplete with 1 repeat", out)
	}
	rd := readRun(t, out.Dir)
	if s := rd.Run.Status; s.State != results.Incomplete || s.Reason != "interrupted" {
		t.Errorf("run.json status %+v, want incomplete/interrupted", s)
	}
	repeats(t, rd, "default", 1)
	if left := runTopics(t, out.Dir); len(left) > 0 {
		t.Errorf("topics left after the interruption: %v", left)
	}
	first, err := os.ReadFile(results.RepeatPath(out.Dir, "default", 1))
	if err != nil {
		t.Fatal(err)
	}

	opts = options(t, plan, text)
	opts.ResumeDir = out.Dir
	opts.Seed = 99 // ignored: a resume keeps the recorded order
	resumed, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if !resumed.Complete || resumed.Repeats != 1 || resumed.Dir != out.Dir {
		t.Fatalf("resumed outcome %+v, want complete in %s with 1 repeat run", resumed, out.Dir)
	}
	rd = readRun(t, out.Dir)
	if rd.Run.Status.State != results.Complete {
		t.Errorf("run.json status %+v after resume, want complete", rd.Run.Status)
	}
	if o := rd.Run.Order; o == nil || o.Kind != OrderKind || o.Seed != 11 {
		t.Errorf("run.json order %+v after resume, want the first run's interleaved seed 11", o)
	}
	reps := repeats(t, rd, "default", 2)
	if reps[1].Repeat != 2 || reps[1].Summary.RecordsAcked == 0 {
		t.Errorf("resumed repeat %d acked %d, want repeat 2 with records", reps[1].Repeat, reps[1].Summary.RecordsAcked)
	}
	checkValid(t, reps[1])
	again, err := os.ReadFile(results.RepeatPath(out.Dir, "default", 1))
	if err != nil || !bytes.Equal(first, again) {
		t.Errorf("repeat 1 changed by the resume (err %v)", err)
	}
	if left := runTopics(t, out.Dir); len(left) > 0 {
		t.Errorf("topics left after the resume: %v", left)
	}
	if _, err := Run(context.Background(), opts); err == nil || !strings.Contains(err.Error(), "already complete") {
		t.Errorf("resuming a complete run: %v, want an error saying it is complete", err)
	}
}
