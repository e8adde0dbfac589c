package metrics

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// fakeExporter serves a body that the test changes between samples.
type fakeExporter struct {
	mu   sync.Mutex
	body string
}

func (f *fakeExporter) set(body string) { f.mu.Lock(); f.body = body; f.mu.Unlock() }

func (f *fakeExporter) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fmt.Fprint(w, f.body)
}

// exporterBody renders the exporter's metrics from cumulative values.
func exporterBody(bytesIn, produceCount, produceMean, idleSeconds, cpuSeconds, gcSeconds float64) string {
	return fmt.Sprintf(`# TYPE kafka_server_bytes_in_total counter
kafka_server_bytes_in_total %g
kafka_network_requests_total{request="Produce"} %g
kafka_network_request_total_time_ms_mean{request="Produce"} %g
kafka_network_request_total_time_ms_p99{request="Produce"} 12.5
kafka_server_request_handler_idle_seconds_total %g
kafka_network_processor_avg_idle_ratio 0.8
kafka_server_under_replicated_partitions 0
process_cpu_seconds_total %g
process_resident_memory_bytes 1e+09
jvm_gc_collection_seconds_sum{gc="G1 Young Generation"} %g
jvm_gc_collection_seconds_sum{gc="G1 Old Generation"} 0
`, bytesIn, produceCount, produceMean, idleSeconds, cpuSeconds, gcSeconds)
}

func pidStat(cpuTicks, threads, rssPages int) []byte {
	// utime carries all ticks, stime none; fields 3..26 as proc(5) lists them, then zeros up
	// to the kernel's 52 fields.
	return []byte(fmt.Sprintf("100 (java) S 1 100 100 0 -1 0 0 0 0 0 %d 0 0 0 20 0 %d 0 1 1 %d 0 0%s\n",
		cpuTicks, threads, rssPages, strings.Repeat(" 0", 52-26)))
}

// pidIO is a /proc/<pid>/io with its seven lines, as the kernel writes them.
func pidIO(readBytes, writeBytes int) []byte {
	return []byte(fmt.Sprintf("rchar: 0\nwchar: 0\nsyscr: 0\nsyscw: 0\nread_bytes: %d\nwrite_bytes: %d\ncancelled_write_bytes: 0\n", readBytes, writeBytes))
}

// netDev is a /proc/net/dev of lo and eth0 with the kernel's sixteen columns: bytes first
// among the eight receive columns, and again among the eight transmit columns.
func netDev(loRx, loTx, ethRx, ethTx int) []byte {
	line := func(iface string, rx, tx int) string {
		return fmt.Sprintf("%6s: %d 0 0 0 0 0 0 0 %d 0 0 0 0 0 0 0\n", iface, rx, tx)
	}
	return []byte("Inter-|   Receive |  Transmit\n face |bytes packets|bytes packets\n" + line("lo", loRx, loTx) + line("eth0", ethRx, ethTx))
}

func hostStat(total, idle, iowait int) []byte { return hostStatSteal(total, idle, iowait, 0) }

// hostStatSteal is a /proc/stat of two CPUs whose aggregate line has total ticks: idle,
// iowait, steal and the rest user.
func hostStatSteal(total, idle, iowait, steal int) []byte {
	user := total - idle - iowait - steal
	return []byte(fmt.Sprintf("cpu  %d 0 0 %d %d 0 0 %d 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\ncpu1 0 0 0 0 0 0 0 0 0 0\n", user, idle, iowait, steal))
}

