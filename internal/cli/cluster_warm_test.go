package cli

import (
	"bytes"
	"context"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestWarmCluster: cluster up's warm-up loads the shared test cluster on two topics of
// kbench's in turn, replicated and not, says so, and leaves no topic behind.
func TestWarmCluster(t *testing.T) {
	if testCluster == nil {
		t.Skip("needs the embedded test cluster (not under -short)")
	}
	var log bytes.Buffer
	if err := warmCluster(context.Background(), testCluster, time.Minute, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "warming up the cluster's JIT for 15s on a replicated topic, then 15s on an unreplicated one, each on while one of its last two 5 s slices beat every earlier one by more than 10% or the brokers' JIT compilers used more than 0.1 cores in the last, up to 1m0s in all (unmeasured; --no-warmup skips it)") {
		t.Errorf("log %q does not say it warms up", log.String())
	}
	// Each part says "<topic> topic: warm after 25s: 17,270, ..., 53,392 records/s in its 5 s
	// slices; the brokers' JIT compilers used ... cores in them", or "still warming when its
	// 45s ended (...): ..." on a host too busy to finish within the bound: the replicated
	// part 15 to 45 s, the unreplicated one at least 15 s, a minute in all, one rate and one
	// compilers' figure per 5 s slice.
	var total time.Duration
	for _, part := range []string{"replicated", "unreplicated"} {
		var took time.Duration
		var rates, jit string
		for line := range strings.SplitSeq(log.String(), "\n") {
			line, ok := strings.CutPrefix(line, part+" topic: ")
			if !ok {
				continue
			}
			after, ok := strings.CutPrefix(line, "warm after ")
			if !ok {
				after, ok = strings.CutPrefix(line, "still warming when its ")
				if d, rest, found := strings.Cut(after, " ended ("); found {
					_, line, _ := strings.Cut(rest, "): ")
					after = d + ": " + line
				}
			}
			if ok {
				d, rest, _ := strings.Cut(after, ": ")
				took, _ = time.ParseDuration(d)
				rates, _, _ = strings.Cut(rest, " records/s")
				_, jit, _ = strings.Cut(rest, "the brokers' JIT compilers used ")
				jit, _, _ = strings.Cut(jit, " cores in them")
			}
		}
		n := len(strings.Split(rates, ", "))
		if rates == "" || took < 15*time.Second || time.Duration(n)*5*time.Second != took {
			t.Errorf("log %q: want a %s part of 15 s or more with one rate per 5 s slice", log.String(), part)
		}
		total += took
		// The brokers run on this host: their compilers' CPU is read for every slice, at
		// most the host's CPUs (with a margin for the readings' timing).
		cores := strings.Split(jit, ", ")
		if len(cores) != n {
			t.Errorf("log %q: want the JIT compilers' cores for each of the %s part's %d slices", log.String(), part, n)
		}
		for _, c := range cores {
			if v, err := strconv.ParseFloat(c, 64); err != nil || v < 0 || v > 1.1*float64(runtime.NumCPU()) {
				t.Errorf("JIT compilers' cores %q: want 0 to the host's %d CPUs", c, runtime.NumCPU())
			}
		}
	}
	if total > time.Minute {
		t.Errorf("log %q: the parts took %s, over the minute's bound", log.String(), total)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	// A deleted topic can stay in the brokers' metadata for a moment after the deletion
	// was accepted: look until it is gone, for at most 30 s.
	deadline := time.Now().Add(30 * time.Second)
	for {
		left := warmupTopics(t, kadm.NewClient(cl))
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("warm-up topics %v left on the cluster", left)
		}
		time.Sleep(500 * time.Millisecond)
	}
}

func warmupTopics(t *testing.T, adm *kadm.Client) []string {
	t.Helper()
	topics, err := adm.ListTopics(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, name := range topics.Names() {
		if strings.Contains(name, "jit-warmup") {
			left = append(left, name)
		}
	}
	return left
}
