package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster/clustertest"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

// reBrokerLine reads the figures the tests check from a broker line.
var (
	reBrokerLine = regexp.MustCompile(`^broker ([0-9]+): (.*)$`)
	reBrokerCPU  = regexp.MustCompile(`cpu ([0-9.]+) cores avg, ([0-9.]+) max`)
	reBrokerNet  = regexp.MustCompile(`net in ([0-9.]+) MB/s, out ([0-9.]+) MB/s`)
	reBrokerRep  = regexp.MustCompile(`replication in ([0-9.]+), out ([0-9.]+)`)
)

// brokerLines returns the broker lines of out by broker id.
func brokerLines(out string) map[int]string {
	lines := map[int]string{}
	for _, l := range strings.Split(out, "\n") {
		if m := reBrokerLine.FindStringSubmatch(l); m != nil {
			id, _ := strconv.Atoi(m[1])
			lines[id] = l
		}
	}
	return lines
}

func figure(re *regexp.Regexp, line string) (float64, bool) {
	m := re.FindStringSubmatch(line)
	if m == nil {
		return 0, false
	}
	v, err := strconv.ParseFloat(m[1], 64)
	return v, err == nil
}

// The flags' errors, before anything is sent: none of these runs reaches a broker.
func TestBrokerMetricsFlagErrors(t *testing.T) {
	stopped := t.TempDir()
	clustertest.WriteStoppedState(t, stopped)
	empty := t.TempDir()
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"stopped cluster in --cluster-dir",
			[]string{"produce", "--topic", "t", "--num-records", "1", "--record-size", "1", "--cluster-dir", stopped},
			"is not running (start it with `kbench cluster up`)"},
		{"no cluster in --cluster-dir",
			[]string{"consume", "--topic", "t", "--messages", "1", "--cluster-dir", empty},
			"no kbench cluster in " + empty},
		{"on, without a cluster or metrics URLs",
			[]string{"produce", "--bootstrap-server", "127.0.0.1:1", "--topic", "t", "--num-records", "1", "--record-size", "1",
				"--broker-metrics", "--cluster-dir", stopped},
			"is not running"},
		{"bad metrics URL",
			[]string{"consume", "--bootstrap-server", "127.0.0.1:1", "--topic", "t", "--messages", "1", "--metrics-url", "kafka-1:7071"},
			`--metrics-url "kafka-1:7071": want [ID=]http://host:port/metrics`},
		{"a broker listed twice",
			[]string{"produce", "--bootstrap-server", "127.0.0.1:1", "--topic", "t", "--num-records", "1", "--record-size", "1",
				"--metrics-url", "1=http://a/metrics", "--metrics-url", "1=http://b/metrics"},
			"broker 1 is listed twice"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runKbench(tt.args...)
			if code != 1 || !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, errOut, tt.wantErr)
			}
		})
	}
}

func TestMeasuredWindows(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	steady := load.ProduceStats{ElapsedSeconds: 7.5}
	from, to := produceWindow(start, &load.ProduceResult{Total: load.ProduceStats{ElapsedSeconds: 10}, Steady: &steady})
	if want := start.Add(2500 * time.Millisecond); !from.Equal(want) || !to.Equal(start.Add(10*time.Second)) {
		t.Errorf("produce with warm-up: [%v, %v], want [%v, +10s]", from, to, want)
	}
	from, _ = produceWindow(start, &load.ProduceResult{Total: load.ProduceStats{ElapsedSeconds: 10}})
	if !from.Equal(start) {
		t.Errorf("produce without warm-up starts at %v, want %v", from, start)
	}
	res := &load.ConsumeResult{Start: start, End: start.Add(15 * time.Second), TimedOut: true}
	if _, to := consumeWindow(res, 10*time.Second); !to.Equal(start.Add(5 * time.Second)) {
		t.Errorf("consume that timed out ends at %v, want 5 s in (the timeout spent waiting is left out)", to)
	}
	res.End = start.Add(3 * time.Second)
	if from, to := consumeWindow(res, 10*time.Second); !to.Equal(from) {
		t.Errorf("consume with no record: window [%v, %v], want empty", from, to)
	}
	res.TimedOut = false
	if _, to := consumeWindow(res, 0); !to.Equal(res.End) {
		t.Errorf("consume that ran to its end: to %v, want %v", to, res.End)
	}
}

