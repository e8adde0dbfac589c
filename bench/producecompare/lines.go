package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The lines both tools print (Kafka 4.1 ProducerPerformance format): a window line every 5 s
// and a summary.
var (
	windowLine = regexp.MustCompile(`^([0-9]+) records sent, ([0-9.]+) records/sec \(([0-9.]+) MB/sec\), ([0-9.]+) ms avg latency, ([0-9.]+) ms max latency\.$`)
	totalLine  = regexp.MustCompile(`^([0-9]+) records sent, ([0-9.]+) records/sec \(([0-9.]+) MB/sec\), ([0-9.]+) ms avg latency, ([0-9.]+) ms max latency, ([0-9]+) ms 50th, ([0-9]+) ms 95th, ([0-9]+) ms 99th, ([0-9]+) ms 99\.9th\.$`)
)

// sample is one run of one tool, as it printed it.
type sample struct {
	records  int64
	rate     float64 // records/s from the summary line: the whole run
	p50, p99 float64 // ms, from the summary line
	// windows are the window lines' records and records/s, in order.
	windows []window
	cpu     time.Duration // the process's user+system time
	// peakRSS is the process's peak resident set (getrusage ru_maxrss: the kernel's VmHWM of
	// the process when it ended).
	peakRSS int64 // bytes
}

type window struct {
	records int64
	rate    float64
	avgMs   float64
}

// steadyRate is the rate over the window lines after the first: the tool's own measurement
// with its start (a JVM's class loading and JIT compilation, a Go binary's first
// connections) left out. 0 when the run printed fewer than two windows.
func (s sample) steadyRate() float64 {
	if len(s.windows) < 2 {
		return 0
	}
	var n int64
	var sec float64
	for _, w := range s.windows[1:] {
		n += w.records
		if w.rate > 0 {
			sec += float64(w.records) / w.rate
		}
	}
	if sec == 0 {
		return 0
	}
	return float64(n) / sec
}

// cpuPerMillion is the CPU per million records with startup (a one-record run's CPU) taken
// off.
func (s sample) cpuPerMillion(startup time.Duration) float64 {
	return max(s.cpu-startup, 0).Seconds() / float64(s.records) * 1e6
}

// measure runs one tool to completion and reads its lines and CPU.
func measure(cmd *exec.Cmd) (sample, error) {
	var errBuf strings.Builder
	cmd.Stderr = &errBuf
	out, err := cmd.Output()
	if err != nil {
		return sample{}, fmt.Errorf("%s failed: %w: %s", cmd.Path, err, errBuf.String())
	}
	s, err := parseLines(string(out))
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w", cmd.Path, err)
	}
	s.cpu, s.peakRSS = usage(cmd)
	return s, nil
}

// usage is an ended process's user+system CPU time and peak RSS.
func usage(cmd *exec.Cmd) (time.Duration, int64) {
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024 // kilobytes on Linux (getrusage(2))
	}
	return cpu, rss
}

// measureBare runs the bare franz-go producer and reads its one JSON line.
func measureBare(cmd *exec.Cmd) (sample, error) {
	var errBuf strings.Builder
	cmd.Stderr = &errBuf
	out, err := cmd.Output()
	if err != nil {
		return sample{}, fmt.Errorf("%s failed: %w: %s", cmd.Path, err, errBuf.String())
	}
	s, err := parseBare(out)
	if err != nil {
		return sample{}, fmt.Errorf("%s: %w", cmd.Path, err)
	}
	s.cpu, s.peakRSS = usage(cmd)
	return s, nil
}

// parseBare reads the bare producer's line: acknowledged, failed and records/s.
func parseBare(out []byte) (sample, error) {
	var r struct {
		Acked         int64   `json:"acked"`
		Failed        int64   `json:"failed"`
		RecordsPerSec float64 `json:"records_per_sec"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return sample{}, fmt.Errorf("unreadable result: %w", err)
	}
	if r.Failed > 0 {
		return sample{}, fmt.Errorf("%d records failed", r.Failed)
	}
	return sample{records: r.Acked, rate: r.RecordsPerSec}, nil
}

// parseLines reads the window lines and the (whole-run) summary line.
func parseLines(out string) (sample, error) {
	var s sample
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if m := windowLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.ParseInt(m[1], 10, 64)
			r, _ := strconv.ParseFloat(m[2], 64)
			a, _ := strconv.ParseFloat(m[4], 64)
			s.windows = append(s.windows, window{records: n, rate: r, avgMs: a})
			continue
		}
		if m := totalLine.FindStringSubmatch(l); m != nil {
			s.records, _ = strconv.ParseInt(m[1], 10, 64)
			s.rate, _ = strconv.ParseFloat(m[2], 64)
			s.p50, _ = strconv.ParseFloat(m[6], 64)
			s.p99, _ = strconv.ParseFloat(m[8], 64)
		}
	}
	if s.records == 0 {
		return s, errors.New("no summary line in the output")
	}
	return s, nil
}

// measureJSON runs kbench produce --json and reads its send-time latency and rate.
func measureJSON(cmd *exec.Cmd) (sample, error) {
	var errBuf strings.Builder
	cmd.Stderr = &errBuf
	out, err := cmd.Output()
	if err != nil {
		return sample{}, fmt.Errorf("%s failed: %w: %s", cmd.Path, err, errBuf.String())
	}
	var r struct {
		Total struct {
			Acked         int64   `json:"acked"`
			RecordsPerSec float64 `json:"records_per_sec"`
			SendLatency   struct {
				P50Us float64 `json:"p50_us"`
				P99Us float64 `json:"p99_us"`
			} `json:"send_latency"`
		} `json:"total"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		return sample{}, fmt.Errorf("%s --json: %w", cmd.Path, err)
	}
	t := r.Total
	s := sample{records: t.Acked, rate: t.RecordsPerSec, p50: t.SendLatency.P50Us / 1000, p99: t.SendLatency.P99Us / 1000}
	s.cpu, s.peakRSS = usage(cmd)
	return s, nil
}
