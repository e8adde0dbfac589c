// Package capacityload runs a capacity search's trials and settle probes on a real cluster
// through a load.Driver; the search itself (internal/capacity) knows only their outcomes.
package capacityload

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
	"github.com/kbench/kbench/internal/settings"
)

// Load runs the trials of a search on a real cluster through a load.Driver (producers on
// this host, opened once, or on remote agents), and consumers, when asked, reading the
// topic in one group for the whole search so that a trial shows whether they keep up.
// Settle probes run on their own driver: on this host, light, whatever carries the load.
type Load struct {
	producers load.Driver
	probes    load.Driver
	warmup    time.Duration
	// elsewhere: the producers run on other hosts (agents), and the probes here.
	elsewhere bool
	// acked counts every record acknowledged so far; cons, when asked, are the consumers,
	// whose distinct records read are compared with it.
	acked int64
	cons  *load.ConsumerRun
}

// catchUp bounds the wait, after a trial, for consumers to read what it produced: records
// still unread then are backlog.
const catchUp = 2 * time.Second

// Start runs the search's trials on d and its probes on probes (d itself when nil)
// and, when consumers > 0, starts that many consumers in group on pcfg's topic, from the
// end of the log. Each trial is warmup plus its measured length. The caller must Close it,
// which closes both drivers.
func Start(ctx context.Context, d, probes load.Driver, pcfg load.ProducerConfig, consumers int, group string, warmup time.Duration) (*Load, error) {
	// Probes of their own are what a load on other hosts (agents) has; a load on this host
	// carries its probes itself.
	elsewhere := probes != nil
	if probes == nil {
		probes = d
	}
	l := &Load{producers: d, probes: probes, warmup: warmup, elsewhere: elsewhere}
	if consumers <= 0 {
		return l, nil
	}
	ccfg := load.ConsumerConfig{Bootstrap: pcfg.Bootstrap, Topics: []string{pcfg.Topic}, Group: group,
		Properties: settings.Connection(pcfg.Properties), Consumers: consumers, FromLatest: true,
		// The search pauses between trials; the consumers must not end for want of records.
		Timeout: 24 * time.Hour, TickInterval: 100 * time.Millisecond}
	l.cons = load.StartConsume(ctx, ccfg, nil)
	return l, nil
}

// The settle probe: light enough to add nothing a cluster under test would notice, long
// enough for a median over a few hundred acknowledgements.
const (
	ProbeRate   = 200 // records/s
	ProbeLength = time.Second
	// baselineProbes are the idle probes the baseline is the lowest of.
	baselineProbes = 3
)

// Probe is a capacity.ProbeFunc: ProbeLength at ProbeRate on the probe driver, to the search's topic.
func (l *Load) Probe(ctx context.Context) (capacity.Probe, error) {
	start := time.Now()
	res, err := l.probes.Trial(ctx, load.Schedule{Rate: ProbeRate, Duration: ProbeLength}, nil)
	if err != nil {
		return capacity.Probe{}, err
	}
	l.acked += res.Total.Acked
	p := capacity.Probe{Acked: res.Total.Acked, Elapsed: time.Since(start)}
	if res.Total.Failed+res.Unsent > 0 {
		return p, fmt.Errorf("%d of %d probe records failed or were not acknowledged", res.Total.Failed+res.Unsent, res.Sent+res.Unsent)
	}
	if h := res.Total.DueHistogram; h != nil && h.Count() > 0 {
		p.P50 = h.Quantile(0.5)
	}
	return p, ctx.Err()
}

// Settler measures the idle cluster's probe latency and returns the Settler that brings it
// back to it between trials, and the records the idle probes wrote.
func (l *Load) Settler(ctx context.Context) (*capacity.Settler, int64, error) {
	base, acked, err := capacity.MeasureBaseline(ctx, l.Probe, baselineProbes)
	if err != nil {
		return nil, acked, err
	}
	return &capacity.Settler{Probe: l.Probe, Baseline: base}, acked, nil
}

