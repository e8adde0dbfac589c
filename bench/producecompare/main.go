// Command producecompare measures kbench produce against Kafka's own ProducerPerformance (from
// the same Kafka jars) and against a bare franz-go producer (bench/bareproducer: the same
// client settings and payloads, nothing measured) on an embedded cluster (3 brokers, topics
// replicated 3 times) or a running one (-bootstrap), each tool as its own process, in rotating
// order so that drift in the brokers favours none:
//
//   - Throughput: 1 KiB records, acks=1, batch.size=16384, linger.ms=0, unthrottled. Per round
//     and as medians, the records/s ratio and the client-CPU-per-record ratios (kbench / Kafka's
//     tool, kbench / bare). Records/s is each tool's own figure over its window lines after the
//     first (its steady state: the first 5 s hold a JVM's class loading and JIT compilation;
//     the bare producer prints its whole run); CPU is the process's user+system time less that
//     of a one-record run of the same tool (its start-up: the JVM, or the Go binary, starting
//     and connecting).
//   - Scale: kbench and the bare producer with 100 and 1,000 producers in one process at a
//     paced rate: the achieved rate against the offered one, peak RSS, and CPU per record less
//     a run of one record per producer (opening that many clients), as kbench / bare ratios.
//     Kafka's tool runs one producer per process, so it has no place here.
//   - Latency: 1 KiB records, acks=all, linger.ms=0, at a rate both tools sustain. Per pair,
//     both tools' p50 and p99 as they print them (the whole run, start included) and the
//     brokers' own Produce request time (RequestMetrics TotalTimeMs) over the same run.
//
// It is run by `make bench`; it is a benchmark, not a test: it asserts nothing.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster"
)

type options struct {
	kbench      string
	bare        string
	bootstrap   string
	brokers     int
	partitions  int
	records     int64
	pairs       int
	warmup      int64
	latRate     int
	latRecords  int64
	latencyOnly bool
	scale       scaleOptions
}

func main() {
	var o options
	flag.StringVar(&o.kbench, "kbench", "bin/kbench", "kbench binary")
	flag.StringVar(&o.bare, "bare", "bin/bareproducer", "bare franz-go producer binary (bench/bareproducer)")
	flag.StringVar(&o.bootstrap, "bootstrap", "", "a running cluster's bootstrap servers instead of an embedded one (no broker request times then)")
	o.scale.flags()
	flag.IntVar(&o.brokers, "brokers", 3, "brokers in the embedded cluster")
	flag.IntVar(&o.partitions, "partitions", 6, "partitions of each test topic")
	flag.Int64Var(&o.records, "records", 1_000_000, "records per throughput run")
	flag.IntVar(&o.pairs, "pairs", 3, "kbench/Kafka pairs of each scenario")
	flag.Int64Var(&o.warmup, "warmup-records", 1_000_000, "records produced to warm the brokers before measuring")
	flag.IntVar(&o.latRate, "latency-rate", 2000, "records/s of the latency scenario (one both tools sustain)")
	flag.Int64Var(&o.latRecords, "latency-records", 40_000, "records per latency run")
	flag.BoolVar(&o.latencyOnly, "latency-only", false, "run the latency scenario only")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "producecompare: %v\n", err)
		os.Exit(1)
	}
}

// bench is the cluster and the three tools.
type bench struct {
	o      options
	ctx    context.Context
	kafka  *cluster.Kafka
	c      *cluster.Cluster // nil with -bootstrap
	boot   string
	admin  *kadm.Client
	topicN int
}

func run(o options) error {
	// Ctrl-C ends the tools (their commands share ctx) and then stops the cluster.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	kafka, err := cluster.Install(ctx, "", os.Stderr)
	if err != nil {
		return err
	}
	b := &bench{o: o, ctx: ctx, kafka: kafka, boot: o.bootstrap}
	if o.bootstrap == "" {
		c, err := cluster.Start(ctx, cluster.Options{Brokers: o.brokers, Log: os.Stderr})
		if err != nil {
			return err
		}
		defer c.Stop()
		b.c, b.boot = c, c.Bootstrap()
	}
	adm, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(b.boot, ",")...))
	if err != nil {
		return fmt.Errorf("unable to create admin client: %w", err)
	}
	defer adm.Close()
	b.admin = kadm.NewClient(adm)
	if b.c == nil {
		// Topics are replicated on up to 3 brokers: count the running cluster's.
		bs, err := b.admin.ListBrokers(ctx)
		if err != nil {
			return fmt.Errorf("unable to list the brokers of %s: %w", b.boot, err)
		}
		b.o.brokers = len(bs)
	}

	fmt.Printf("warming the brokers with %d records (each tool, unmeasured)\n", o.warmup)
	warm := []string{"acks=1", "batch.size=16384", "linger.ms=0"}
	for _, tool := range []string{"kbench", "kafka"} { // the brokers are warm for the bare producer too
		if _, err := b.run(tool, o.warmup, -1, warm); err != nil {
			return err
		}
	}
	if o.scale.only {
		return b.scaleSection()
	}
	if !o.latencyOnly {
		if err := b.throughput(); err != nil {
			return err
		}
	}
	if err := b.latency(); err != nil {
		return err
	}
	if o.latencyOnly {
		return nil
	}
	return b.scaleSection()
}

