package runner

import (
	"reflect"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/results"
)

// run.json says which brokers were sampled: none, some (naming the missing), or all.
func TestBrokerMetricsRecord(t *testing.T) {
	for _, tc := range []struct {
		name            string
		brokers         []metrics.BrokerTarget
		want            results.BrokerMetrics
		absent, partial bool
	}{
		{"none", []metrics.BrokerTarget{{ID: 1}, {ID: 2}}, results.BrokerMetrics{Sampled: []int{}, Missing: []int{1, 2}}, true, false},
		{"some", []metrics.BrokerTarget{{ID: 1, MetricsURL: "u"}, {ID: 2}}, results.BrokerMetrics{Sampled: []int{1}, Missing: []int{2}}, false, true},
		{"all", []metrics.BrokerTarget{{ID: 1, PID: 7}, {ID: 2, MetricsURL: "u"}}, results.BrokerMetrics{Sampled: []int{1, 2}}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := &target{brokers: tc.brokers}
			got := tg.brokerMetrics()
			if !reflect.DeepEqual(*got, tc.want) || got.Absent() != tc.absent || got.Partial() != tc.partial {
				t.Errorf("got %+v (absent %v, partial %v), want %+v (absent %v, partial %v)",
					*got, got.Absent(), got.Partial(), tc.want, tc.absent, tc.partial)
			}
			if n := len(tg.sampled()); n != len(tc.want.Sampled) {
				t.Errorf("%d brokers given to the sampler, want %d", n, len(tc.want.Sampled))
			}
		})
	}
}

// The confirmation counts every byte the run writes, consume-only fills included.
func TestPlannedBytes(t *testing.T) {
	text := `
name: t-bytes
repeats: 2
warmup: 1s
defaults:
  topic: {partitions: 1, replicas: 1}
  producers: {record_size: 100}
scenarios:
  - {records: 1000}
  - {rate: 50, set: {producers.duration: 4s}}
  - {producers: 0, consumers: 1, set: {consumers.records: 300}}
`
	plan := parseStudy(t, text)
	written, open := plannedBytes(plan, 0)
	// counted: 1000 x 100 B x 2 = 200,000; paced: 50/s x (1 s warm-up + 4 s) x 100 B x 2 =
	// 50,000; fill: 300 x 100 B x 2 = 60,000; in all 310,000 B.
	if written != 310_000 || open {
		t.Errorf("planned %v B (open %v), want 310000 B and no open-ended scenario", written, open)
	}
	// --max-rate 10 caps paced to 10/s: 10 x 5 s x 100 B x 2 = 10,000; 270,000 B in all.
	if written, _ := plannedBytes(plan, 10); written != 270_000 {
		t.Errorf("planned %v B under --max-rate 10, want 270000", written)
	}
	desc := describeLoad(plan, "k:9092", 0)
	for _, want := range []string{"a fill of 300 records", "0.3 MiB written in all, consume-only fills included", "consumer groups kbench-<run>-"} {
		if !strings.Contains(desc, want) {
			t.Errorf("confirmation text lacks %q:\n%s", want, desc)
		}
	}
}