// Trial is a capacity.TrialFunc: warm-up, then d at rate (0: unthrottled), and with consumers the
// growth of their lag over the trial.
func (l *Load) Trial(ctx context.Context, rate float64, d time.Duration) (capacity.Outcome, error) {
	start := time.Now()
	lag0 := l.acked - l.consumed()
	cpu0, cpuErr := metrics.ReadHostCPU("/proc")
	disk0, diskErr := metrics.ReadHostDisk("/proc")
	dirty0, dirtyErr := metrics.ReadHostDirty("/proc")
	waited0, waitedErr := metrics.ReadHostCPUWaited("/proc")
	s := load.Schedule{Rate: rate, Duration: l.warmup + d, Warmup: l.warmup}
	res, err := l.producers.Trial(ctx, s, nil)
	if err != nil {
		return capacity.Outcome{}, err
	}
	o := FromProduce(res)
	o.HostDirtyAtStart, o.HostDirtyRead = dirty0, dirtyErr == nil
	if cpu1, err := metrics.ReadHostCPU("/proc"); cpuErr == nil && err == nil {
		o.HostStealPct, o.HostStealRead = cpu1.StealPctSince(cpu0)
		o.CPU.HostBusy, o.CPU.HostRead = cpu1.BusySince(cpu0)
		o.CPU.HostCPUs = cpu1.CPUs
	}
	if waited1, err := metrics.ReadHostCPUWaited("/proc"); waitedErr == nil && err == nil && waited1 >= waited0 {
		o.CPU.HostWaited, o.CPU.HostWaitedRead = waited1-waited0, true
	}
	o.CPU.Wall = time.Since(start)
	o.CPU.Load, o.CPU.LoadElsewhere = time.Duration(res.CPU.Seconds*float64(time.Second)), l.elsewhere
	if disk1, err := metrics.ReadHostDisk("/proc"); diskErr == nil && err == nil {
		o.HostDiskWriteWaitMs, o.HostDiskWritten, o.HostDiskRead = disk1.WriteWaitSince(disk0)
	}
	l.acked += res.Total.Acked
	if l.cons != nil {
		deadline := time.Now().Add(catchUp)
		for l.consumed() < l.acked && time.Now().Before(deadline) && ctx.Err() == nil {
			time.Sleep(50 * time.Millisecond)
		}
		o.ConsumerLagGrowth = max(0, l.acked-l.consumed()-lag0)
	}
	o.Elapsed = time.Since(start)
	if err := l.consumersFailed(); err != nil {
		return o, err
	}
	return o, ctx.Err()
}

// Close stops the consumers and closes the producers.
func (l *Load) Close() error {
	failed := l.consumersFailed()
	if l.cons != nil {
		l.cons.Stop()
		_, _ = l.cons.Wait() // stopped: only a failure before the stop counts
	}
	l.producers.Close()
	if l.probes != l.producers {
		l.probes.Close()
	}
	return failed
}

// consumed is the distinct records the consumers read so far (0 without consumers).
func (l *Load) consumed() int64 {
	if l.cons == nil {
		return 0
	}
	return l.cons.Read()
}

// consumersFailed is the error the consumers ended with, if they ended during the search:
// they read for its whole length (a day's idle timeout), so any end is a failure.
func (l *Load) consumersFailed() error {
	if l.cons == nil {
		return nil
	}
	select {
	case <-l.cons.Done():
	default:
		return nil
	}
	if _, err := l.cons.Wait(); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("consumers: %w", err)
	}
	return nil
}

// FromProduce takes a trial's outcome from its produce result: the steady state after the
// warm-up when there was one, else the whole trial.
func FromProduce(r *load.ProduceResult) capacity.Outcome {
	st := r.Total
	if r.Steady != nil {
		st = *r.Steady
	}
	achieved := st.RecordsPerSec
	if r.WindowRecordsPerSec > 0 {
		achieved = r.WindowRecordsPerSec
	}
	return capacity.Outcome{Achieved: achieved, Acked: st.Acked, Bytes: st.Bytes,
		Failed: r.Total.Failed, Unsent: r.Unsent, Latency: st.DueHistogram, SendLatency: st.SendHistogram,
		BlockedSends: r.BlockedSends, Sent: r.Sent + r.Unsent,
		Records: capacity.Records{Handed: r.Sent + r.Unsent, Acked: r.Total.Acked, Failed: r.Total.Failed, Unsent: r.Unsent}}
}