func TestSamplerBothPaths(t *testing.T) {
	local, remote := &fakeExporter{}, &fakeExporter{}
	localSrv, remoteSrv := httptest.NewServer(local), httptest.NewServer(remote)
	defer localSrv.Close()
	defer remoteSrv.Close()

	proc := procDirOf(t, fstest.MapFS{
		"100/stat":  {Data: pidStat(1000, 80, 1000)},
		"100/io":    {Data: pidIO(0, 0)},
		"stat":      {Data: hostStat(10000, 8000, 100)},
		"diskstats": {Data: []byte("8 0 sda 0 0 0 0 0 0 0 0 0 11 0\n")},
		"net/dev":   {Data: netDev(0, 0, 0, 0)},
		"meminfo":   {Data: []byte("Cached: 100 kB\nDirty: 1 kB\n")},
		"loadavg":   {Data: []byte("1.5 1 0.5 1/1 1\n")},
	})
	s, err := NewSampler(SamplerConfig{
		Proc: proc,
		Brokers: []BrokerTarget{
			{ID: 1, PID: 100, MetricsURL: localSrv.URL, CPUAllotment: 2, Combined: true},
			{ID: 2, MetricsURL: remoteSrv.URL},
		},
		PageSize: 4096,
	})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := t0
	s.clock = func() time.Time { return now }

	local.set(exporterBody(0, 10, 2.0, 0, 5, 0.1))
	remote.set(exporterBody(0, 0, 0, 0, 5, 0.1))
	s.sample(context.Background())
	if got := s.Snapshot(); len(got.Brokers[0].Rows) != 0 || len(got.Host) != 0 {
		t.Fatalf("first reading made rows: %+v", got)
	}

	const dt = 2.0 // seconds between the readings
	now = t0.Add(dt * time.Second)
	writeProc(t, proc, fstest.MapFS{
		"100/stat":  {Data: pidStat(1000+300, 81, 2000)},
		"100/io":    {Data: pidIO(0, 2097152)},
		"stat":      {Data: hostStatSteal(10000+1000, 8000+600, 100+100, 50)},
		"diskstats": {Data: []byte("8 0 sda 0 0 10 0 0 0 20 0 0 1011 11\n")},
		"net/dev":   {Data: netDev(4000, 4000, 200, 600)},
	})
	local.set(exporterBody(2e6, 30, 3.0, 3.0, 7, 0.3))
	remote.set(exporterBody(1e6, 0, 0, 1.0, 7, 0.1))
	s.sample(context.Background())

	got := s.Stop()
	if len(got.Brokers) != 2 || len(got.Brokers[0].Rows) != 1 || len(got.Brokers[1].Rows) != 1 || len(got.Host) != 1 {
		t.Fatalf("want one row per broker and one host row, got %+v", got)
	}
	if got.Brokers[0].Errors+got.Brokers[1].Errors+got.HostErrors != 0 {
		t.Fatalf("errors: %+v", got)
	}
	for _, tc := range []struct {
		row   Row
		field string
		want  float64
	}{
		// Local broker, /proc: 300 ticks = 3 s of CPU in 2 s.
		{got.Brokers[0].Rows[0], FieldCPUCores, 3.0 / dt},
		{got.Brokers[0].Rows[0], FieldCPUPercent, 3.0 / dt / 2 * 100},
		{got.Brokers[0].Rows[0], FieldRSSBytes, 2000 * 4096},
		{got.Brokers[0].Rows[0], FieldThreads, 81},
		{got.Brokers[0].Rows[0], FieldDiskWriteBytesSec, 2097152 / dt},
		{got.Brokers[0].Rows[0], FieldDiskReadBytesSec, 0},
		// Local broker, exporter.
		{got.Brokers[0].Rows[0], FieldBytesInSec, 2e6 / dt},
		{got.Brokers[0].Rows[0], FieldProduceRequestsSec, 20 / dt},
		// 20 requests: lifetime sums 10*2 ms then 30*3 ms.
		{got.Brokers[0].Rows[0], FieldProduceTimeMean, (30*3.0 - 10*2.0) / 20},
		{got.Brokers[0].Rows[0], FieldProduceTimeP99, 12.5},
		// Combined node: two pools mark the idle meter, 3 s over 2 s is 75% each.
		{got.Brokers[0].Rows[0], FieldRequestHandlerIdlePct, 3.0 / dt / 2 * 100},
		{got.Brokers[0].Rows[0], FieldNetworkProcessorIdlePct, 80},
		{got.Brokers[0].Rows[0], FieldUnderReplicated, 0},
		{got.Brokers[0].Rows[0], FieldGCTimeMsSec, (0.3 - 0.1) * 1000 / dt},
		{got.Brokers[0].Rows[0], FieldJVMCPUCores, (7 - 5) / dt},
		// Remote broker: CPU and RSS from the exporter's process metrics.
		{got.Brokers[1].Rows[0], FieldCPUCores, (7 - 5) / dt},
		{got.Brokers[1].Rows[0], FieldRSSBytes, 1e9},
		{got.Brokers[1].Rows[0], FieldBytesInSec, 1e6 / dt},
		{got.Brokers[1].Rows[0], FieldRequestHandlerIdlePct, 1.0 / dt * 100},
		// Host.
		// 50 of the 1,000 ticks stolen: busy is what was neither idle, iowait nor steal.
		{got.Host[0], FieldHostCPUBusyPct, (1000.0 - 600 - 100 - 50) / 1000 * 100},
		{got.Host[0], FieldHostCPUStealPct, 50.0 / 1000 * 100},
		{got.Host[0], FieldHostCPUIOWaitPct, 100.0 / 1000 * 100},
		{got.Host[0], FieldHostDiskReadBytesSec, 10 * 512 / dt},
		{got.Host[0], FieldHostDiskWriteBytesSec, 20 * 512 / dt},
		{got.Host[0], FieldHostDiskUtilPct, 1000 / (dt * 1000) * 100},
		{got.Host[0], FieldHostNetRxBytesSec, 200 / dt},
		{got.Host[0], FieldHostNetTxBytesSec, 600 / dt},
		{got.Host[0], FieldHostLoopbackBytesSec, 4000 / dt},
		{got.Host[0], FieldHostPageCacheBytes, 100 * 1024},
		{got.Host[0], FieldHostLoad1, 1.5},
	} {
		v, ok := tc.row.Values[tc.field]
		if !ok || math.Abs(v-tc.want) > 1e-9*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s = %v (present %v), want %v", tc.field, v, ok, tc.want)
		}
	}
	// What a path cannot provide is absent, not zero.
	for _, f := range []string{FieldCPUPercent, FieldDiskWriteBytesSec, FieldThreads, FieldProduceTimeMean} {
		if _, ok := got.Brokers[1].Rows[0].Values[f]; ok {
			t.Errorf("remote broker has %s", f)
		}
	}
	if got.Brokers[0].Rows[0].Time != now || got.Brokers[0].CPUAllotment != 2 {
		t.Errorf("row time %v, allotment %v", got.Brokers[0].Rows[0].Time, got.Brokers[0].CPUAllotment)
	}

	// The series survives a JSON round trip with its documented names.
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var back Series
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Version != SeriesVersion || back.Brokers[1].Rows[0].Values[FieldBytesInSec] != 1e6/dt {
		t.Errorf("round trip lost data: %s", b)
	}
	for _, name := range []string{`"cpu_cores"`, `"bytes_in_per_sec"`, `"host_cpu_busy_pct"`, `"interval_seconds"`} {
		if !strings.Contains(string(b), name) {
			t.Errorf("JSON lacks %s", name)
		}
	}
}

