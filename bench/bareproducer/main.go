// Command bareproducer is the floor kbench produce is measured against: franz-go producers
// with the same client settings (Java properties translated by the same catalogue), the same
// 1 KiB random A-Z payloads cut from one shared pool, and nothing else: no latency
// histograms, no due times, no warm-up or steady-state accounting, no progress lines. Its
// client CPU per record is what producing costs franz-go itself; kbench's excess over it is
// kbench's measurement overhead.
//
// With --throughput each producer sleeps until its next record's time (n / rate), the least an
// open-loop producer can do. It prints one JSON line: acknowledged, failed and records/s.
// It is run by bench/producecompare; it is a benchmark tool, not part of kbench.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/settings"
)

type options struct {
	bootstrap  string
	topic      string
	records    int64
	size       int
	producers  int
	throughput float64
	props      []string
}

func main() {
	var o options
	flag.StringVar(&o.bootstrap, "bootstrap-server", "", "bootstrap servers")
	flag.StringVar(&o.topic, "topic", "", "topic")
	flag.Int64Var(&o.records, "num-records", 0, "records in total, split between producers")
	flag.IntVar(&o.size, "record-size", 1024, "record value size in bytes")
	flag.IntVar(&o.producers, "producers", 1, "producer clients")
	flag.Float64Var(&o.throughput, "throughput", -1, "records/s in total (-1: unlimited)")
	flag.Parse()
	o.props = flag.Args() // Java properties, name=value
	if err := run(o); err != nil {
		fmt.Fprintf(os.Stderr, "bareproducer: %v\n", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.topic == "" || o.records <= 0 || o.producers <= 0 || o.size <= 0 {
		return fmt.Errorf("--topic, --num-records, --record-size and --producers are required")
	}
	props, err := load.ParsePropertyArgs(o.props)
	if err != nil {
		return err
	}
	st, err := load.ParseProperties(settings.Producer, props)
	if err != nil {
		return err
	}
	// The same pool kbench cuts random payloads from: 8 MiB of A-Z, a window per record.
	pool := make([]byte, max(8<<20, 64*o.size)+o.size)
	r := rand.New(rand.NewPCG(0, 0x9e3779b97f4a7c15))
	for i := range pool {
		pool[i] = byte(r.IntN(26) + 'A')
	}
	clients := make([]*kgo.Client, o.producers)
	for i := range clients {
		opts := append([]kgo.Opt{kgo.SeedBrokers(strings.Split(o.bootstrap, ",")...),
			kgo.ClientID(fmt.Sprintf("bare-producer-%d", i)), kgo.AllowAutoTopicCreation()}, st.Opts...)
		if clients[i], err = kgo.NewClient(opts...); err != nil {
			return fmt.Errorf("unable to create producer client: %w", err)
		}
		defer clients[i].Close()
	}
	var acked, failed atomic.Int64
	promise := func(_ *kgo.Record, err error) {
		if err != nil {
			failed.Add(1)
			return
		}
		acked.Add(1)
	}
	start := time.Now()
	var wg sync.WaitGroup
	for i, cl := range clients {
		n := o.records / int64(o.producers)
		if int64(i) < o.records%int64(o.producers) {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			produce(cl, i, n, o.throughput/float64(o.producers), pool, o, promise)
		}()
	}
	wg.Wait()
	el := time.Since(start)
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"acked": acked.Load(), "failed": failed.Load(), "records_per_sec": float64(acked.Load()) / el.Seconds()})
}

// produce sends n records on cl, at rate records/s when rate > 0, and waits for them.
func produce(cl *kgo.Client, i int, n int64, rate float64, pool []byte, o options, promise func(*kgo.Record, error)) {
	rng := rand.New(rand.NewPCG(uint64(i), uint64(i)*0x9e3779b97f4a7c15+1))
	start := time.Now()
	ctx := context.Background()
	for k := range n {
		if rate > 0 {
			if wait := time.Duration(float64(k)/rate*float64(time.Second)) - time.Since(start); wait > 0 {
				time.Sleep(wait)
			}
		}
		off := rng.IntN(len(pool) - o.size + 1)
		// A record per send, as any franz-go application allocates one.
		cl.Produce(ctx, &kgo.Record{Topic: o.topic, Value: pool[off : off+o.size : off+o.size]}, promise)
	}
	_ = cl.Flush(ctx)
}
