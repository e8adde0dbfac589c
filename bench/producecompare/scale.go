package main

import (
	"flag"
	"fmt"
	"slices"
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
	flag.IntVar(&s.rounds, "scale-rounds", 3, "kbench/bare pairs at each producer count (alternating which runs first)")
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
	fmt.Printf("achieved: each tool's own accounting of its whole run (kbench --json total records/s: acknowledged over first send to last\n")
	fmt.Printf("  acknowledgement; the bare producer's acknowledged over its run, which reads high by one record interval and low by the latency)\n")
	fmt.Printf("CPU: user+system per million records less a run of one record per producer (start-up: N clients opened, connected, closed)\n")
	fmt.Printf("peak RSS: getrusage ru_maxrss (the process's VmHWM)\n")
	fmt.Printf("%-9s %-5s %-7s %9s %9s %7s %13s %13s %13s\n", "producers", "pair", "tool", "offered", "achieved", "dev %", "peak RSS MiB", "start-up CPU", "CPU-s/1e6")
	type ratios struct{ rss, cpu []float64 }
	byCount := map[int]*ratios{}
	for _, n := range counts {
		start := map[string]time.Duration{}
		for _, tool := range []string{"kbench", "bare"} {
			s, err := b.runAs(tool, int64(n), -1, props, false, n)
			if err != nil {
				return err
			}
			start[tool] = s.cpu
		}
		r := &ratios{}
		byCount[n] = r
		for i := range o.rounds {
			got, err := rotate(i, []string{"kbench", "bare"}, func(tool string) (sample, error) {
				return b.runAs(tool, records, o.rate, props, tool == "kbench", n)
			})
			if err != nil {
				return err
			}
			for _, tool := range []string{"kbench", "bare"} {
				s := got[tool]
				fmt.Printf("%-9d %-5d %-7s %9d %9.0f %+7.2f %13.1f %13.2f %13.2f\n", n, i+1, tool, o.rate, s.rate,
					(s.rate/float64(o.rate)-1)*100, float64(s.peakRSS)/(1<<20), start[tool].Seconds(), s.cpuPerMillion(start[tool]))
			}
			kb, bare := got["kbench"], got["bare"]
			r.rss = append(r.rss, float64(kb.peakRSS)/float64(bare.peakRSS))
			r.cpu = append(r.cpu, kb.cpuPerMillion(start["kbench"])/bare.cpuPerMillion(start["bare"]))
			if n >= 1000 && kb.peakRSS >= rssLimit {
				fmt.Printf("kbench with %d producers: peak RSS %.0f MiB, over the %d MiB limit\n", n, float64(kb.peakRSS)/(1<<20), rssLimit>>20)
			}
		}
	}
	fmt.Printf("kbench / bare franz-go, side by side: median [lowest-highest] of %d pairs (target: CPU/record <= 1.10)\n%-9s %18s %18s\n",
		o.rounds, "producers", "RSS", "CPU/record")
	for _, n := range counts {
		r := byCount[n]
		fmt.Printf("%-9d %18s %18s\n", n, spread(r.rss), spread(r.cpu))
	}
	return nil
}

// spread prints a median and the range of v, e.g. "1.04 [1.01-1.09]".
func spread(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f [%.2f-%.2f]", median(v), slices.Min(v), slices.Max(v))
}
