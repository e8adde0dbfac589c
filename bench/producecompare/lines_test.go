package main

import (
	"math"
	"testing"
	"time"
)

func TestParseLines(t *testing.T) {
	out := `500 records sent, 100.0 records/sec (0.10 MB/sec), 5.0 ms avg latency, 80.0 ms max latency.
1000 records sent, 200.0 records/sec (0.20 MB/sec), 2.0 ms avg latency, 9.0 ms max latency.
3000 records sent, 300.0 records/sec (0.29 MB/sec), 1.0 ms avg latency, 4.0 ms max latency.
4500 records sent, 150.5 records/sec (0.15 MB/sec), 2.13 ms avg latency, 80.00 ms max latency, 1 ms 50th, 5 ms 95th, 12 ms 99th, 70 ms 99.9th.
0.40 s client CPU (0.30 user, 0.10 system), 88.89 CPU-s per million records, 0 failed.
`
	s, err := parseLines(out)
	if err != nil {
		t.Fatal(err)
	}
	if s.records != 4500 || s.rate != 150.5 || s.p50 != 1 || s.p99 != 12 || len(s.windows) != 3 {
		t.Fatalf("parsed %+v", s)
	}
	// After the first window: 1000 records in 5 s and 3000 in 10 s, 4000 in 15 s.
	if got, want := s.steadyRate(), 4000.0/15; math.Abs(got-want) > 1e-9 {
		t.Errorf("steady rate %v, want %v", got, want)
	}
	// 3 s of CPU, 1 s of it start-up, over 4500 records: 2/4500*1e6 = 444.44 CPU-s per million.
	s.cpu = 3 * time.Second
	if got, want := s.cpuPerMillion(time.Second), 2.0/4500*1e6; math.Abs(got-want) > 1e-9 {
		t.Errorf("CPU per million %v, want %v", got, want)
	}
	if _, err := parseLines("nothing\n"); err == nil {
		t.Error("no summary line accepted")
	}
}

func TestParseBare(t *testing.T) {
	s, err := parseBare([]byte(`{"acked":4500,"failed":0,"records_per_sec":150.5}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.records != 4500 || s.rate != 150.5 {
		t.Fatalf("parsed %+v", s)
	}
	if _, err := parseBare([]byte(`{"acked":10,"failed":2,"records_per_sec":1}`)); err == nil {
		t.Error("failed records accepted")
	}
	if _, err := parseBare([]byte("nothing")); err == nil {
		t.Error("unreadable line accepted")
	}
}