// tools are the three producers compared.
var tools = []string{"kbench", "kafka", "bare"}

// newTopic creates a fresh topic, replicated on up to 3 brokers.
func (b *bench) newTopic() (string, error) {
	b.topicN++
	name := fmt.Sprintf("bench-%d-%d", time.Now().Unix(), b.topicN)
	rf := int16(min(b.o.brokers, 3))
	if _, err := b.admin.CreateTopic(b.ctx, int32(b.o.partitions), rf, nil, name); err != nil {
		return "", fmt.Errorf("unable to create topic %q: %w", name, err)
	}
	return name, nil
}

// run runs tool ("kbench", "kafka" or "bare") on a fresh topic: n records of 1 KiB at rate
// (-1: unthrottled) with props, from one producer.
func (b *bench) run(tool string, n int64, rate int, props []string) (sample, error) {
	return b.runAs(tool, n, rate, props, false, 1)
}

// runAs is run; with sendTime, kbench's p50 and p99 are its send-time latency (--json, in
// microseconds), which starts where Kafka's tool starts its clock: when the record is handed
// to the client. Its printed lines measure from the due time, which adds the pacer's lateness.
func (b *bench) runAs(tool string, n int64, rate int, props []string, sendTime bool, producers int) (sample, error) {
	topic, err := b.newTopic()
	if err != nil {
		return sample{}, err
	}
	switch tool {
	case "bare":
		args := []string{"--bootstrap-server", b.boot, "--topic", topic, "--num-records", strconv.FormatInt(n, 10),
			"--record-size", "1024", "--throughput", strconv.Itoa(rate), "--producers", strconv.Itoa(producers)}
		return measureBare(exec.CommandContext(b.ctx, b.o.bare, append(args, props...)...))
	case "kafka":
		args := []string{"--topic", topic, "--num-records", strconv.FormatInt(n, 10), "--record-size", "1024",
			"--throughput", strconv.Itoa(rate), "--producer-props", "bootstrap.servers=" + b.boot}
		return measure(b.kafka.Command(b.ctx, "org.apache.kafka.tools.ProducerPerformance", append(args, props...)...))
	}
	args := []string{"--topic", topic, "--num-records", strconv.FormatInt(n, 10), "--record-size", "1024",
		"--throughput", strconv.Itoa(rate), "--producers", strconv.Itoa(producers), "--producer-props", "bootstrap.servers=" + b.boot}
	args = append(args, props...)
	// Nothing else in kbench's process: no broker sampling, no timestamp header.
	args = append([]string{"produce", "--timestamp-header=false", "--broker-metrics=false"}, args...)
	if sendTime {
		return measureJSON(exec.CommandContext(b.ctx, b.o.kbench, append(args, "--json")...))
	}
	return measure(exec.CommandContext(b.ctx, b.o.kbench, args...))
}

// pair runs kbench and Kafka's tool, kbench first in even pairs and Kafka's tool first in
// odd ones.
func (b *bench) pair(i int, f func(tool string) (sample, error)) (kb, kf sample, err error) {
	got, err := rotate(i, []string{"kbench", "kafka"}, f)
	return got["kbench"], got["kafka"], err
}

// rotate runs f for each of names, starting round i at names[i%len]: each goes first,
// second, ... in turn, so that drift in the brokers favours none.
func rotate(i int, names []string, f func(tool string) (sample, error)) (map[string]sample, error) {
	got := map[string]sample{}
	for j := range names {
		t := names[(i+j)%len(names)]
		s, err := f(t)
		if err != nil {
			return nil, err
		}
		got[t] = s
	}
	return got, nil
}

// startup is the median CPU of three one-record runs of tool: what starting costs it.
func (b *bench) startup(tool string) (time.Duration, error) {
	var cpu []float64
	for range 3 {
		s, err := b.run(tool, 1, -1, []string{"acks=1"})
		if err != nil {
			return 0, err
		}
		cpu = append(cpu, s.cpu.Seconds())
	}
	return time.Duration(median(cpu) * float64(time.Second)), nil
}

