package main

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// scaleOptions are the scale section's: many producers in one process at a paced rate.
type scaleOptions struct {
	producers string // comma-separated counts
	rate      int
	duration  time.Duration
	rounds    int
	only      bool
}

func (s *scaleOptions) flags() {
	flag.StringVar(&s.producers, "scale-producers", "100,1000", "producer counts of the scale section (comma-separated)")
	flag.IntVar(&s.rate, "scale-rate", 5000, "records/s in total of the scale section (one the cluster sustains)")
	flag.DurationVar(&s.duration, "scale-duration", 20*time.Second, "length of each scale run")
	flag.IntVar(&s.rounds, "scale-rounds", 1, "kbench/bare rounds at each producer count")
	flag.BoolVar(&s.only, "scale-only", false, "run the scale section only")
}

// rssLimit is the peak RSS 1,000 producers must stay under.
const rssLimit = 512 << 20

// scaleSection runs kbench and the bare producer with each producer count at the same paced
// rate: whether the rate holds, the peak RSS, and CPU per record without opening the clients.
func (b *bench) scaleSection() error {
	o := b.o.scale
	var counts []int
	for _, f := range strings.Split(o.producers, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("invalid -scale-producers %q: want positive counts separated by commas", o.producers)
		}
		counts = append(counts, n)
	}
	props := []string{"acks=1", "batch.size=16384", "linger.ms=0"}
	records := int64(float64(o.rate) * o.duration.Seconds())
	fmt.Printf("\nscale: %d records of 1024 bytes at %d records/s (%s), acks=1, batch.size=16384, linger.ms=0, %s producers in one process\n",
		records, o.rate, o.duration, strings.Join(strings.Fields(o.producers), ""))
	fmt.Printf("achieved: kbench's window lines after the first (the paced steady state); the bare producer's acknowledged / its whole run,\n")
	fmt.Printf("  which reads high by one record interval (N/rate s: the last records are due then, not at the end) and low by their latency\n")
	fmt.Printf("CPU: user+system per million records less a run of one record per producer (start-up: N clients opened, connected, closed)\n")
	fmt.Printf("peak RSS: getrusage ru_maxrss (the process's VmHWM)\n")
	fmt.Printf("%-9s %-7s %9s %9s %7s %13s %13s %13s\n", "producers", "tool", "offered", "achieved", "dev %", "peak RSS MiB", "start-up CPU", "CPU-s/1e6")
	type ratio struct{ n, rss, cpu float64 }
	var ratios []ratio
	for _, n := range counts {
		start := map[string]time.Duration{}
		for _, tool := range []string{"kbench", "bare"} {
			s, err := b.runAs(tool, int64(n), -1, props, false, n)
			if err != nil {
				return err
			}
			start[tool] = s.cpu
		}
		for i := range o.rounds {
			got, err := rotate(i, []string{"kbench", "bare"}, func(tool string) (sample, error) {
				return b.runAs(tool, records, o.rate, props, false, n)
			})
			if err != nil {
				return err
			}
			for _, tool := range []string{"kbench", "bare"} {
				s := got[tool]
				rate := s.rate
				if tool == "kbench" {
					rate = steadyOrTotal(s)
				}
				fmt.Printf("%-9d %-7s %9d %9.0f %+7.2f %13.1f %13.2f %13.2f\n", n, tool, o.rate, rate,
					(rate/float64(o.rate)-1)*100, float64(s.peakRSS)/(1<<20), start[tool].Seconds(), s.cpuPerMillion(start[tool]))
			}
			kb, bare := got["kbench"], got["bare"]
			ratios = append(ratios, ratio{float64(n), float64(kb.peakRSS) / float64(bare.peakRSS),
				kb.cpuPerMillion(start["kbench"]) / bare.cpuPerMillion(start["bare"])})
			if n >= 1000 && kb.peakRSS >= rssLimit {
				fmt.Printf("kbench with %d producers: peak RSS %.0f MiB, over the %d MiB limit\n", n, float64(kb.peakRSS)/(1<<20), rssLimit>>20)
			}
		}
	}
	fmt.Printf("kbench / bare franz-go, side by side:\n%-9s %10s %10s\n", "producers", "RSS", "CPU/record")
	for _, r := range ratios {
		fmt.Printf("%-9.0f %10.2f %10.2f\n", r.n, r.rss, r.cpu)
	}
	return nil
}
