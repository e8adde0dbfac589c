// Command zonelatency measures what the remote listener's delay proxies add to a lightly
// loaded produce: a 1-broker embedded cluster with --client-rtt (10 ms by default), then
// `kbench produce` at a few hundred records/s, acks=1, linger.ms=0, 100-byte records,
// alternately through the plain and the remote listener, each run on its own topic.
// Per pair and as medians it prints the send-time p50 of each listener, their difference
// (the injected RTT should appear as RTT +/- 1 ms), and the CPU of the proxy process beside
// the client's over the remote run (both from /proc: the proxy runs as `kbench zones
// proxy`, its own process, as it does for `kbench cluster up`).
//
// Then, on the same cluster, the remote link's bandwidth is capped (-bandwidth, 2 MiB/s by
// default) on the running proxy, and an unthrottled acks=1 run of 1 KiB records shows the
// MiB/s it reached against the cap. Last, a 3-broker cluster with each broker in its own
// zone (inter-broker proxies) runs acks=all at a low rate (30 records/s, 3 partitions, 3
// replicas), the link between brokers switched between 0 and -broker-rtt (10 ms) on the
// running proxies before each run: the shift of the p50 is what the broker RTT adds to an
// acknowledgement (about one RTT: the follower's fetch answer one way, its next fetch back).
//
// It is run by `make bench`; it is a benchmark, not a test: it asserts nothing.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kbench/kbench/internal/cluster"
	"github.com/kbench/kbench/internal/zones"
)

type options struct {
	kbench    string
	rtt       time.Duration
	rate      int
	records   int
	pairs     int
	bandwidth string
	brokerRTT time.Duration
}

func main() {
	var o options
	flag.StringVar(&o.kbench, "kbench", "bin/kbench", "kbench binary")
	flag.DurationVar(&o.rtt, "rtt", 10*time.Millisecond, "client RTT injected on the remote listener")
	flag.IntVar(&o.rate, "rate", 300, "records/s of each run (lightly loaded)")
	flag.IntVar(&o.records, "records", 3000, "records per run")
	flag.IntVar(&o.pairs, "pairs", 3, "plain/remote pairs")
	flag.StringVar(&o.bandwidth, "bandwidth", "2MiB", "remote link cap to measure (\"\" to skip)")
	flag.DurationVar(&o.brokerRTT, "broker-rtt", 10*time.Millisecond, "RTT between brokers to measure under acks=all (0 to skip)")
	flag.Parse()
	if err := runAll(o); err != nil {
		fmt.Fprintf(os.Stderr, "zonelatency: %v\n", err)
		os.Exit(1)
	}
}

// result is what one produce run reports.
type result struct {
	p50Ms         float64
	clientCPU     float64 // seconds
	proxyCPU      float64 // seconds, remote runs only
	elapsedSecs   float64
	recordsPerSec float64
	mibPerSec     float64
}

func runAll(o options) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	exe, err := filepath.Abs(o.kbench)
	if err != nil {
		return err
	}
	if err := run(ctx, o, exe); err != nil {
		return err
	}
	if o.brokerRTT > 0 {
		return brokerLatency(ctx, o, exe)
	}
	return nil
}

