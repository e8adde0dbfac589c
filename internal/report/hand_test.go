package report

import (
	"bytes"
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// testdata/handrun is a run directory written by hand, so that every number of its report
// can be worked out here on paper. An external 3-broker cluster; brokers 1 and 2 have
// metrics, broker 3 none (run.json's broker_metrics says so); host: 4 cores; every repeat measures 10 s of 1024-byte records.
//
//	paced    throttle 1,000/s, kept          acked 9,990 / 10,000 / 10,010, send p50 5 ms
//	behind   throttle 10,000/s, not reached  acked 80,000 / 78,000 / 82,000, send p50 20 ms
//	flatout  unthrottled produce+consume     acked 500,000 / 520,000 / 510,000
//	read     consume-only, 2 consumers       read 200,000 / 210,000 / 220,000
//	near     target 5,000/s; repeat 1 invalid, repeats 2 and 3 acked 48,300, send p50 0 ms
//
// Medians of three are the middle value; MiB/s = records/s × 1024 / 1,048,576 =
// records/s / 1024; a target share is results.SendRate / target = acked / (10 s - send
// p50) / target.

func readHandRun(t *testing.T) *results.RunDir {
	t.Helper()
	rd, err := results.Read("testdata/handrun")
	if err != nil {
		t.Fatal(err)
	}
	return rd
}

func buildHand(t *testing.T, rd *results.RunDir) (*Model, string) {
	t.Helper()
	m, err := Build(rd, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := WriteMarkdown(&md, m); err != nil {
		t.Fatal(err)
	}
	return m, md.String()
}

// handThroughput is section 4.1, worked out by hand.
var handThroughput = [][]string{
	{"Scenario", "target rec/s", "records/s", "MiB/s", "consumer MiB/s", "broker CPU % of allotment", "client CPU s/M rec", "spread", "valid"},
	// records/s median(999, 1000, 1001) = 1,000; MiB/s 1000/1024 = 0.9766 -> "0.977";
	// broker 1 median(20, 22, 24) = 22, broker 2 median(30, 31, 35) = 31, broker 3 none;
	// client CPU s/M median(100.1, 120, 109.89) = 109.89 -> "110"; spread (1001-999)/2/1000 = 0.1%.
	{"`paced`", "1,000", "1,000", "0.977", "-", "22 / 31 / -", "110", "±0.1%", "3/3"},
	// records/s median(8000, 7800, 8200) = 8,000; 8000/1024 = 7.8125 -> "7.81";
	// broker 1 median(85, 88, 90) = 88, broker 2 median(70, 72, 74) = 72;
	// client CPU s/M = 2 s / (acked/1e6): 25, 25.64, 24.39 -> 25; spread 400/2/8000 = 2.5%.
	{"`behind`", "10,000", "8,000", "7.81", "-", "88 / 72 / -", "25.0", "±2.5%", "3/3"},
	// records/s median(50000, 52000, 51000) = 51,000; 51000/1024 = 49.80; consumer
	// median(48, 50, 49) = 49; client CPU split by role: producers median(40, 42, 44) = 42,
	// consumers median(20, 21, 22) = 21 s/M; spread 2000/2/51000 = 1.96%.
	{"`flatout`", "-", "51,000", "49.8", "49.0", "55 / 45 / -", "42.0 / 21.0", "±2.0%", "3/3"},
	// records/s median(20000, 21000, 22000) = 21,000; 21000/1024 = 20.51 for both the
	// summary and the consumer; client CPU s/M 1.5/0.2 = 7.5, 1.5/0.21 = 7.14, 1.5/0.22 =
	// 6.82 -> 7.14; spread 2000/2/21000 = 4.76%.
	{"`read`", "-", "21,000", "20.5", "20.5", "11 / 13 / -", "7.14", "±4.8%", "3/3"},
	// Repeat 1 is invalid; repeats 2 and 3: 4,830 records/s each; 4830/1024 = 4.717;
	// client CPU s/M 0.5/0.0483 = 10.35; no spread between equal repeats.
	{"`near`", "5,000", "4,830", "4.72", "-", "40 / 45 / -", "10.4", "±0.0%", "2/3"},
}

// handLatency is section 4.2, worked out by hand.
var handLatency = [][]string{
	{"Scenario", "latency is", "avg ms", "p50 ms", "p95 ms", "p99 ms", "p99.9 ms", "max ms", "send p99 ms", "e2e p99 ms",
		"broker Produce mean ms", "broker Produce p50 ms", "broker Produce p99 ms"},
	// Shares 9990/9.995/1000 = 0.9995, 1.0005, 1.0015: median 1.0005 >= 0.95, paced.
	// p99 median(8, 9, 10) = 9; send p99 median(7, 8, 9) = 8. Broker Produce, the slower
	// broker per repeat: mean max(0.8, 1.2) = 1.2, max(0.9, 1.1) = 1.1, max(1.0, 1.0) = 1.0 ->
	// 1.1; p50 max(1.0, 1.5) = 1.5, max(1.2, 1.4) = 1.4, max(1.1, 1.3) = 1.3 -> 1.4; p99
	// max(4, 3) = 4, max(5, 7) = 7, max(6, 5) = 6 -> 6.
	{"`paced`", "paced", "3.50", "3.00", "5.00", "9.00", "20.0", "40.0", "8.00", "-", "1.10", "1.40", "6.00"},
	// Shares 80000/9.98/10000 = 0.8016, 78000/9.98/10000 = 0.7816, 0.8216: median 80.2% <
	// 95%, backlog. p99 median(2000, 2500, 3000) = 2,500; send p99 median(30, 35, 40) = 35;
	// broker Produce mean max(2.5, 3.5) = 3.5, p50 max(3, 4) = 4, p99 max(20, 25) = 25 in
	// every repeat.
	{"`behind`", "backlog: sent 80.2% of target", "900", "800", "1,500", "2,500", "3,500", "4,000", "35.0", "-", "3.50", "4.00", "25.0"},
	// Unthrottled: buffer-bound, no send-time column of its own; e2e p99 median(100, 120,
	// 110) = 110; its brokers reported no Produce time.
	{"`flatout`", "buffer-bound", "40.0", "30.0", "80.0", "150", "300", "500", "-", "110", "-", "-", "-"},
	// Consume-only: no produce latency at all.
	{"`read`", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"},
	// Shares 48300/10/5000 = 0.966 in both valid repeats: >= 0.95, paced. Broker Produce
	// mean max(1.5, 1.6) = 1.6, p50 max(2, 2) = 2, p99 max(8, 9) = 9.
	{"`near`", "paced", "6.00", "5.00", "9.00", "12.0", "20.0", "30.0", "10.0", "-", "1.60", "2.00", "9.00"},
}

// handLimits is section 6.2. External cluster, brokers elsewhere: the host figures are
// kbench's own machine, whose disk never limits the brokers. Busiest broker per repeat,
// then the median: paced max(20,30)=30, max(22,31)=31, max(24,35)=35 -> 31; behind 85, 88,
// 90 -> 88 >= 80; flatout 50, 55, 60 -> 55; read 12, 13, 14 -> 13; near 45. Client cores
// = client CPU s / 10 s: paced median(0.10, 0.12, 0.11) = 0.11; behind 0.2; flatout
// median(3.1, 3.3, 3.5) = 3.3 >= 0.8 x 4 cores; read 0.15; near 0.05. Network: tx 2 MiB/s.
var handLimits = [][]string{
	{"Scenario", "Limit", "Evidence"},
	{"`paced`", "target rate", "sent at 100.1% of the 1,000 records/s target (95% counts as reached); busiest broker CPU 31%, " +
		"kbench host CPU 32%, client CPU 0.11 cores, kbench host disk busy 12%, kbench host network 2.00 MiB/s (link capacity unknown)"},
	{"`behind`", "broker CPU", "sent at 80.2% of the 10,000 records/s target; a broker used 88% of its CPU; busiest broker CPU 88%, " +
		"kbench host CPU 60%, client CPU 0.2 cores, kbench host disk busy 20%, kbench host network 2.00 MiB/s (link capacity unknown)"},
	{"`flatout`", "client CPU", "the clients used 3.30 of 4 cores; busiest broker CPU 55%, kbench host CPU 92%, client CPU 3.30 cores, " +
		"kbench host disk busy 30%, kbench host network 2.00 MiB/s (link capacity unknown)"},
	// The consume-only scenario: nothing saturated, and the old "producer pipeline" is gone.
	{"`read`", "not determined", "no measured resource reached its threshold; busiest broker CPU 13%, kbench host CPU 40%, " +
		"client CPU 0.15 cores, kbench host disk busy 5%; not measured: broker disk, network"},
	// 96.6% of the target is reached by the validity gate's own 95%, not "replication".
	{"`near`", "target rate", "sent at 96.6% of the 5,000 records/s target (95% counts as reached); busiest broker CPU 45%, " +
		"kbench host CPU 50%, client CPU 0.05 cores, kbench host disk busy 15%, kbench host network 2.00 MiB/s (link capacity unknown)"},
}

// handRecords is section 4.3: sums over every repeat that accounted its records (behind
// and flatout; the others' run directories predate the accounting and read "-").
var handRecords = [][]string{
	{"Scenario", "repeats", "acked", "failed", "unsent", "acked after the end", "consumed"},
	{"`paced`", "-", "-", "-", "-", "-", "-"},
	// acked 96,000 + 94,000 + 98,000 = 288,000; unsent 120 + 0 + 30 = 150; after the end
	// 300 + 250 + 280 = 830; no consumers.
	{"`behind`", "3", "288,000", "0", "150", "830", "-"},
	// acked = consumed = 600,000 + 624,000 + 612,000 = 1,836,000; after the end 100 + 120 +
	// 110 = 330.
	{"`flatout`", "3", "1,836,000", "0", "0", "330", "1,836,000"},
	{"`read`", "-", "-", "-", "-", "-", "-"},
	{"`near`", "-", "-", "-", "-", "-", "-"},
}

// handNotes are the notes at the top of the report.
var handNotes = []string{
	"No broker metrics for broker 3 (metrics for 2 of 3 brokers): pass --metrics-url for every broker. " +
		"Broker columns show \"-\" for a broker without metrics, and broker figures cover the measured brokers only.",
	// Broker cores by round (brokers 1+2): paced 0.50 0.53 0.59, behind 1.55 1.60 1.64,
	// flatout 0.90 1.00 1.10, read 0.22 0.24 0.26 (near has 2 valid repeats, too few): every
	// series rises, S = 3 each, tau 12/12 = 1.00; with no drift a series of 3 rises with
	// chance 1/6, so p = 2 (1/6)^4 = 0.0015. Theil-Sen slopes of the logs: paced 0.0828,
	// behind 0.0282, flatout 0.1004, read 0.0835: median 0.0832, e^0.0832 - 1 = +8.7% a round.
	"Drift: broker CPU rises with the round number (Kendall tau 1.00 within 4 scenarios, 12 repeats, exact p = 0.0015; about +8.7% a round): the conditions changed as the run " +
		"went on (JIT warm-up, page cache, log growth, another load on the host). The rounds interleave the scenarios, so the drift " +
		"widens their spread instead of favouring one: the verdicts stay fair but see less; a longer warm-up or a quieter host narrows it.",
	"The throttle was not reached in behind (sent at 80.2% of 10,000 records/s): due-time latency there counts records waiting " +
		"for a slot the producer could not keep, so it grows with the length of the run and measures the backlog, not the cluster. " +
		"Read the send-time p99 beside it.",
	"Unthrottled scenarios (flatout) hand records to the client as fast as its buffer takes them: their latency is mostly time " +
		"queued in the client's buffer (buffer-bound), set by buffer.memory and the drain rate, not the cluster's response time " +
		"at a chosen load. Throttle a scenario below its maximum rate to measure that.",
}

func TestHandRunMarkdown(t *testing.T) {
	m, md := buildHand(t, readHandRun(t))
	for _, tc := range []struct {
		heading string
		want    [][]string
	}{
		{"### 4.1 Throughput and CPU", handThroughput},
		{"### 4.2 Latency", handLatency},
		{"### 4.3 Every record accounted", handRecords},
		{"### 6.2 What limited each scenario", handLimits},
	} {
		got := mdTableAfter(t, md, tc.heading)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: %d lines, want %d:\n%v", tc.heading, len(got), len(tc.want), got)
		}
		for i := range got {
			if !slices.Equal(got[i], tc.want[i]) {
				t.Errorf("%s line %d:\n got %q\nwant %q", tc.heading, i, got[i], tc.want[i])
			}
		}
	}
	if !slices.Equal(m.Warnings, handNotes) {
		t.Errorf("notes:\n got %q\nwant %q", m.Warnings, handNotes)
	}
	// Section 3: Kafka's tool gets the median records/s x 10 s as its count (1,000 x 10, 8,000 x 10, 51,000 x 10, 21,000 x 10, 4,830 x 10).
	for _, want := range []string{
		// The header, section 1 and section 2, as run.json and the first repeat of each
		// scenario state them.
		"run 2026-05-04 10:00:00 – 2026-05-04 10:30:00 UTC · kbench v0.0.0-hand",
		"| `paced` | 3 of 3 | 6 partitions, 3 replicas | 1 producer, 1024-byte records, 10 s measured after a 2 s warm-up, target 1,000 records/s |",
		"| `behind` | 3 of 3 | 6 partitions, 3 replicas | 1 producer, 1024-byte records, 10 s measured after a 2 s warm-up, target 10,000 records/s |",
		"| `flatout` | 3 of 3 | 6 partitions, 3 replicas | 1 producer, 1 consumer, 1024-byte records, 10 s measured after a 2 s warm-up, unthrottled |",
		"| `read` | 3 of 3 | 6 partitions, 3 replicas | 2 consumers, 1024-byte records, 10 s measured |",
		"| `near` | 3 of 3 | 6 partitions, 3 replicas | 1 producer, 1024-byte records, 10 s measured after a 2 s warm-up, target 5,000 records/s |",
		"| Cluster | external, 3 brokers |", "| Kafka version | 4.1.1 |", "| Host CPU | Hand CPU (4 logical cores) |",
		"--num-records 10000 ", "--num-records 80000 ", "--num-records 510000 ", "--messages 210000 ", "--num-records 48300 ",
		"- `near` repeat 1: missed the target rate: 4000 of 5000 records/s",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// TestHandRunHTML checks that the HTML tables carry the same hand-checked cells.
func TestHandRunHTML(t *testing.T) {
	m, _ := buildHand(t, readHandRun(t))
	var b bytes.Buffer
	if err := WriteHTML(&b, m); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	cells := strings.ReplaceAll(html, `<td class="n">`, "<td>") // alignment aside
	for _, table := range [][][]string{handThroughput, handLatency, handRecords} {
		for _, row := range table[1:] {
			var want strings.Builder
			want.WriteString("<tr><td><code>" + strings.Trim(row[0], "`") + "</code></td>")
			for _, c := range row[1:] {
				want.WriteString("<td>" + c + "</td>")
			}
			want.WriteString("</tr>")
			if !strings.Contains(cells, want.String()) {
				t.Errorf("report.html lacks the row %s", want.String())
			}
		}
	}
	for _, n := range handNotes {
		if !strings.Contains(html, strings.NewReplacer(`"`, "&#34;", "'", "&#39;", "+", "&#43;").Replace(n)) {
			t.Errorf("report.html lacks the note %q", n)
		}
	}
	if !strings.Contains(html, `<td>backlog: sent 80.2% of target</td>`) {
		t.Error("the latency basis is not set as words")
	}
	if !strings.Contains(html, "paced (send)") {
		t.Error("the latency chart has no send-time curve for a paced scenario")
	}
}

func TestHandRunCSV(t *testing.T) {
	m, _ := buildHand(t, readHandRun(t))
	var b bytes.Buffer
	if err := WriteCSV(&b, m); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// The same figures as the tables, unrounded; empty where nothing was measured.
	want := map[string]map[string]string{
		"paced": {
			"kind": "produce", "target_rate": "1000", "target_share_pct": "100.05", // 1.0005 x 100
			"records_per_sec": "1000", "records_per_sec_min": "999", "records_per_sec_max": "1001",
			"records_per_sec_spread_pct": "0.10", "mib_per_sec": "0.9765625", "consumer_mib_per_sec": "",
			"latency_basis": "paced", "latency_p99_ms": "9", "send_latency_p99_ms": "8", "e2e_latency_p99_ms": "",
			"broker_produce_mean_ms": "1.1", "broker_produce_p50_ms": "1.4", "broker_produce_p99_ms": "6",
			"broker_cpu_cores":   "0.53", // median(0.20+0.30, 0.22+0.31, 0.24+0.35)
			"broker_cpu_pct_max": "31", "broker_1_cpu_pct": "22", "broker_2_cpu_pct": "31", "broker_3_cpu_pct": "",
			"client_cpu_cores": "0.11", "client_cpu_s_per_million": "109.89", "limit": "target rate", "invalid": "",
		},
		"behind": {
			"target_share_pct": "80.16", // 80000 / 9.98 / 10000
			"latency_basis":    "backlog", "latency_p99_ms": "2500", "send_latency_p99_ms": "35",
			"broker_cpu_cores": "1.6", // median(0.85+0.70, 0.88+0.72, 0.90+0.74)
			"client_cpu_cores": "0.2", "client_cpu_s_per_million": "25", "limit": "broker CPU",
			"records_total_acked": "288000", "records_total_unsent": "150", "records_total_acked_after_end": "830",
			"records_total_consumed": "",
		},
		"flatout": {
			"kind": "produce+consume", "target_rate": "", "target_share_pct": "", "mib_per_sec": "49.8046875", // 51000/1024
			"consumer_mib_per_sec": "49", "latency_basis": "buffer-bound", "send_latency_p99_ms": "", "e2e_latency_p99_ms": "110",
			"broker_produce_mean_ms": "", "broker_produce_p50_ms": "", "broker_produce_p99_ms": "", "client_cpu_cores": "3.3", "limit": "client CPU",
			"records_total_acked": "1836000", "records_total_consumed": "1836000", "records_total_acked_after_end": "330",
			// both roles over the produced records: 31/0.5 = 62, 33/0.52 = 63.4615..., 35/0.51 = 68.63 -> 63.4615...
			"client_cpu_s_per_million": "63.46153846", "producer_cpu_s_per_million": "42", "consumer_cpu_s_per_million": "21",
		},
		"read": {
			"kind": "consume", "records_per_sec": "21000", "consumer_mib_per_sec": "20.5078125", // 21000/1024
			"latency_basis": "", "latency_avg_ms": "", "latency_p99_ms": "", "latency_max_ms": "",
			"broker_cpu_pct_max": "13", "limit": "not determined", "records_total_acked": "", "records_total_unsent": "",
		},
		"near": {
			"valid_repeats": "2", "total_repeats": "3", "target_share_pct": "96.60", // 48300 / 10 / 5000
			"records_per_sec": "4830", "records_per_sec_spread_pct": "0.00", "mib_per_sec": "4.716796875", // 4830/1024
			"broker_cpu_cores": "0.85", "limit": "target rate", "invalid": "repeat 1: missed the target rate: 4000 of 5000 records/s",
		},
	}
	head := recs[0]
	for _, rec := range recs[1:] {
		w, ok := want[rec[0]]
		if !ok {
			t.Errorf("unexpected CSV row %q", rec[0])
			continue
		}
		for col, v := range w {
			i := slices.Index(head, col)
			if i < 0 {
				t.Fatalf("CSV has no column %q", col)
			}
			if rec[i] != v {
				t.Errorf("CSV %s %s = %q, want %q", rec[0], col, rec[i], v)
			}
		}
		delete(want, rec[0])
	}
	if len(want) > 0 {
		t.Errorf("CSV lacks rows %v", want)
	}
}

// TestHandRunNoBrokerMetrics strips every broker's series, as a run against an external
// cluster without --metrics-url writes it: broker columns read "-" (never 0), one note says
// so, and the limit analysis says what it could not see.
func TestHandRunNoBrokerMetrics(t *testing.T) {
	for _, tc := range []struct {
		name string
		bm   *results.BrokerMetrics
	}{
		{"as run.json records it", &results.BrokerMetrics{Sampled: []int{}, Missing: []int{1, 2, 3}}},
		{"older run that does not say", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd := readHandRun(t)
			rd.Run.Environment.BrokerMetrics = tc.bm
			for id, reps := range rd.Repeats {
				for i := range reps {
					reps[i].BrokerSummary = slices.DeleteFunc(reps[i].BrokerSummary, func(b results.BrokerSummary) bool {
						return b.Broker != results.HostSeries
					})
				}
				rd.Repeats[id] = reps
			}
			m, md := buildHand(t, rd)
			var notes []string
			for _, w := range m.Warnings {
				if strings.Contains(strings.ToLower(w), "broker metrics") {
					notes = append(notes, w)
				}
			}
			want := "No broker metrics: pass --metrics-url (one per broker) to add them. " +
				"Broker columns show \"-\", and the limit analysis cannot tell whether the brokers limited a scenario."
			if len(notes) != 1 || notes[0] != want {
				t.Errorf("broker notes %q, want exactly %q", notes, want)
			}
			for _, line := range mdTableAfter(t, md, "### 4.1 Throughput and CPU")[1:] {
				if line[5] != "-" {
					t.Errorf("%s broker CPU %q, want -", line[0], line[5])
				}
			}
			for _, line := range mdTableAfter(t, md, "### 4.2 Latency")[1:] {
				if produce := line[10:13]; !slices.Equal(produce, []string{"-", "-", "-"}) {
					t.Errorf("%s broker Produce %q, want -", line[0], produce)
				}
			}
			limits := mdTableAfter(t, md, "### 6.2 What limited each scenario")
			// behind was limited by broker CPU (88%); without broker metrics that cannot be told.
			if l := limits[2]; l[1] != notDetermined || !strings.HasSuffix(l[2], "; not measured: broker CPU, broker disk") {
				t.Errorf("behind without broker metrics: %q", l)
			}
			var b bytes.Buffer
			if err := WriteCSV(&b, m); err != nil {
				t.Fatal(err)
			}
			recs, err := csv.NewReader(&b).ReadAll()
			if err != nil {
				t.Fatal(err)
			}
			for _, col := range []string{"broker_cpu_cores", "broker_cpu_pct_max", "broker_produce_mean_ms", "broker_produce_p99_ms"} {
				i := slices.Index(recs[0], col)
				for _, rec := range recs[1:] {
					if rec[i] != "" {
						t.Errorf("CSV %s %s = %q, want empty", rec[0], col, rec[i])
					}
				}
			}
		})
	}
}

// TestHandRunUnreadBrokerMetrics: brokers that had a metrics URL but gave nothing are told
// apart from brokers without one.
func TestHandRunUnreadBrokerMetrics(t *testing.T) {
	rd := readHandRun(t)
	rd.Run.Environment.BrokerMetrics = &results.BrokerMetrics{Sampled: []int{1, 2, 3}}
	m, _ := buildHand(t, rd)
	want := "The metrics source of broker 3 gave nothing in any repeat: check its --metrics-url. " +
		"Broker columns show \"-\" for a broker without metrics, and broker figures cover the measured brokers only."
	if m.Warnings[0] != want {
		t.Errorf("note %q, want %q", m.Warnings[0], want)
	}
}

// TestHandRunRemoteBrokerCores: brokers seen through their metrics endpoints only report CPU
// time but no allotment, so the percentages read "-", all brokers' cores stand in, and the
// limit analysis says the share is unknown instead of judging it.
func TestHandRunRemoteBrokerCores(t *testing.T) {
	rd := readHandRun(t)
	for id, reps := range rd.Repeats {
		for i := range reps {
			for _, b := range reps[i].BrokerSummary {
				delete(b.Fields, results.FieldCPUPct)
			}
		}
		rd.Repeats[id] = reps
	}
	_, md := buildHand(t, rd)
	got := mdTableAfter(t, md, "### 4.1 Throughput and CPU")
	if got[0][5] != "broker CPU % of allotment" || got[0][6] != "broker CPU cores" {
		t.Fatalf("head %q", got[0])
	}
	// Cores of brokers 1 and 2 together, median over the repeats: paced 0.20+0.30,
	// 0.22+0.31, 0.24+0.35 -> 0.53; behind 0.85+0.70, 0.88+0.72, 0.90+0.74 -> 1.60.
	for _, want := range [][]string{{"`paced`", "-", "0.53"}, {"`behind`", "-", "1.60"}} {
		for _, line := range got {
			if line[0] == want[0] && (line[5] != want[1] || line[6] != want[2]) {
				t.Errorf("%s broker CPU %q %q, want %q %q", line[0], line[5], line[6], want[1], want[2])
			}
		}
	}
	// behind was limited by a broker at 88% of its CPU; without the allotment that is unknown.
	l := mdTableAfter(t, md, "### 6.2 What limited each scenario")[2]
	if l[1] != notDetermined || !strings.Contains(l[2], "brokers' CPU 1.60 cores in all") ||
		!strings.HasSuffix(l[2], "not measured: broker CPU share (allotment unknown), broker disk") {
		t.Errorf("behind with remote brokers: %q", l)
	}
}

// mdTableAfter returns the cells of the first Markdown table after heading, the header
// included and the separator line left out.
func mdTableAfter(t *testing.T, md, heading string) [][]string {
	t.Helper()
	i := strings.Index(md, heading+"\n")
	if i < 0 {
		t.Fatalf("no heading %q", heading)
	}
	var out [][]string
	started := false
	for _, line := range strings.Split(md[i:], "\n") {
		if !strings.HasPrefix(line, "|") {
			if started {
				break
			}
			continue
		}
		started = true
		if strings.HasPrefix(line, "|---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		out = append(out, cells)
	}
	return out
}
