package live

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/observe"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

func TestFlagsDefaults(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		web, metrics string
		linger       time.Duration
	}{
		{args: nil, linger: DefaultLinger},
		{args: []string{"--web"}, web: DefaultWebAddr, linger: DefaultLinger},
		{args: []string{"--web=127.0.0.1:8080", "--metrics-linger", "0s"}, web: "127.0.0.1:8080"},
		{args: []string{"--metrics-addr", ":9464"}, metrics: ":9464", linger: DefaultLinger},
	} {
		var f Flags
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		f.Register(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if f.Web != tc.web || f.MetricsAddr != tc.metrics || f.Linger != tc.linger {
			t.Errorf("%v: web %q metrics %q linger %v, want %q %q %v", tc.args, f.Web, f.MetricsAddr, f.Linger, tc.web, tc.metrics, tc.linger)
		}
	}
}

func TestNoFlagNoServer(t *testing.T) {
	s, err := (&Flags{}).Start(io.Discard)
	if s != nil || err != nil {
		t.Fatalf("server %v, error %v; want neither", s, err)
	}
	s.Series().Begin(observe.Scenario{}) // a nil server's nil series takes calls
	s.End(context.Background(), "complete", "")
}

// TestServesPageStateMetricsAndReport: one listener when --web and --metrics-addr name the
// same address; the page, its state, /metrics in the text format and the report it links.
func TestServesPageStateMetricsAndReport(t *testing.T) {
	var out bytes.Buffer
	s, err := (&Flags{Web: "127.0.0.1:0", MetricsAddr: "127.0.0.1:0", Linger: 0}).Start(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.lns) != 2 || !strings.Contains(out.String(), "live page: http://127.0.0.1:") || !strings.Contains(out.String(), "metrics: http://127.0.0.1:") {
		t.Errorf("two free ports, both printed; got %d listeners and %q", len(s.lns), out.String())
	}
	obs := s.Series()
	obs.Begin(observe.Scenario{Study: "st", ID: "sc", Repeat: 1, Repeats: 3, Offered: 100})
	h := metrics.NewHistogram()
	h.Record(3 * time.Millisecond)
	obs.ProduceTick(load.Tick{Acked: 1, TotalAcked: 1, RecordsPerSec: 99, DueHistogram: h}, nil)

	if code, body := get(t, s.WebURL); code != 200 || !strings.Contains(body, "kbench live") {
		t.Errorf("page: %d %q", code, body)
	}
	code, body := get(t, strings.TrimSuffix(s.WebURL, "/")+"/api/state?since=0")
	var st observe.State
	if err := json.Unmarshal([]byte(body), &st); code != 200 || err != nil || len(st.Points) != 1 || st.Status.Phase != "measured" {
		t.Errorf("state: %d %v %+v", code, err, st)
	}
	_, text := get(t, s.MetricsURL)
	for _, want := range []string{
		`kbench_records_acknowledged_total{agent="",repeat="1",role="producer",scenario="sc",study="st"} 1`,
		`kbench_due_latency_seconds_bucket{agent="",repeat="1",role="producer",scenario="sc",study="st",le="0.005"} 1`,
		`kbench_offered_records_per_second{agent="",repeat="1",role="producer",scenario="sc",study="st"} 100`,
		`kbench_run_info{phase="measured",repeat="1",scenario="sc",study="st"} 1`,
		"go_goroutines", "process_cpu_seconds_total",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	report := filepath.Join(t.TempDir(), "report.html")
	if err := os.WriteFile(report, []byte("<p>the report</p>"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	s.report = report
	s.mu.Unlock()
	if code, body := get(t, strings.TrimSuffix(s.WebURL, "/")+"/report"); code != 200 || body != "<p>the report</p>" {
		t.Errorf("report: %d %q", code, body)
	}
	s.End(context.Background(), "complete", report)
	if !obs.Ended() {
		t.Error("not ended")
	}
	if _, err := http.Get(s.MetricsURL); err == nil {
		t.Error("still serving after End")
	}
}

func TestOneListenerForOneAddress(t *testing.T) {
	s, err := (&Flags{Web: "127.0.0.1:0"}).Start(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.lns) != 1 || s.MetricsURL != "" {
		t.Errorf("--web alone: %d listeners, metrics %q", len(s.lns), s.MetricsURL)
	}
	addr := s.lns[0].Addr().String()
	s.End(context.Background(), "", "")
	both, err := (&Flags{Web: addr, MetricsAddr: addr}).Start(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer both.End(context.Background(), "", "")
	if len(both.lns) != 1 || both.MetricsURL != "http://"+addr+"/metrics" || both.WebURL != "http://"+addr+"/" {
		t.Errorf("same address twice: %d listeners, %q and %q", len(both.lns), both.WebURL, both.MetricsURL)
	}
}

func TestBusyAddressNamesItsFlag(t *testing.T) {
	s, err := (&Flags{MetricsAddr: "127.0.0.1:0"}).Start(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer s.End(context.Background(), "", "")
	busy := s.lns[0].Addr().String()
	_, err = (&Flags{MetricsAddr: busy}).Start(io.Discard)
	if err == nil || !strings.HasPrefix(err.Error(), "--metrics-addr "+busy+": ") {
		t.Errorf("error %v, want one naming --metrics-addr %s", err, busy)
	}
}