func run(ctx context.Context, o options, exe string) error {
	c, err := cluster.Start(ctx, cluster.Options{Brokers: 1, Log: os.Stderr,
		Client: &zones.Link{RTT: o.rtt}, ProxyCommand: []string{exe, "zones", "proxy"}})
	if err != nil {
		return err
	}
	defer c.Stop()
	remote, _ := c.Endpoint("remote")
	n, _ := c.Network()
	fmt.Printf("zone latency: 1 broker, remote listener %s, %d records/s of 100 bytes, acks=1, linger.ms=0, %d records per run\n",
		n.Link, o.rate, o.records)
	// One unmeasured run per listener warms the broker and the connections' code paths.
	for _, bs := range []string{c.Bootstrap(), remote.Bootstrap} {
		if _, err := produce(ctx, o, exe, bs, "warm", 0); err != nil {
			return err
		}
	}
	var plains, remotes, shifts []float64
	for i := range o.pairs {
		p, err := produce(ctx, o, exe, c.Bootstrap(), fmt.Sprintf("plain-%d", i), 0)
		if err != nil {
			return err
		}
		r, err := produce(ctx, o, exe, remote.Bootstrap, fmt.Sprintf("remote-%d", i), n.ProxyPID)
		if err != nil {
			return err
		}
		shift := r.p50Ms - p.p50Ms
		plains, remotes, shifts = append(plains, p.p50Ms), append(remotes, r.p50Ms), append(shifts, shift)
		fmt.Printf("pair %d: p50 plain %.2f ms, remote %.2f ms, shift %.2f ms; over the remote run client CPU %.3f cores, proxy CPU %.3f cores\n",
			i+1, p.p50Ms, r.p50Ms, shift, r.clientCPU/r.elapsedSecs, r.proxyCPU/r.elapsedSecs)
	}
	want := float64(o.rtt) / float64(time.Millisecond)
	m := median(shifts)
	verdict := "within"
	if m < want-1 || m > want+1 {
		verdict = "outside"
	}
	fmt.Printf("median p50: plain %.2f ms, remote %.2f ms; shift %.2f ms, %s %.0f ms +/- 1 ms\n",
		median(plains), median(remotes), m, verdict, want)
	if o.bandwidth != "" {
		return bandwidthCap(ctx, o, exe, c)
	}
	return nil
}

// produce runs kbench produce through bootstrap on a topic of its own and reads its JSON;
// with proxyPID it also reads that process's CPU time before and after.
func produce(ctx context.Context, o options, exe, bootstrap, name string, proxyPID int) (result, error) {
	topic := fmt.Sprintf("zonelatency-%d-%s", time.Now().Unix(), name)
	cmd := exec.CommandContext(ctx, exe, "produce", "--topic", topic, "--num-records", strconv.Itoa(o.records),
		"--record-size", "100", "--throughput", strconv.Itoa(o.rate), "--json",
		"--producer-props", "bootstrap.servers="+bootstrap, "acks=1", "linger.ms=0")
	return runProduce(cmd, bootstrap, proxyPID)
}

// runProduce runs a kbench produce command through bootstrap and reads its JSON, with
// proxyPID's CPU time read before and after.
func runProduce(cmd *exec.Cmd, bootstrap string, proxyPID int) (result, error) {
	cmd.Stderr = os.Stderr
	before := procCPU(proxyPID)
	out, err := cmd.Output()
	after := procCPU(proxyPID)
	if err != nil {
		return result{}, fmt.Errorf("kbench produce through %s: %w", bootstrap, err)
	}
	var doc struct {
		Total struct {
			ElapsedSeconds float64 `json:"elapsed_seconds"`
			RecordsPerSec  float64 `json:"records_per_sec"`
			MiBPerSec      float64 `json:"mib_per_sec"`
			SendLatency    struct {
				P50 float64 `json:"p50_us"`
			} `json:"send_latency"`
		} `json:"total"`
		CPU struct {
			Seconds float64 `json:"seconds"`
		} `json:"client_cpu"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return result{}, fmt.Errorf("read kbench produce --json: %w", err)
	}
	return result{p50Ms: doc.Total.SendLatency.P50 / 1000, clientCPU: doc.CPU.Seconds, proxyCPU: after - before,
		elapsedSecs: doc.Total.ElapsedSeconds, recordsPerSec: doc.Total.RecordsPerSec, mibPerSec: doc.Total.MiBPerSec}, nil
}

// procCPU is pid's user+system CPU seconds from /proc/PID/stat (fields 14 and 15, in clock
// ticks of 1/100 s on Linux), 0 for pid 0 or an unreadable file.
func procCPU(pid int) float64 {
	if pid == 0 {
		return 0
	}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // fields from the 3rd on
	if len(fields) < 13 {
		return 0
	}
	u, _ := strconv.ParseFloat(fields[11], 64)
	k, _ := strconv.ParseFloat(fields[12], 64)
	return (u + k) / 100
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
