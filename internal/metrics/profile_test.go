package metrics

import (
	"bytes"
	"context"
	"runtime/pprof"
	"testing"
	"time"
)

// sink keeps burn's work from being optimised away.
var sink int

// burn does n units of CPU-bound work: the same CPU time per unit however busy the machine.
func burn(n int) {
	x := 0
	for range n {
		for i := range 100_000 {
			x ^= i * i
		}
	}
	sink += x
}

// TestProfileCPUByLabel profiles two labelled phases run one after the other, the first
// doing three times the work of the second through a child goroutine (labels are
// inherited), and checks each label's CPU time against the process's CPU time in that
// phase from getrusage. One after the other, so the two phases do not compete for a core
// on a busy host: the profile's figure and getrusage's then measure the same work. The
// profile samples at 100 Hz, so each label may be off by a few 10 ms samples, and the
// process's CPU in a phase includes the runtime's own work: 35% or 50 ms either way is
// allowed.
func TestProfileCPUByLabel(t *testing.T) {
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		t.Skipf("cpu profiler busy: %v", err)
	}
	want := map[string]time.Duration{}
	phase := func(label string, run func()) {
		before := processCPU()
		pprof.Do(context.Background(), pprof.Labels("role", label), func(context.Context) { run() })
		want[label] = processCPU() - before
	}
	phase("big", func() {
		done := make(chan struct{})
		go func() { burn(3 * 2000); close(done) }()
		<-done
	})
	phase("small", func() { burn(2000) })
	pprof.StopCPUProfile()
	got, err := ProfileCPUByLabel(buf.Bytes(), "role")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cpu by label from the profile: big %s, small %s; from getrusage: big %s, small %s",
		time.Duration(got["big"]), time.Duration(got["small"]), want["big"], want["small"])
	for label, w := range want {
		g := time.Duration(got[label])
		tolerance := max(w*35/100, 50*time.Millisecond)
		if g < w-tolerance || g > w+tolerance {
			t.Errorf("label %s: %s of CPU in the profile, getrusage measured %s (allowed +/- %s)", label, g, w, tolerance)
		}
	}
}

func TestProfileCPUByLabelRefusesGarbage(t *testing.T) {
	if _, err := ProfileCPUByLabel([]byte("not a profile"), "role"); err == nil {
		t.Error("garbage parsed as a profile")
	}
}