func (b *bench) throughput() error {
	kbStart, err := b.startup("kbench")
	if err != nil {
		return err
	}
	kfStart, err := b.startup("kafka")
	if err != nil {
		return err
	}
	bareStart, err := b.startup("bare")
	if err != nil {
		return err
	}
	o := b.o
	props := []string{"acks=1", "batch.size=16384", "linger.ms=0"}
	fmt.Printf("\nthroughput: %d records of 1024 bytes, acks=1, batch.size=16384, linger.ms=0, unthrottled, %d partitions, %d broker(s)\n",
		o.records, o.partitions, o.brokers)
	fmt.Printf("records/s: kbench's and Kafka's tool's own window lines after the first (steady state, start-up left out); the bare producer's whole run\n")
	fmt.Printf("CPU: the process's user+system less a one-record run's (start-up: kbench %.2f s, Kafka's tool %.2f s, bare %.2f s, medians of 3)\n",
		kbStart.Seconds(), kfStart.Seconds(), bareStart.Seconds())
	fmt.Printf("%-5s %12s %12s %12s %8s %13s %13s %13s %10s %10s\n", "round", "kbench rec/s", "kafka rec/s", "bare rec/s", "kb/kafka",
		"kbench CPU-s", "kafka CPU-s", "bare CPU-s", "kb/kafka", "kb/bare")
	var rateRatios, cpuRatios, bareRatios []float64
	for i := range o.pairs {
		got, err := rotate(i, tools, func(tool string) (sample, error) { return b.run(tool, o.records, -1, props) })
		if err != nil {
			return err
		}
		kb, kf, bare := got["kbench"], got["kafka"], got["bare"]
		kbRate, kfRate := steadyOrTotal(kb), steadyOrTotal(kf)
		kbCPU, kfCPU, bareCPU := kb.cpuPerMillion(kbStart), kf.cpuPerMillion(kfStart), bare.cpuPerMillion(bareStart)
		rr, cr, br := kbRate/kfRate, kbCPU/kfCPU, kbCPU/bareCPU
		rateRatios, cpuRatios, bareRatios = append(rateRatios, rr), append(cpuRatios, cr), append(bareRatios, br)
		fmt.Printf("%-5d %12.0f %12.0f %12.0f %8.2f %13.2f %13.2f %13.2f %10.2f %10.2f\n", i+1, kbRate, kfRate, bare.rate, rr, kbCPU, kfCPU, bareCPU, cr, br)
	}
	fmt.Printf("(CPU-s: client CPU seconds per million records)\n")
	fmt.Printf("median records/s ratio (kbench/kafka): %.2f (target >= 1.0)\n", median(rateRatios))
	fmt.Printf("median client CPU per record ratio (kbench/kafka): %.2f (target <= 0.5)\n", median(cpuRatios))
	fmt.Printf("median client CPU per record ratio (kbench/bare franz-go): %.2f (target <= 1.10: kbench's measurement costs at most 10%%)\n", median(bareRatios))
	return nil
}

// steadyOrTotal is the steady-state rate, or the summary's when the run printed fewer than
// two windows (then it says so).
func steadyOrTotal(s sample) float64 {
	if r := s.steadyRate(); r > 0 {
		return r
	}
	fmt.Printf("(a run shorter than two 5 s windows: its summary rate, start-up included)\n")
	return s.rate
}

func (b *bench) latency() error {
	o := b.o
	props := []string{"acks=all", "linger.ms=0"}
	fmt.Printf("\nlatency: %d records of 1024 bytes at %d records/s, acks=all, linger.ms=0, %d partitions, %d broker(s), replicas %d\n",
		o.latRecords, o.latRate, o.partitions, o.brokers, min(o.brokers, 3))
	fmt.Printf("client p50/p99 from the send: kbench's send-time latency (--json, microseconds); Kafka's tool as it prints them (whole ms, truncated; JVM warm-up included)\n")
	fmt.Printf("broker Produce: the slowest broker's RequestMetrics TotalTimeMs over the same run (mean exact; p50/p99 Kafka's decaying reservoir)\n")
	fmt.Printf("rec/req: records per Produce request the brokers served (fewer, larger requests cost the brokers less)\n")
	fmt.Printf("%-5s %-7s %10s %9s %9s %8s %12s %12s %12s\n", "pair", "tool", "rec/s", "p50 ms", "p99 ms", "rec/req", "broker mean", "broker p50", "broker p99")
	for i := range o.pairs {
		times := map[string]brokerTime{}
		kb, kf, err := b.pair(i, func(tool string) (sample, error) {
			if b.c == nil { // a running cluster (-bootstrap): no broker metrics to sample
				return b.runAs(tool, o.latRecords, o.latRate, props, true, 1)
			}
			stop, err := sampleBrokers(b.ctx, b.c)
			if err != nil {
				return sample{}, err
			}
			s, err := b.runAs(tool, o.latRecords, o.latRate, props, true, 1)
			times[tool] = stop()
			return s, err
		})
		if err != nil {
			return err
		}
		for _, r := range []struct {
			tool string
			s    sample
		}{{"kbench", kb}, {"kafka", kf}} {
			bt := times[r.tool]
			broker := fmt.Sprintf("%12s %12s %12s", "-", "-", "-")
			if bt.ok {
				broker = fmt.Sprintf("%12.2f %12.2f %12.2f", bt.meanMs, bt.p50Ms, bt.p99Ms)
			}
			perReq := "-"
			if bt.requests > 0 {
				perReq = fmt.Sprintf("%.1f", float64(r.s.records)/bt.requests)
			}
			fmt.Printf("%-5d %-7s %10.0f %9.2f %9.2f %8s %s\n", i+1, r.tool, r.s.rate, r.s.p50, r.s.p99, perReq, broker)
		}
	}
	return nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
