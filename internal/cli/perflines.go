package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

// The lines of Kafka's kafka-producer-perf-test and kafka-consumer-perf-test (Kafka 4.1
// ProducerPerformance.Stats and ConsumerPerformance), field for field, so that scripts that
// parse them read kbench's output too.

// producerWindowLine is ProducerPerformance's line every 5 s.
func producerWindowLine(t load.Tick) string {
	return fmt.Sprintf("%d records sent, %.1f records/sec (%.2f MB/sec), %.1f ms avg latency, %.1f ms max latency.",
		t.Acked, t.RecordsPerSec, t.MiBPerSec, t.DueLatency.AvgUs/1000, float64(t.DueLatency.MaxUs/1000))
}

// producerTotalLine is ProducerPerformance's summary (Kafka 4.1 prints records/sec with one
// decimal, 4.2 and later with six: v says which); steady adds " steady state" after the
// count, as its line after warm-up does. Latencies are from due time (see produce --help).
func producerTotalLine(s load.ProduceStats, steady bool, v toolVersion) string {
	tag := ""
	if steady {
		tag = " steady state"
	}
	rate := strconv.FormatFloat(s.RecordsPerSec, 'f', 1, 64)
	if v.sixDecimals() {
		rate = strconv.FormatFloat(s.RecordsPerSec, 'f', 6, 64)
	}
	l := s.DueLatency
	return fmt.Sprintf("%d%s records sent, %s records/sec (%.2f MB/sec), %.2f ms avg latency, %.2f ms max latency, %d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.",
		s.Acked, tag, rate, s.MiBPerSec, l.AvgUs/1000, float64(l.MaxUs/1000),
		l.P50Us/1000, l.P95Us/1000, l.P99Us/1000, l.P999Us/1000)
}

// producerCostLine is kbench's one extra line after the summary: what the run cost the client.
func producerCostLine(r *load.ProduceResult) string {
	unsent := ""
	if r.Drained > 0 {
		unsent = fmt.Sprintf(", %d acknowledged after the end", r.Drained)
	}
	if r.Unsent > 0 {
		unsent += fmt.Sprintf(", %d unsent (aborted unacknowledged when the run stopped waiting)", r.Unsent)
	}
	return fmt.Sprintf("%.2f s client CPU (%.2f user, %.2f system), %.2f CPU-s per million records, %d failed%s.",
		r.CPU.Seconds, r.CPU.UserSeconds, r.CPU.SystemSeconds, r.CPU.SecondsPerMillion, r.Total.Failed, unsent)
}

// consumerHeader is ConsumerPerformance's header line.
func consumerHeader(detailed bool) string {
	extra := ", rebalance.time.ms, fetch.time.ms, fetch.MB.sec, fetch.nMsg.sec"
	if detailed {
		return "time, threadId, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec" + extra
	}
	return "start.time, end.time, data.consumed.in.MB, MB.sec, data.consumed.in.nMsg, nMsg.sec" + extra
}

// consumerTotalLine is ConsumerPerformance's final line.
func consumerTotalLine(r *load.ConsumeResult, dateFormat string) string {
	mb := float64(r.Bytes) / (1024 * 1024)
	fetchMs := int64((r.FetchSeconds * 1000) + 0.5)
	return fmt.Sprintf("%s, %s, %.4f, %.4f, %d, %.4f, %d, %d, %.4f, %.4f",
		formatJavaDate(r.Start, dateFormat), formatJavaDate(r.End, dateFormat),
		mb, r.MiBPerSec, r.Records, r.RecordsPerSec,
		int64(r.RebalanceSeconds*1000+0.5), fetchMs, r.FetchMiBPerSec, r.FetchRecordsPerSec)
}

// consumerDetailLine is ConsumerPerformance's --show-detailed-stats row.
func consumerDetailLine(t load.ConsumeTick, start time.Time, dateFormat string) string {
	ivMs := t.Interval.Milliseconds()
	fetchMs := (t.Interval - t.Rebalance).Milliseconds()
	ivMB := float64(t.Bytes) / (1024 * 1024)
	var fetchMBs, fetchRecs float64
	if fetchMs > 0 {
		fetchMBs = 1000 * ivMB / float64(fetchMs)
		fetchRecs = 1000 * float64(t.Records) / float64(fetchMs)
	}
	var mbs, recs float64
	if ivMs > 0 {
		mbs = 1000 * ivMB / float64(ivMs)
		recs = 1000 * float64(t.Records) / float64(ivMs)
	}
	return fmt.Sprintf("%s, %d, %.4f, %.4f, %d, %.4f, %d, %d, %.4f, %.4f",
		formatJavaDate(start.Add(t.Elapsed), dateFormat), 0,
		float64(t.TotalBytes)/(1024*1024), mbs, t.TotalRecords, recs,
		t.Rebalance.Milliseconds(), fetchMs, fetchMBs, fetchRecs)
}

