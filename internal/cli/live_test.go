package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/kbench/kbench/internal/agent"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/results"
)

// prometheusBinary is Debian's prometheus package's server.
const prometheusBinary = "/usr/bin/prometheus"

// freeAddr returns a loopback address whose port was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// liveBootstrap is the embedded cluster's listener, or under -short a kfake cluster, so the
// scrape and page tests also run in the quick suite.
func liveBootstrap(t *testing.T, topic string) string {
	if testCluster != nil {
		return testCluster.Bootstrap()
	}
	return fakeBootstrap(t, topic)
}

// startPrometheus runs a real Prometheus scraping target every second, stopped (by its PID)
// at the test's end; it returns the base URL of its HTTP API.
func startPrometheus(t *testing.T, target string) string {
	t.Helper()
	if _, err := os.Stat(prometheusBinary); err != nil {
		if testing.Short() {
			t.Skipf("no %s (Debian's prometheus package): .ci/run installs it", prometheusBinary)
		}
		t.Fatalf("no %s (Debian's prometheus package; .ci/run installs it): %v", prometheusBinary, err)
	}
	dir := t.TempDir()
	config := fmt.Sprintf("global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\nscrape_configs:\n  - job_name: kbench\n    static_configs:\n      - targets: [%q]\n", target)
	if err := os.WriteFile(filepath.Join(dir, "prometheus.yml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	web := freeAddr(t)
	cmd := exec.Command(prometheusBinary, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+web,
		"--enable-feature=native-histograms")
	log, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		if t.Failed() {
			text, _ := os.ReadFile(log.Name())
			t.Logf("prometheus log:\n%s", text)
		}
	})
	base := "http://" + web
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if res, err := http.Get(base + "/-/ready"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("prometheus not ready after 60 s")
		}
	}
}