// The broker lines come after Kafka's lines and match none of the expressions that parse them.
func TestBrokerLinesAreNotKafkaLines(t *testing.T) {
	sum := metrics.Summary{Brokers: []metrics.BrokerSummary{{ID: 1, CPUAllotment: 2, Rows: 5, Fields: map[string]metrics.Stat{
		metrics.FieldCPUCores: {Mean: 0.84, Max: 1.02}, metrics.FieldCPUPercent: {Mean: 42},
		metrics.FieldBytesInSec: {Mean: 10 * 1024 * 1024}, metrics.FieldDiskWriteBytesSec: {Mean: 1e6},
	}}, {ID: 2024, Rows: 0, Fields: map[string]metrics.Stat{}}}}
	var b strings.Builder
	printBrokerLines(&b, &sum)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want one per broker:\n%s", len(lines), b.String())
	}
	for _, l := range lines {
		for _, re := range []*regexp.Regexp{reProduceWindow, reProduceTotal, reConsumeHeader, reConsumeTotal, reConsumeDetail} {
			if re.MatchString(l) {
				t.Errorf("%q matches %s", l, re)
			}
		}
		// The checks TestProduceConsumeCommands applies to every line of the output.
		if strings.Contains(l, "records sent") || (len(l) > 4 && l[4] == '-') {
			t.Errorf("%q looks like one of Kafka's lines", l)
		}
	}
	printBrokerLines(&b, nil) // broker metrics off: nothing
	if got := strings.Count(b.String(), "\n"); got != 2 {
		t.Errorf("nil summary printed lines")
	}
}

// fakeExporter serves two brokers' worth of Prometheus text whose counters grow with time: 1
// MiB/s in and a quarter of a core.
func fakeExporter(t *testing.T) string {
	t.Helper()
	t0 := time.Now()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		el := time.Since(t0).Seconds()
		fmt.Fprintf(w, "# TYPE kafka_server_bytes_in_total counter\nkafka_server_bytes_in_total %g\n", el*1024*1024)
		fmt.Fprintf(w, "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %g\n", 10+el/4)
		fmt.Fprintf(w, "# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes %g\n", 256.0*1024*1024)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/metrics"
}