// latencyLine renders a latency summary in milliseconds, for kbench's own extra lines.
func latencyLine(name string, s metrics.LatencySummary) string {
	ms := func(us int64) string { return strconv.FormatFloat(float64(us)/1000, 'f', 3, 64) }
	return fmt.Sprintf("%s latency ms: avg %.3f, p50 %s, p90 %s, p95 %s, p99 %s, p99.9 %s, p99.99 %s, max %s (%d records).",
		name, s.AvgUs/1000, ms(s.P50Us), ms(s.P90Us), ms(s.P95Us), ms(s.P99Us), ms(s.P999Us), ms(s.P9999Us), ms(s.MaxUs), s.Count)
}

// formatJavaDate formats t with a java.text.SimpleDateFormat pattern (the letters Kafka's
// --date-format users write: y M d H h m s S a E Z, and 'quoted' text).
func formatJavaDate(t time.Time, pattern string) string {
	var b strings.Builder
	for i := 0; i < len(pattern); {
		c := pattern[i]
		if c == '\'' {
			j := strings.IndexByte(pattern[i+1:], '\'')
			if j < 0 {
				b.WriteString(pattern[i+1:])
				break
			}
			if j == 0 {
				b.WriteByte('\'')
			}
			b.WriteString(pattern[i+1 : i+1+j])
			i += j + 2
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteByte(c)
			i++
			continue
		}
		n := 1
		for i+n < len(pattern) && pattern[i+n] == c {
			n++
		}
		i += n
		pad := func(v int) { fmt.Fprintf(&b, "%0*d", n, v) }
		switch c {
		case 'y':
			if n == 2 {
				fmt.Fprintf(&b, "%02d", t.Year()%100)
			} else {
				pad(t.Year())
			}
		case 'M':
			switch {
			case n >= 4:
				b.WriteString(t.Month().String())
			case n == 3:
				b.WriteString(t.Month().String()[:3])
			default:
				pad(int(t.Month()))
			}
		case 'd':
			pad(t.Day())
		case 'H':
			pad(t.Hour())
		case 'h':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			pad(h)
		case 'm':
			pad(t.Minute())
		case 's':
			pad(t.Second())
		case 'S':
			pad(t.Nanosecond() / int(time.Millisecond))
		case 'a':
			b.WriteString(t.Format("PM"))
		case 'E':
			if n >= 4 {
				b.WriteString(t.Weekday().String())
			} else {
				b.WriteString(t.Weekday().String()[:3])
			}
		case 'Z':
			b.WriteString(t.Format("-0700"))
		default:
			b.WriteString(strings.Repeat(string(c), n))
		}
	}
	return b.String()
}

// toolVersion is the Kafka release whose perf-test lines kbench prints (--tool-version):
// from 4.2 on, ProducerPerformance prints its summary's records/sec with six decimals, and
// both tools print a notice on stdout when a deprecated flag is used.
type toolVersion struct{ minor int }

// defaultToolVersion keeps the lines of the tools kbench's drop-ins first matched.
var defaultToolVersion = toolVersion{minor: 1}

func (v *toolVersion) Set(s string) error {
	major, minor, ok := strings.Cut(strings.TrimSpace(s), ".")
	n, err := strconv.Atoi(minor)
	if !ok || major != "4" || err != nil || n < 0 || n > 4 {
		return fmt.Errorf("%q is not a Kafka release from 4.0 to 4.4, such as 4.4", s)
	}
	v.minor = n
	return nil
}

func (v *toolVersion) String() string { return fmt.Sprintf("4.%d", v.minor) }
func (v *toolVersion) Type() string   { return "version" }

// sixDecimals says whether the producer summary prints records/sec with six decimals.
func (v toolVersion) sixDecimals() bool { return v.minor >= 2 }

// deprecationNotices are the notices the tool prints for the deprecated flags given (Kafka
// 4.2 and later); changed reports whether a flag was given.
func (v toolVersion) deprecationNotices(changed func(string) bool) []string {
	if v.minor < 2 {
		return nil
	}
	var out []string
	for _, d := range []struct{ flag, line string }{
		{"producer-props", "Option --producer-props has been deprecated and will be removed in a future version. Use --command-property instead."},
		{"producer.config", "Option --producer.config has been deprecated and will be removed in a future version. Use --command-config instead."},
		{"messages", "Warning: --messages is deprecated. Use --num-records instead."},
	} {
		if changed(d.flag) {
			out = append(out, d.line)
		}
	}
	return out
}
