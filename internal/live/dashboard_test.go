package live

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/observe"
)

const (
	dashboardFile = "../../deploy/grafana/kbench.json"
	// exporterRules is the JMX exporter configuration kbench's brokers run and docs/observe.md
	// tells other clusters to use: its rule names are the broker metrics there are.
	exporterRules = "../cluster/jmx-exporter.yaml"
)

// metricName finds the metric names in a PromQL expression: kbench's own, Kafka's from the
// JMX exporter, and the process collectors' (both kbench and the brokers' JVM have them); not
// the dashboard's variables ($kbench_job).
var metricName = regexp.MustCompile(`(?:^|[^$\w])((?:kbench|kafka|process)_[a-z0-9_]+)`)

// TestDashboardQueriesUseExposedMetrics: every name a query of the dashboard uses is one
// kbench's /metrics exposes (read from a running server fed every kind of figure) or one the
// brokers' exporter rules define, so no panel stays empty for a misspelt name.
func TestDashboardQueriesUseExposedMetrics(t *testing.T) {
	text, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var dashboard any
	if err := json.Unmarshal(text, &dashboard); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	used := map[string]bool{}
	for _, q := range queries(dashboard) {
		for _, m := range metricName.FindAllStringSubmatch(q, -1) {
			used[m[1]] = true
		}
	}
	if len(used) < 10 {
		t.Fatalf("only %d metric names found in the dashboard: %v", len(used), used)
	}

	exposed := scrapeAll(t)
	rules, err := os.ReadFile(exporterRules)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?m)^\s+name: (\S+)`).FindAllStringSubmatch(string(rules), -1) {
		exposed[m[1]] = true
	}
	for name := range used {
		if !exposed[name] {
			t.Errorf("the dashboard queries %s, which neither kbench's /metrics nor the brokers' exporter rules expose", name)
		}
	}
	// And the dashboard shows each of kbench's own series.
	for _, name := range observe.MetricNames() {
		if !used[name] && !used[name+"_bucket"] && name != "kbench_end_to_end_latency_seconds" &&
			!strings.HasPrefix(name, "kbench_broker_cpu_allotment") && name != "kbench_broker_disk_write_bytes_per_second" {
			t.Errorf("%s is in no panel of the dashboard", name)
		}
	}
}

// queries walks a dashboard for its PromQL: panel targets' and annotations' expr, and the
// template variables' queries.
func queries(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && (k == "expr" || k == "definition" || k == "query") {
				out = append(out, s)
				continue
			}
			out = append(out, queries(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, queries(x)...)
		}
	}
	return out
}

// scrapeAll serves a Series fed with every kind of figure and returns the names its /metrics
// text holds, a histogram's _bucket, _sum and _count lines included.
func scrapeAll(t *testing.T) map[string]bool {
	t.Helper()
	s, err := (&Flags{MetricsAddr: "127.0.0.1:0"}).Start(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer s.End(context.Background(), "complete", "")
	obs := s.Series()
	obs.Begin(observe.Scenario{Study: "s", ID: "sc", Repeat: 1, Offered: 10})
	h := metrics.NewHistogram()
	h.Record(time.Millisecond)
	cpu := 1.5
	brokers := metrics.Series{Brokers: []metrics.BrokerSeries{{ID: 1, Rows: []metrics.Row{{Values: map[string]float64{
		metrics.FieldCPUCores: cpu, metrics.FieldCPUPercent: 50, metrics.FieldDiskWriteBytesSec: 1e6}}}}}}
	obs.ProduceTick(load.Tick{Acked: 1, TotalAcked: 1, DueHistogram: h, SendHistogram: h}, &brokers)
	obs.ConsumeTick(load.ConsumeTick{Records: 1, TotalRecords: 1}, nil)
	obs.Consumed(&load.ConsumeResult{Records: 1, EndToEndHistogram: h})
	obs.CapacityTrial(capacity.Trial{N: 1, Offered: 10, Achieved: 10, P99: time.Millisecond, Pass: []bool{true}})
	obs.Fault("1.0s fault leader-kill: broker 1")
	obs.Verified(map[string]int64{"lost": 0, "read": 1})

	res, err := http.Get(s.MetricsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	parser := expfmt.NewTextParser(model.LegacyValidation)
	families, err := parser.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for name, f := range families {
		names[name] = true
		if f.GetType() == dto.MetricType_HISTOGRAM {
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				names[name+suffix] = true
			}
		}
	}
	for _, want := range observe.MetricNames() {
		if !names[want] {
			t.Errorf("%s not exposed though fed", want)
		}
	}
	return names
}