// Against kfake and a fake exporter: the broker lines follow the summary in text, the summary
// is in --json, and without the flags nothing changes.
func TestBrokerMetricsFromURLs(t *testing.T) {
	boot := fakeBootstrap(t, "cli-bm")
	url := fakeExporter(t)
	produce := []string{"produce", "--bootstrap-server", boot, "--topic", "cli-bm", "--num-records", "2500", "--record-size", "100",
		"--throughput", "1000"}

	out, errOut, code := runKbench(slices.Concat(produce, []string{"--metrics-url", "1=" + url, "--metrics-url", "7=" + url})...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := brokerLines(out)
	for _, id := range []int{1, 7} {
		// Scrapes are timed by the client, so the rates are close to, not exactly, the exporter's.
		cpu, okCPU := figure(reBrokerCPU, lines[id])
		in, okIn := figure(reBrokerNet, lines[id])
		if !okCPU || !okIn || math.Abs(cpu-0.25) > 0.03 || math.Abs(in-1) > 0.1 {
			t.Errorf("broker %d line %q: want cpu 0.25 cores and net in 1 MB/s;\nstdout:\n%s\nstderr:\n%s", id, lines[id], out, errOut)
		}
	}
	if all := strings.Split(strings.TrimSpace(out), "\n"); !strings.HasPrefix(all[len(all)-1], "broker 7:") ||
		!strings.Contains(all[len(all)-3], "client CPU") {
		t.Errorf("broker lines are not the last, after the client CPU line:\n%s", out)
	}

	out, errOut, code = runKbench(slices.Concat(produce, []string{"--json", "--metrics-url", url})...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		load.ProduceResult
		BrokerMetrics *metrics.Summary `json:"broker_metrics"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not one JSON result: %v\n%s", err, out)
	}
	if res.Total.Acked != 2500 || res.BrokerMetrics == nil || len(res.BrokerMetrics.Brokers) != 1 ||
		res.BrokerMetrics.Brokers[0].Rows == 0 || res.BrokerMetrics.Brokers[0].Fields[metrics.FieldBytesInSec].Mean <= 0 {
		t.Errorf("JSON lacks the result or the broker summary: acked %d, %+v", res.Total.Acked, res.BrokerMetrics)
	}

	// Consume: the window ends at the last record, not after the timeout spent waiting.
	out, errOut, code = runKbench("consume", "--bootstrap-server", boot, "--topic", "cli-bm", "--messages", "1000000",
		"--duration", "3s", "--metrics-url", url)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// A URL without ID= goes to the first broker in node-id order: kfake's only one is 0.
	if in, ok := figure(reBrokerNet, brokerLines(out)[0]); !ok || math.Abs(in-1) > 0.1 {
		t.Errorf("consume: no broker line with net in 1 MB/s;\nstdout:\n%s\nstderr:\n%s", out, errOut)
	}

	// Off: a cluster that is not the embedded one, no --metrics-url.
	out, errOut, code = runKbench(produce...)
	if code != 0 || len(brokerLines(out)) != 0 {
		t.Errorf("exit %d, broker lines without --broker-metrics:\n%s\n%s", code, out, errOut)
	}
}

// On the embedded cluster: by its PIDs and endpoints one line per broker with its CPU, and
// given only the metrics URLs (no PIDs) the same lines with Kafka's byte counts.
func TestBrokerMetricsEmbedded(t *testing.T) {
	clustertest.Need(t, testCluster)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	boot := testCluster.Bootstrap()
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(boot, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	// One partition on three replicas: the leader takes the produce requests, the followers
	// only replicate, so their CPU is what replication costs.
	single := fmt.Sprintf("cli-bm-rf3-%d", time.Now().UnixNano())
	spread := single + "-spread"
	if _, err := adm.CreateTopic(ctx, 1, 3, nil, single); err != nil {
		t.Fatal(err)
	}
	if _, err := adm.CreateTopic(ctx, 3, 3, nil, spread); err != nil {
		t.Fatal(err)
	}
	topics, err := adm.ListTopics(ctx, single)
	if err != nil {
		t.Fatal(err)
	}
	leader := int(topics[single].Partitions[0].Leader)

	run := func(extra ...string) (string, string) {
		t.Helper()
		args := append([]string{"produce", "--bootstrap-server", boot, "--num-records", "60000", "--record-size", "512",
			"--throughput", "12000", "--warmup-records", "12000"}, extra...)
		out, errOut, code := runKbench(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		t.Logf("kbench %s\n%s%s", strings.Join(args, " "), out, errOut)
		return out, errOut
	}

	out, _ := run("--topic", single, "--cluster-dir", testCluster.Dir(), "--broker-metrics")
	lines := brokerLines(out)
	if len(lines) != len(testCluster.Brokers()) {
		t.Fatalf("%d broker lines, want one per broker (%d):\n%s", len(lines), len(testCluster.Brokers()), out)
	}
	for _, b := range testCluster.Brokers() {
		cpu, ok := figure(reBrokerCPU, lines[b.ID])
		if !ok || cpu <= 0 {
			t.Errorf("broker %d: no CPU above 0 in %q", b.ID, lines[b.ID])
		}
		if _, ok := figure(reBrokerNet, lines[b.ID]); !ok {
			t.Errorf("broker %d: no network figures in %q", b.ID, lines[b.ID])
		}
		role := "follower"
		if b.ID == leader {
			role = "leader"
		}
		rep, _ := figure(reBrokerRep, lines[b.ID])
		// The cost of a 3-replica topic to its followers, for the record; timing is not asserted.
		t.Logf("%s broker %d: %.2f cores, replication in %.2f MB/s", role, b.ID, cpu, rep)
	}

	// An external cluster's view: the same brokers given only by their metrics URLs.
	var urls []string
	for _, b := range testCluster.Brokers() {
		urls = append(urls, "--metrics-url", fmt.Sprintf("%d=%s", b.ID, b.MetricsURL))
	}
	out, _ = run(append([]string{"--topic", spread}, urls...)...)
	lines = brokerLines(out)
	if len(lines) != len(testCluster.Brokers()) {
		t.Fatalf("%d broker lines from metrics URLs, want %d:\n%s", len(lines), len(testCluster.Brokers()), out)
	}
	var in float64
	for _, b := range testCluster.Brokers() {
		cpu, okCPU := figure(reBrokerCPU, lines[b.ID])
		net, okNet := figure(reBrokerNet, lines[b.ID])
		if !okCPU || cpu <= 0 || !okNet {
			t.Errorf("broker %d from its metrics URL: want CPU above 0 and bytes in, got %q", b.ID, lines[b.ID])
		}
		in += net
	}
	if in <= 0 {
		t.Errorf("no bytes in on any broker:\n%s", out)
	}

	// Given only --cluster-dir: its plain listener, and broker metrics on by default; the
	// brokers send what they took in.
	out, errOut, code := runKbench("consume", "--topic", single, "--messages", "60000", "--cluster-dir", testCluster.Dir())
	t.Logf("kbench consume\n%s%s", out, errOut)
	if code != 0 {
		t.Fatalf("consume: exit %d: %s", code, errOut)
	}
	if want := "using the embedded cluster in " + testCluster.Dir() + " (" + boot + ")"; !strings.Contains(errOut, want) {
		t.Errorf("stderr does not say %q:\n%s", want, errOut)
	}
	lines = brokerLines(out)
	if len(lines) != len(testCluster.Brokers()) {
		t.Fatalf("consume on the embedded cluster: %d broker lines, want %d:\n%s\n%s", len(lines), len(testCluster.Brokers()), out, errOut)
	}
	var sent float64
	for _, l := range lines {
		if m := reBrokerNet.FindStringSubmatch(l); m != nil {
			v, _ := strconv.ParseFloat(m[2], 64)
			sent += v
		}
	}
	if sent <= 0 {
		t.Errorf("consume: no broker sent anything:\n%s", out)
	}
}
