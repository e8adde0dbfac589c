package runner

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/study"
)

// testCluster is one real embedded cluster shared by the package's tests. Two brokers show
// per-broker series and replication while leaving the machine's cores to the load; SASL
// (SCRAM over TLS) and TLS listeners let scenarios pick a listener. Each test runs its own
// study, whose name makes its run directory and topic prefix its own.
var testCluster *cluster.Cluster

func TestMain(m *testing.M) {
	os.Exit(clustertest.Run(m, cluster.Options{Brokers: 2, SASL: "scram-sha-512", TLS: true}, &testCluster))
}

// parseStudy loads a study from text, as `kbench run` loads a file.
func parseStudy(t *testing.T, text string) *study.Plan {
	t.Helper()
	plan, err := study.Parse("test.yaml", []byte(text))
	if err != nil {
		t.Fatalf("study: %v", err)
	}
	return plan
}

// sharedCluster attaches a run to the test cluster through the external path, with the
// brokers' PIDs so broker CPU is read from /proc too.
func sharedCluster() *External {
	ext := &External{Bootstrap: testCluster.Bootstrap()}
	for _, b := range testCluster.Brokers() {
		ext.MetricsURLs = append(ext.MetricsURLs, b.MetricsURL)
		ext.BrokerPIDs = append(ext.BrokerPIDs, b.PID)
	}
	return ext
}

// options runs plan on the shared cluster (when there is one: not under -short) into a new
// runs directory, logging to the test.
func options(t *testing.T, plan *study.Plan, text string) Options {
	opts := Options{Plan: plan, StudyText: []byte(text), RunsDir: t.TempDir(),
		Log: testWriter{t}, Progress: testWriter{t}, Version: "test"}
	if testCluster != nil {
		opts.External = sharedCluster()
	}
	return opts
}

// testWriter sends the runner's log and progress lines to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// lockedBuffer collects progress output written from the load's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// admin is an admin client on the test cluster's plain listener.
func admin(t *testing.T) *kadm.Client {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(testCluster.Bootstrap(), ",")...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return kadm.NewClient(cl)
}

// runTopics lists the topics left on the cluster by the run in dir.
func runTopics(t *testing.T, dir string) []string {
	t.Helper()
	listed, err := admin(t).ListTopics(context.Background())
	if err != nil {
		t.Fatalf("list topics: %v", err)
	}
	prefix := "kbench-" + sanitizeTopic(filepath.Base(dir))
	var left []string
	for name := range listed {
		if strings.HasPrefix(name, prefix) {
			left = append(left, name)
		}
	}
	sort.Strings(left)
	return left
}

// readRun reads a run directory.
func readRun(t *testing.T, dir string) *results.RunDir {
	t.Helper()
	rd, err := results.Read(dir)
	if err != nil {
		t.Fatalf("read run directory: %v", err)
	}
	return rd
}

// repeats returns the repeats written for scenario id, failing unless there are want.
func repeats(t *testing.T, rd *results.RunDir, id string, want int) []results.Repeat {
	t.Helper()
	reps := rd.Repeats[id]
	if len(reps) != want {
		t.Fatalf("scenario %s: %d repeat files, want %d", id, len(reps), want)
	}
	return reps
}

// checkValid fails the test when rep is invalid for any reason but a missed target rate: the
// machine running the tests is shared, so a rate is not a promise there, but lost or failed
// records are always a bug.
func checkValid(t *testing.T, rep results.Repeat) {
	t.Helper()
	for _, reason := range rep.Validity.Reasons {
		if !strings.HasPrefix(reason, "missed the target rate") {
			t.Errorf("%s repeat %d: invalid: %s", rep.Scenario, rep.Repeat, reason)
		}
	}
}
