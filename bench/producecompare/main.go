// Command producecompare measures kbench produce against Kafka's own ProducerPerformance (from
// the same Kafka jars) on an embedded cluster: same topic settings, same producer properties
// (1 KiB records, acks=1, batch.size=16384, linger.ms=0, unthrottled), several pairs after a
// warm-up of the brokers. It prints per pair and as medians the records/s ratio and the
// client-CPU-per-record ratio (kbench / Kafka's tool). Each tool runs as its own process and
// its CPU is that process's user+system time (getrusage of the child), JVM start included,
// as a user running the tool pays it.
//
// It is run by `make bench`; it is a benchmark, not a test: it asserts nothing.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/cluster"
)

// The summary line both tools print (Kafka 4.1 ProducerPerformance format).
var totalLine = regexp.MustCompile(`^([0-9]+) records sent, ([0-9.]+) records/sec \(([0-9.]+) MB/sec\)`)

type sample struct {
	records int64
	rate    float64 // records/s from the tool's own summary line
	cpu     time.Duration
	line    string
}

func (s sample) cpuPerMillion() float64 { return s.cpu.Seconds() / float64(s.records) * 1e6 }

func main() {
	var (
		kbenchBin  = flag.String("kbench", "bin/kbench", "kbench binary")
		brokers    = flag.Int("brokers", 1, "brokers in the embedded cluster")
		partitions = flag.Int("partitions", 6, "partitions of each test topic")
		records    = flag.Int64("records", 1_000_000, "records per run")
		pairs      = flag.Int("pairs", 3, "kbench/Kafka pairs")
		warmup     = flag.Int64("warmup-records", 1_000_000, "records produced to warm the brokers before measuring")
	)
	flag.Parse()
	if err := run(*kbenchBin, *brokers, *partitions, *records, *pairs, *warmup); err != nil {
		fmt.Fprintf(os.Stderr, "producecompare: %v\n", err)
		os.Exit(1)
	}
}

func run(kbenchBin string, brokers, partitions int, records int64, pairs int, warmup int64) error {
	ctx := context.Background()
	kafka, err := cluster.Install(ctx, "", os.Stderr)
	if err != nil {
		return err
	}
	c, err := cluster.Start(ctx, cluster.Options{Brokers: brokers, Log: os.Stderr})
	if err != nil {
		return err
	}
	defer c.Stop()
	boot := c.Bootstrap()
	props := []string{"bootstrap.servers=" + boot, "acks=1", "batch.size=16384", "linger.ms=0"}
	common := func(n int64) []string {
		return []string{"--num-records", strconv.FormatInt(n, 10), "--record-size", "1024", "--throughput", "-1"}
	}

	adm, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(boot, ",")...))
	if err != nil {
		return fmt.Errorf("unable to create admin client: %w", err)
	}
	defer adm.Close()
	admin := kadm.NewClient(adm)
	topicN := 0
	newTopic := func() (string, error) {
		topicN++
		name := fmt.Sprintf("bench-%d-%d", time.Now().Unix(), topicN)
		rf := int16(min(brokers, 3))
		if _, err := admin.CreateTopic(ctx, int32(partitions), rf, nil, name); err != nil {
			return "", fmt.Errorf("unable to create topic %q: %w", name, err)
		}
		return name, nil
	}
	kbenchRun := func(n int64) (sample, error) {
		topic, err := newTopic()
		if err != nil {
			return sample{}, err
		}
		args := append([]string{"produce", "--topic", topic, "--timestamp-header=false"}, common(n)...)
		args = append(append(args, "--producer-props"), props...)
		return measure(exec.CommandContext(ctx, kbenchBin, args...))
	}
	kafkaRun := func(n int64) (sample, error) {
		topic, err := newTopic()
		if err != nil {
			return sample{}, err
		}
		args := append([]string{"--topic", topic}, common(n)...)
		args = append(append(args, "--producer-props"), props...)
		return measure(kafka.Command(ctx, "org.apache.kafka.tools.ProducerPerformance", args...))
	}

	fmt.Printf("warming the brokers with %d records (each tool, unmeasured)\n", warmup)
	for _, f := range []func(int64) (sample, error){kbenchRun, kafkaRun} {
		if _, err := f(warmup); err != nil {
			return err
		}
	}
	fmt.Printf("%d records of 1024 bytes, acks=1, batch.size=16384, linger.ms=0, unthrottled, %d partitions, %d broker(s)\n",
		records, partitions, brokers)
	fmt.Printf("%-5s %14s %14s %8s %18s %18s %8s\n", "pair", "kbench rec/s", "kafka rec/s", "ratio", "kbench CPU-s/1e6", "kafka CPU-s/1e6", "ratio")
	var rateRatios, cpuRatios []float64
	for i := 0; i < pairs; i++ {
		// Alternate the order so that drift in the brokers favours neither tool.
		first, second := kbenchRun, kafkaRun
		if i%2 == 1 {
			first, second = kafkaRun, kbenchRun
		}
		a, err := first(records)
		if err != nil {
			return err
		}
		b, err := second(records)
		if err != nil {
			return err
		}
		kb, kf := a, b
		if i%2 == 1 {
			kb, kf = b, a
		}
		rr, cr := kb.rate/kf.rate, kb.cpuPerMillion()/kf.cpuPerMillion()
		rateRatios, cpuRatios = append(rateRatios, rr), append(cpuRatios, cr)
		fmt.Printf("%-5d %14.0f %14.0f %8.2f %18.2f %18.2f %8.2f\n", i+1, kb.rate, kf.rate, rr, kb.cpuPerMillion(), kf.cpuPerMillion(), cr)
	}
	fmt.Printf("median records/s ratio (kbench/kafka): %.2f (target >= 1.0)\n", median(rateRatios))
	fmt.Printf("median client CPU per record ratio (kbench/kafka): %.2f (target <= 0.5)\n", median(cpuRatios))
	return nil
}

// measure runs one tool to completion and reads its summary line and CPU.
func measure(cmd *exec.Cmd) (sample, error) {
	var errBuf strings.Builder
	cmd.Stderr = &errBuf
	out, err := cmd.Output()
	if err != nil {
		return sample{}, fmt.Errorf("%s failed: %w: %s", cmd.Path, err, errBuf.String())
	}
	for _, l := range strings.Split(string(out), "\n") {
		m := totalLine.FindStringSubmatch(l)
		if m == nil || strings.Contains(l, "steady state") {
			continue
		}
		n, _ := strconv.ParseInt(m[1], 10, 64)
		r, _ := strconv.ParseFloat(m[2], 64)
		if n == 0 {
			continue
		}
		cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		if !strings.Contains(l, "max latency,") {
			continue // a window line
		}
		return sample{records: n, rate: r, cpu: cpu, line: l}, nil
	}
	return sample{}, errors.New("no summary line in the output of " + cmd.Path)
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