// oneBrokerSampler is a sampler of broker 3: pid 100 under a fake /proc, and a fake
// exporter, both stopped with the test.
func oneBrokerSampler(t *testing.T) (*Sampler, *fakeExporter, string) {
	t.Helper()
	exp := &fakeExporter{}
	srv := httptest.NewServer(exp)
	t.Cleanup(srv.Close)
	proc := procDirOf(t, fstest.MapFS{"100/stat": {Data: pidStat(0, 1, 1)}})
	s, err := NewSampler(SamplerConfig{Proc: proc, Brokers: []BrokerTarget{{ID: 3, PID: 100, MetricsURL: srv.URL, CPUAllotment: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	return s, exp, proc
}

// A failing source is counted and named; the other source's fields still arrive.
func TestSamplerSourceFailure(t *testing.T) {
	s, exp, proc := oneBrokerSampler(t)
	now := time.Unix(1000, 0)
	s.clock = func() time.Time { return now }
	exp.set("kafka_server_bytes_in_total 0\n")
	s.sample(context.Background())
	now = now.Add(time.Second)
	writeProc(t, proc, fstest.MapFS{"100/stat": {Data: pidStat(50, 1, 1)}})
	exp.set("kafka_server_bytes_in_total oops\n")
	s.sample(context.Background())
	got := s.Snapshot()
	b := got.Brokers[0]
	if len(b.Rows) != 1 || b.Rows[0].Values[FieldCPUCores] != 0.5 {
		t.Fatalf("want a row with cpu 0.5, got %+v", b.Rows)
	}
	if _, ok := b.Rows[0].Values[FieldBytesInSec]; ok {
		t.Error("row has bytes in from a failed scrape")
	}
	if b.Errors != 1 || !strings.Contains(b.LastError, "broker 3") || !strings.Contains(b.LastError, "line 1") {
		t.Errorf("errors %d, last %q", b.Errors, b.LastError)
	}
	// No /proc files for the host: counted once per reading, no host rows.
	if got.HostErrors != 2 || len(got.Host) != 0 {
		t.Errorf("host errors %d, host rows %d", got.HostErrors, len(got.Host))
	}
}

func TestSamplerConfigValidate(t *testing.T) {
	proc := t.TempDir()
	for _, tc := range []struct {
		name    string
		cfg     SamplerConfig
		wantErr string
	}{
		{"ok", SamplerConfig{Proc: proc, Brokers: []BrokerTarget{{ID: 1, PID: 5}}}, ""},
		{"short interval", SamplerConfig{Interval: time.Millisecond}, "shorter than the minimum 10ms"},
		{"duplicate", SamplerConfig{Brokers: []BrokerTarget{{ID: 1, MetricsURL: "u"}, {ID: 1, MetricsURL: "v"}}}, "broker 1 is listed twice"},
		{"pid without proc", SamplerConfig{Brokers: []BrokerTarget{{ID: 1, PID: 5}}}, "no /proc"},
		{"negative allotment", SamplerConfig{Brokers: []BrokerTarget{{ID: 2, MetricsURL: "u", CPUAllotment: -1}}}, "cpu allotment -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSampler(tc.cfg)
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

// Start samples on its own until Stop; Stop can be called twice and returns the same rows.
func TestSamplerStartStop(t *testing.T) {
	proc := procDirOf(t, fstest.MapFS{"loadavg": {Data: []byte("1 1 1 1/1 1\n")}})
	s, err := NewSampler(SamplerConfig{Proc: proc, Interval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s.Start(context.Background())
	s.Start(context.Background()) // a second Start does nothing
	for len(s.Snapshot().Host) < 3 {
		time.Sleep(5 * time.Millisecond)
	}
	first := s.Stop()
	second := s.Stop()
	if len(first.Host) < 3 || len(second.Host) != len(first.Host) {
		t.Errorf("stop returned %d then %d rows", len(first.Host), len(second.Host))
	}
	if first.Host[0].Values[FieldHostLoad1] != 1 {
		t.Errorf("row %+v lacks load1", first.Host[0])
	}
}

// A broker with neither a PID nor a metrics URL (an external cluster without an endpoint) is
// not sampled: no error, no series, while the brokers that have a source still are.
func TestSamplerBrokerWithoutSource(t *testing.T) {
	s, err := NewSampler(SamplerConfig{Brokers: []BrokerTarget{{ID: 1}, {ID: 2, MetricsURL: "http://127.0.0.1:1/metrics"}, {ID: 3}}})
	if err != nil {
		t.Fatalf("new sampler: %v", err)
	}
	var ids []int
	for _, b := range s.Snapshot().Brokers {
		ids = append(ids, b.ID)
	}
	if !slices.Equal(ids, []int{2}) {
		t.Errorf("sampled brokers %v, want [2]", ids)
	}
	if _, err := NewSampler(SamplerConfig{Brokers: []BrokerTarget{{ID: 1}}}); err != nil {
		t.Errorf("no broker with a source: %v, want no error", err)
	}
}

// slowExporter serves a scripted body and moves the sampler's clock on by the scrape's
// scripted duration while it answers, as a slow JMX exporter does on a busy host.
type slowExporter struct {
	mu       sync.Mutex
	now      time.Time
	body     string
	duration time.Duration
}

func (e *slowExporter) clock() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.now }

func (e *slowExporter) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.now = e.now.Add(e.duration)
	fmt.Fprint(w, e.body)
}

// TestSamplerSlowScrapeRowsAddUp: a scrape that takes 3 s must not skew the rates of the rows
// around it; each row's rate times its interval is the counters' change, so the rows add up
// to what the broker counted.
func TestSamplerSlowScrapeRowsAddUp(t *testing.T) {
	exp := &slowExporter{now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
	srv := httptest.NewServer(exp)
	defer srv.Close()
	s, err := NewSampler(SamplerConfig{Brokers: []BrokerTarget{{ID: 1, MetricsURL: srv.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	s.clock = exp.clock
	t0 := exp.clock()
	// Readings start at 0 s, 1 s and 4 s (the second scrape took 3 s, so the next tick
	// fired while it ran); bytes in 0, 1e6 and 4e6.
	for _, r := range []struct {
		start    time.Duration
		scrape   time.Duration
		bytesIn  float64
		wantRate float64 // bytes/s over the row's own interval
	}{
		{0, 100 * time.Millisecond, 0, 0},
		{time.Second, 3 * time.Second, 1e6, 1e6 / 1},            // 1e6 bytes over 0 s..1 s
		{4 * time.Second, 100 * time.Millisecond, 4e6, 3e6 / 3}, // 3e6 bytes over 1 s..4 s
	} {
		exp.mu.Lock()
		exp.now, exp.duration, exp.body = t0.Add(r.start), r.scrape, exporterBody(r.bytesIn, 0, 0, 0, 0, 0)
		exp.mu.Unlock()
		s.sample(context.Background())
	}
	rows := s.Stop().Brokers[0].Rows
	if len(rows) != 2 {
		t.Fatalf("want 2 rows, got %d", len(rows))
	}
	// Integrated over the rows' intervals (1 s and 3 s): 1e6*1 + 1e6*3 = 4e6 bytes.
	total := rows[0].Values[FieldBytesInSec]*1 + rows[1].Values[FieldBytesInSec]*3
	if rows[0].Values[FieldBytesInSec] != 1e6 || rows[1].Values[FieldBytesInSec] != 1e6 || total != 4e6 {
		t.Errorf("rates %g and %g bytes/s (total %g), want 1e6 and 1e6 (total 4e6)",
			rows[0].Values[FieldBytesInSec], rows[1].Values[FieldBytesInSec], total)
	}
}

// A reading that Stop cuts short mid-scrape adds no row and counts no failure: the scrape was
// cancelled by kbench, not refused by the broker.
func TestSamplerStopMidScrape(t *testing.T) {
	scraped := make(chan struct{}, 1)
	block := false
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		b := block
		mu.Unlock()
		if b {
			scraped <- struct{}{}
			<-r.Context().Done()
			return
		}
		fmt.Fprint(w, "kafka_server_bytes_in_total 0\n")
	}))
	defer srv.Close()
	s, err := NewSampler(SamplerConfig{Brokers: []BrokerTarget{{ID: 1, MetricsURL: srv.URL}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.sample(ctx) // the first reading: no row yet
	mu.Lock()
	block = true
	mu.Unlock()
	go func() { <-scraped; cancel() }()
	s.sample(ctx)
	got := s.Snapshot()
	if b := got.Brokers[0]; len(b.Rows) != 0 || b.Errors != 0 {
		t.Errorf("after a reading cut short: %d rows, %d errors (%s); want none", len(b.Rows), b.Errors, b.LastError)
	}
}

// MaxRowDelay is one interval and the scrapes' timeout: the default client's (five
// intervals, at least 5 s) or the one given.
func TestSamplerMaxRowDelay(t *testing.T) {
	for _, tt := range []struct {
		interval time.Duration
		client   *http.Client
		want     time.Duration
	}{
		{time.Second, nil, 6 * time.Second},
		{2 * time.Second, nil, 12 * time.Second},
		{time.Second, &http.Client{Timeout: 3 * time.Second}, 4 * time.Second},
		{time.Second, &http.Client{}, 6 * time.Second},
	} {
		s, err := NewSampler(SamplerConfig{Interval: tt.interval, HTTPClient: tt.client})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.MaxRowDelay(); got != tt.want {
			t.Errorf("interval %v, client %+v: %v, want %v", tt.interval, tt.client, got, tt.want)
		}
	}
}

// Each row starts where the reading before it was taken: the first one at the sampler's
// first reading (which makes no row), also when that reading's scrape held the next one
// back 3.5 s rather than one interval.
func TestSamplerRowsStartAtTheReadingBefore(t *testing.T) {
	s, exp, _ := oneBrokerSampler(t)
	exp.set("kafka_server_bytes_in_total 0\n")
	var now time.Time
	s.clock = func() time.Time { return now }
	for _, at := range []float64{1000, 1003.5, 1004.5} {
		now = time.Unix(0, int64(at*float64(time.Second)))
		s.sample(context.Background())
	}
	b := s.Snapshot().Brokers[0]
	if len(b.Rows) != 2 {
		t.Fatalf("rows %+v, want two", b.Rows)
	}
	for i, want := range [][2]float64{{1000, 1003.5}, {1003.5, 1004.5}} {
		r := b.Rows[i]
		if from, to := float64(r.From.UnixNano())/1e9, float64(r.Time.UnixNano())/1e9; from != want[0] || to != want[1] {
			t.Errorf("row %d covers %v-%v, want %v-%v", i, from, to, want[0], want[1])
		}
	}
}
