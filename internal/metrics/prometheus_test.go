package metrics

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
)

func TestParsePrometheusText(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      string
		want    promValues
		wantErr string
	}{
		{
			name: "comments, labels, timestamp, special values",
			in: "# HELP x help\n# TYPE x counter\nx_total 3\n\n" +
				`y{b="2",a="1"} 1.5e3 1700000000000` + "\n" +
				`z{v="quote \" slash \\ nl \n",} +Inf` + "\n" +
				"w -Inf\n",
			want: promValues{
				"x_total":                        3,
				`y{a="1",b="2"}`:                 1500,
				`z{v="quote \" slash \\ nl \n"}`: math.Inf(1),
				"w":                              math.Inf(-1),
			},
		},
		{name: "no value", in: "x_total\n", wantErr: "line 1"},
		{name: "bad value", in: "ok 1\nx_total one\n", wantErr: "line 2"},
		// The messages below are expfmt's own.
		{name: "unterminated label", in: `x{a="1} 2` + "\n", wantErr: "unescaped new-line"},
		{name: "label without quotes", in: "x{a=1} 2\n", wantErr: `expected '"'`},
		{name: "no name", in: "{a=\"1\"} 2\n", wantErr: "invalid metric name"},
		{name: "extra columns", in: "x 1 2 3\n", wantErr: "spurious string after timestamp"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parsePrometheusText(strings.NewReader(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Errorf("got %d series %v, want %d", len(got), got, len(tc.want))
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %v, want %v", k, got[k], v)
				}
			}
		})
	}
}

// The exporter output of a real broker started with internal/cluster/jmx-exporter.yaml holds
// every name the field mapping reads.
func TestExporterFixtureHasMappedNames(t *testing.T) {
	b, err := os.ReadFile("testdata/jmx-exporter.txt")
	if err != nil {
		t.Fatal(err)
	}
	v, err := parsePrometheusText(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range kafkaRates {
		keys = append(keys, m.key)
	}
	for _, m := range kafkaGauges {
		keys = append(keys, m.key)
	}
	for _, m := range kafkaMeans {
		keys = append(keys, m.count, m.mean)
	}
	keys = append(keys, requestHandlerIdleKey, promCPUSecondsKey, promRSSKey)
	for _, k := range keys {
		if _, ok := v.sum(k); !ok {
			t.Errorf("exporter output lacks %s", k)
		}
	}
	if gc, _ := v.sum("jvm_gc_collection_seconds_count"); gc != 0+10 {
		t.Errorf("GC count over all collectors = %v, want 0+10 (Old + Young in the fixture)", gc)
	}
}

// The recorded exporter output of a broker, read through expfmt, gives the values written in
// the file: read off it by eye, and its 135 sample lines are 135 distinct series (the last
// four, the group coordinator's rebalances by protocol, recorded on Kafka 4.4.0).
func TestExporterFixtureValues(t *testing.T) {
	f, err := os.Open("testdata/jmx-exporter.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := parsePrometheusText(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != 135 {
		t.Errorf("%d series, want the fixture's 135 sample lines", len(v))
	}
	for _, tc := range []struct {
		key  string
		want float64
	}{
		{"process_cpu_seconds_total", 3.37},                                             // counter
		{"process_resident_memory_bytes", 3.44731648e8},                                 // gauge, E notation
		{"kafka_server_request_handler_idle_seconds_total", 32.898692734},               // counter
		{"jvm_threads_current", 95},                                                     // gauge
		{`jvm_buffer_pool_capacity_bytes{pool="mapped"}`, 2.0971516e7},                  // labelled
		{`jvm_buffer_pool_used_buffers{pool="mapped - 'non-volatile memory'"}`, 0},      // spaces in a label
		{`jmx_exporter_build_info{name="jmx_prometheus_javaagent",version="1.0.1"}`, 1}, // two labels, sorted
		{`jvm_gc_collection_seconds_count{gc="G1 Young Generation"}`, 10},               // summary count
		{`jvm_gc_collection_seconds_sum{gc="G1 Young Generation"}`, 0.052},              // summary sum
		{`kafka_group_coordinator_rebalances_total{protocol="consumer"}`, 2},            // group coordinator
	} {
		if got, ok := v[tc.key]; !ok || got != tc.want {
			t.Errorf("%s = %v (present %v), want %v", tc.key, got, ok, tc.want)
		}
	}
	if sum, _ := v.sum("jvm_gc_collection_seconds_sum"); sum != 0.0+0.052 {
		t.Errorf("GC seconds over all collectors = %v, want 0.0+0.052", sum)
	}
}

func TestScrapePrometheus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("kafka_server_bytes_in_total 42\n"))
	}))
	defer srv.Close()
	v, err := scrapePrometheus(context.Background(), srv.Client(), srv.URL+"/metrics")
	if err != nil || v["kafka_server_bytes_in_total"] != 42 {
		t.Errorf("got %v, %v; want bytes_in 42", v, err)
	}
	if _, err := scrapePrometheus(context.Background(), srv.Client(), srv.URL+"/nope"); err == nil || !strings.Contains(err.Error(), "404") {
		t.Errorf("error %v, want one saying 404", err)
	}
}