// A resume reaches the recorded cluster with the recorded settings, refuses a different rate
// cap or kind of cluster, and a different cluster ID.
func TestResumeTarget(t *testing.T) {
	ext := results.Run{Environment: results.Environment{Cluster: results.External},
		Target: results.Target{Bootstrap: "k1:9092", MetricsURLs: []string{"http://k1:7071/metrics"}, MaxRate: 500, ClusterID: "abc"}}
	emb := results.Run{Environment: results.Environment{Cluster: results.Embedded}, Target: results.Target{ClusterID: "e1"}}

	opts, err := resumeTarget(Options{ResumeDir: "r"}, &ext)
	if err != nil {
		t.Fatal(err)
	}
	if e := opts.External; e == nil || e.Bootstrap != "k1:9092" || !reflect.DeepEqual(e.MetricsURLs, ext.Target.MetricsURLs) || opts.MaxRate != 500 {
		t.Errorf("resumed options %+v (external %+v), want the recorded target", opts, opts.External)
	}
	for _, tc := range []struct {
		name string
		opts Options
		prev results.Run
		want string
	}{
		{"other rate cap", Options{MaxRate: 100}, ext, "--max-rate 100 differs from the run's 500"},
		{"external on embedded", Options{External: &External{Bootstrap: "x:1"}}, emb, "was on an embedded cluster"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := resumeTarget(tc.opts, &tc.prev); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	if err := checkSameCluster(&ext, &target{endpoint: endpoint{bootstrap: "k1:9092"}, clusterID: "xyz"}); err == nil ||
		!strings.Contains(err.Error(), "cluster ID xyz") || !strings.Contains(err.Error(), "measured cluster abc") {
		t.Errorf("another cluster ID: %v, want a refusal naming both IDs", err)
	}
	if err := checkSameCluster(&ext, &target{clusterID: "abc"}); err != nil {
		t.Errorf("same cluster ID: %v", err)
	}
	// A fresh embedded cluster has a new ID on every start: nothing to compare.
	if err := checkSameCluster(&emb, &target{clusterID: "e2"}); err != nil {
		t.Errorf("embedded run: %v", err)
	}
}

// run.json records the target without secrets: the metrics URLs lose any user:password.
func TestRecordTarget(t *testing.T) {
	tg := &target{clusterID: "c1", external: &External{Bootstrap: "k:9092", CommandConfig: "/etc/kbench/client.properties",
		Properties: map[string]string{"sasl.jaas.config": "secret"}, MetricsURLs: []string{"https://u:pw@k:7071/metrics", "http://k2:7071/metrics"}}}
	got := recordTarget(tg, 250)
	want := results.Target{Bootstrap: "k:9092", CommandConfig: "/etc/kbench/client.properties",
		MetricsURLs: []string{"https://k:7071/metrics", "http://k2:7071/metrics"}, MaxRate: 250, ClusterID: "c1"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("recorded %+v, want %+v", got, want)
	}
}

// --allow-existing-group names a group the study uses; a typo is refused before the cluster
// is asked anything.
func TestAllowExistingGroupTypo(t *testing.T) {
	plan := parseStudy(t, "name: t-typo\ndefaults:\n  consumers: {count: 1, group: orders}\n")
	_, err := (&target{}).checkGroups(t.Context(), plan, []string{"ordres"})
	if err == nil || !strings.Contains(err.Error(), "--allow-existing-group ordres: no scenario of study t-typo names that consumer group") {
		t.Errorf("error %v, want the unknown group named", err)
	}
}

// The fill of a consume-only scenario writes its records at --max-rate, all of them (no
// duration cuts it short), and is unlimited without a cap.
func TestFillConfig(t *testing.T) {
	plan := parseStudy(t, "name: t-fill\nwarmup: 2s\ndefaults:\n  producers: {count: 0, record_size: 100, duration: 3s}\n  consumers: {count: 1, records: 5000}\n")
	sc := plan.Scenarios[0]
	for _, maxRate := range []float64{0, 1500} {
		r := &runner{opts: Options{MaxRate: maxRate}, plan: plan, target: &target{}}
		cfg := r.fillConfig("kbench-x", sc)
		if cfg.Rate != maxRate || cfg.Records != 5000 || cfg.Duration != 0 || cfg.Warmup != 0 || cfg.Producers != 1 || cfg.Properties["acks"] != "all" {
			t.Errorf("--max-rate %g: fill rate %g, %d records, duration %s, warm-up %s, %d producer(s), acks %q; want rate %g, 5000 records, no duration or warm-up, 1 producer, acks all",
				maxRate, cfg.Rate, cfg.Records, cfg.Duration, cfg.Warmup, cfg.Producers, cfg.Properties["acks"], maxRate)
		}
	}
}