// promQuery evaluates an instant query at time at and returns each series' value.
func promQuery(t *testing.T, base, query string, at time.Time) []float64 {
	t.Helper()
	q := url.Values{"query": {query}, "time": {strconv.FormatFloat(float64(at.UnixMilli())/1000, 'f', 3, 64)}}
	res, err := http.Get(base + "/api/v1/query?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []struct {
				Value [2]any `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	if body.Status != "success" {
		t.Fatalf("%s: %s", query, body.Error)
	}
	var out []float64
	for _, r := range body.Data.Result {
		v, err := strconv.ParseFloat(r.Value[1].(string), 64)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		out = append(out, v)
	}
	return out
}

// nativeBucket is the schema-3 native bucket holding v seconds: bucket i holds
// (2^((i-1)/8), 2^(i/8)].
func nativeBucket(v float64) int { return int(math.Ceil(math.Log2(v) * 8)) }

// TestMetricsScrapedByPrometheus runs a short produce with --metrics-addr while a real
// Prometheus scrapes it every second, then asks Prometheus for the figures as they stood
// after the run's end (during --metrics-linger): the counters equal the --json result's,
// and the p99 of the native histogram lies within one bucket of kbench's own.
func TestMetricsScrapedByPrometheus(t *testing.T) {
	const topic = "live-prometheus"
	boot := liveBootstrap(t, topic)
	metricsAddr := freeAddr(t)
	prom := startPrometheus(t, metricsAddr)
	linger := 5 * time.Second
	out, errOut, code := runKbench("produce", "--bootstrap-server", boot, "--topic", topic, "--num-records", "15000",
		"--record-size", "100", "--throughput", "5000", "--json", "--metrics-addr", metricsAddr,
		"--metrics-linger", linger.String())
	ended := time.Now()
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res load.ProduceResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("stdout is not one JSON result: %v", err)
	}
	// Scrapes in the linger window saw the final figures; one second before it closed,
	// the latest of them is the one Prometheus answers with.
	at := ended.Add(-time.Second)
	sel := `{job="kbench",scenario="produce",role="producer"}`
	for _, c := range []struct {
		name string
		want int64
	}{
		{"kbench_records_sent_total", res.Sent},
		{"kbench_records_acknowledged_total", res.Total.Acked},
		{"kbench_records_failed_total", res.Total.Failed},
		{"kbench_records_unsent_total", res.Unsent},
		{"kbench_acknowledged_bytes_total", res.Total.Bytes},
	} {
		got := promQuery(t, prom, c.name+sel, at)
		if len(got) != 1 || got[0] != float64(c.want) {
			t.Errorf("%s = %v in Prometheus, want %d as the result says", c.name, got, c.want)
		}
	}
	if res.Total.Acked != 15000 {
		t.Errorf("acknowledged %d of 15000", res.Total.Acked)
	}
	p99 := float64(res.Total.DueLatency.P99Us) / 1e6
	got := promQuery(t, prom, `histogram_quantile(0.99, kbench_due_latency_seconds`+sel+`)`, at)
	if len(got) != 1 {
		t.Fatalf("histogram_quantile over the native histogram: %v", got)
	}
	if d := nativeBucket(got[0]) - nativeBucket(p99); d < -1 || d > 1 {
		t.Errorf("Prometheus p99 %.6f s is %d native buckets from kbench's %.6f s", got[0], d, p99)
	}
	t.Logf("acknowledged %d; p99 %.3f ms (kbench) vs %.3f ms (Prometheus, native histogram)", res.Total.Acked, p99*1000, got[0]*1000)
}

// scrapeAtEnd polls http://addr/metrics until the run says it ended (kbench_run_ended 1, in
// the linger) and returns that scrape.
func scrapeAtEnd(t *testing.T, addr string, running <-chan struct{}) map[string]*dto.MetricFamily {
	t.Helper()
	for {
		select {
		case <-running:
			t.Fatalf("the run ended before a scrape saw kbench_run_ended 1 at %s", addr)
		default:
		}
		res, err := http.Get("http://" + addr + "/metrics")
		if err != nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		parser := expfmt.NewTextParser(model.LegacyValidation)
		families, err := parser.TextToMetricFamilies(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if f := families["kbench_run_ended"]; f != nil && f.Metric[0].GetGauge().GetValue() == 1 {
			return families
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// sumWhere adds up the values of name's series whose labels include match.
func sumWhere(families map[string]*dto.MetricFamily, name string, match map[string]string) float64 {
	total := 0.0
	f := families[name]
	if f == nil {
		return 0
	}
series:
	for _, m := range f.Metric {
		labels := map[string]string{}
		for _, l := range m.Label {
			labels[l.GetName()] = l.GetValue()
		}
		for k, v := range match {
			if labels[k] != v {
				continue series
			}
		}
		total += m.GetCounter().GetValue() + m.GetGauge().GetValue()
	}
	return total
}

// TestLastFiguresOfEachVerb: after consume and verify (on kfake), /metrics serves the
// figures the verb printed, read during --metrics-linger.
func TestLastFiguresOfEachVerb(t *testing.T) {
	const topic = "live-verbs"
	boot := fakeBootstrap(t, topic)
	if _, errOut, code := runKbench("produce", "--bootstrap-server", boot, "--topic", topic, "--num-records", "3000",
		"--record-size", "100", "--throughput", "-1"); code != 0 {
		t.Fatalf("produce: %s", errOut)
	}
	runDir := filepath.Join(t.TempDir(), "verify")
	for _, tc := range []struct {
		name  string
		args  []string
		match map[string]string
		// want reads the expected values from the verb's output.
		want func(t *testing.T, stdout string) map[string]float64
	}{
		{name: "consume", args: []string{"consume", "--bootstrap-server", boot, "--topic", topic, "--messages", "3000", "--json"},
			match: map[string]string{"scenario": "consume", "role": "consumer"},
			want: func(t *testing.T, stdout string) map[string]float64 {
				var res load.ConsumeResult
				if err := json.Unmarshal([]byte(stdout), &res); err != nil {
					t.Fatal(err)
				}
				return map[string]float64{"kbench_records_consumed_total": float64(res.Records), "kbench_consumed_bytes_total": float64(res.Bytes)}
			}},
		{name: "verify", args: []string{"verify", "--bootstrap-server", boot, "--replicas", "1", "--min-insync-replicas", "1",
			"--partitions", "3", "--producers", "2", "--throughput", "400", "--duration", "1s", "--run-dir", runDir},
			match: map[string]string{"outcome": "acknowledged"},
			want: func(t *testing.T, _ string) map[string]float64 {
				res, err := results.ReadVerify(runDir)
				if err != nil {
					t.Fatal(err)
				}
				return map[string]float64{"kbench_verify_records_total": float64(res.Totals.Acked)}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := freeAddr(t)
			done := make(chan struct{})
			var stdout, stderr string
			var code int
			go func() {
				defer close(done)
				stdout, stderr, code = runKbench(append(tc.args, "--metrics-addr", addr, "--metrics-linger", "3s")...)
			}()
			end := scrapeAtEnd(t, addr, done)
			<-done
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for name, want := range tc.want(t, stdout) {
				if got := sumWhere(end, name, tc.match); got != want || want == 0 {
					t.Errorf("%s = %v at the end, want %v (printed)", name, got, want)
				}
			}
		})
	}
}

// TestAgentsRatesOnTheCoordinator: produce --agents 2 with two agents in this process (on
// kfake); the coordinator's /metrics holds the merged counts, exactly the result's, and each
// agent's own acknowledgements under its name, which add up to at most the merged count (an
// agent's last partial second may come with its result rather than a tick).
func TestAgentsRatesOnTheCoordinator(t *testing.T) {
	const topic = "live-agents"
	boot := fakeBootstrap(t, topic)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b"} {
		wg.Go(func() {
			_ = agent.Serve(ctx, agent.AgentConfig{Bootstrap: boot, Name: name, Host: "h-" + name, Cores: 1, Version: Version})
		})
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
	addr := freeAddr(t)
	done := make(chan struct{})
	var stdout, stderr string
	var code int
	go func() {
		defer close(done)
		stdout, stderr, code = runKbench("produce", "--bootstrap-server", boot, "--topic", topic, "--num-records", "6000",
			"--record-size", "100", "--throughput", "2000", "--producers", "2", "--agents", "2", "--agent-timeout", "30s",
			"--json", "--metrics-addr", addr, "--metrics-linger", "3s")
	}()
	end := scrapeAtEnd(t, addr, done)
	<-done
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var res load.ProduceResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	merged := sumWhere(end, "kbench_records_acknowledged_total", map[string]string{"agent": ""})
	a := sumWhere(end, "kbench_records_acknowledged_total", map[string]string{"agent": "a"})
	b := sumWhere(end, "kbench_records_acknowledged_total", map[string]string{"agent": "b"})
	if merged != float64(res.Total.Acked) || res.Total.Acked != 6000 {
		t.Errorf("merged %v acknowledged on /metrics, result %d, want both 6000", merged, res.Total.Acked)
	}
	if a <= 0 || b <= 0 || a+b > merged {
		t.Errorf("agents' own counts a %v, b %v: want both above 0, together at most %v", a, b, merged)
	}
}

// TestWindowLinesKeepTheirInterval: with --metrics-addr the load ticks every second, and the
// window lines still come every --reporting-interval (2 s here: one line in a 5 s run at
// 2,000 records/s holds about 4,000 records at about 2,000 records/s).
func TestWindowLinesKeepTheirInterval(t *testing.T) {
	const topic = "live-window"
	boot := fakeBootstrap(t, topic)
	stdout, stderr, code := runKbench("produce", "--bootstrap-server", boot, "--topic", topic, "--num-records", "10000",
		"--record-size", "100", "--throughput", "2000", "--reporting-interval", "2000",
		"--metrics-addr", freeAddr(t), "--metrics-linger", "0s")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	window := regexp.MustCompile(`(?m)^(\d+) records sent, ([\d.]+) records/sec \(`)
	lines := window.FindAllStringSubmatch(stdout, -1)
	// The summary line matches too: the window lines are the ones before it.
	if len(lines) < 2 || len(lines) > 3 {
		t.Fatalf("%d lines with a rate, want 1 or 2 window lines and the summary:\n%s", len(lines), stdout)
	}
	for _, l := range lines[:len(lines)-1] {
		n, _ := strconv.Atoi(l[1])
		rate, _ := strconv.ParseFloat(l[2], 64)
		// One-second lines would hold half as many; loose bounds for a busy host.
		if n < 3000 || n > 5000 || rate < 1500 || rate > 2500 {
			t.Errorf("window line %q: want about 4000 records at about 2000 records/s", l[0])
		}
	}
}

// TestCapacityLiveFigures: a short capacity search (kfake, two trials) shows every trial in
// kbench_capacity_trials_total, and its records in one counter that only grew: at the end it
// holds exactly what the search wrote, its idle and settle probes' records included.
func TestCapacityLiveFigures(t *testing.T) {
	const topic = "live-capacity"
	boot := fakeBootstrap(t, topic)
	addr := freeAddr(t)
	done := make(chan struct{})
	var stdout, stderr string
	var code int
	go func() {
		defer close(done)
		stdout, stderr, code = runKbench("capacity", "--bootstrap-server", boot, "--topic", topic, "--record-size", "100",
			"--trial", "4s", "--confirm", "4s", "--warmup", "1s", "--max-trials", "2", "--json",
			"--metrics-addr", addr, "--metrics-linger", "3s")
	}()
	end := scrapeAtEnd(t, addr, done)
	<-done
	var res results.Capacity
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("exit %d, stdout not JSON (%v): %s", code, err, stderr)
	}
	written := res.BaselineRecords
	for _, tr := range res.Trials {
		written += tr.Records.Acked + tr.SettleRecords
	}
	trials := sumWhere(end, "kbench_capacity_trials_total", nil)
	acked := sumWhere(end, "kbench_records_acknowledged_total", map[string]string{"scenario": "capacity"})
	if len(res.Trials) == 0 || trials != float64(len(res.Trials)) || acked != float64(written) {
		t.Errorf("/metrics: %v trials, %v acknowledged; the search: %d trials, %d records written", trials, acked, len(res.Trials), written)
	}
}
