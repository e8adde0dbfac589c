// The broker and host sampler: every interval, /proc and each broker's metrics endpoint.

package metrics

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"sync"
	"time"
)

// BrokerTarget is one broker to sample. A broker on this machine has a PID; a broker of an
// external cluster has only a MetricsURL. Either may be missing; the fields of the missing
// source are then absent from its rows. A broker with neither is not sampled at all (a
// cluster without a metrics endpoint is measured from the clients alone).
type BrokerTarget struct {
	// ID is the broker's node id.
	ID int
	// PID is the broker's process on this machine, read through /proc; 0 when remote.
	PID int
	// MetricsURL is the broker's Prometheus endpoint (the JMX exporter); "" when none.
	MetricsURL string
	// CPUAllotment is the CPU cores the broker may use (its quota, or "flavor"), which
	// FieldCPUPercent is relative to. 0 means the host's CPU count for a broker with a PID,
	// and no FieldCPUPercent for a remote one.
	CPUAllotment float64
	// Combined is true when the node runs broker and controller in one process (KRaft
	// combined mode), where Kafka marks RequestHandlerAvgIdlePercent from two pools.
	Combined bool
}

// HasSource reports whether the broker has anything to sample: a local process or a metrics
// endpoint.
func (b BrokerTarget) HasSource() bool { return b.PID > 0 || b.MetricsURL != "" }

// SamplerConfig configures a Sampler.
type SamplerConfig struct {
	// Proc is where the proc file system is mounted, "/proc" in production and a directory
	// of fixtures in tests. "" means no /proc: no host rows and no per-process fields.
	Proc string
	// Brokers are the brokers to sample.
	Brokers []BrokerTarget
	// Interval is the sampling period, overriding the default of one second.
	Interval time.Duration
	// HTTPClient scrapes the metrics endpoints, overriding the default client, whose timeout
	// is five intervals, at least five seconds.
	HTTPClient *http.Client
	// Cgroup is the cgroup file system (os.DirFS("/sys/fs/cgroup")); with Proc it gives the
	// host rows the CPU of kbench's own cgroup against its quota, when it has one. nil
	// means no cgroup fields.
	Cgroup fs.FS
	// PageSize is the size in bytes of the pages /proc/<pid>/stat counts RSS in, overriding
	// the default os.Getpagesize().
	PageSize int
}

// scrapeTimeoutFloor is the shortest time a metrics scrape is given.
const scrapeTimeoutFloor = 5 * time.Second

// validate checks the configuration and fills in defaults.
func (c *SamplerConfig) validate() error {
	if c.Interval == 0 {
		c.Interval = time.Second
	}
	if c.Interval < 10*time.Millisecond {
		return fmt.Errorf("sampling interval %s is shorter than the minimum 10ms", c.Interval)
	}
	if c.HTTPClient == nil {
		// A JMX exporter scrape walks every MBean and can take longer than one interval on a
		// busy host (its first scrape most of all); a scrape cut at the interval loses the
		// row. Rates divide by the time between completed scrapes, so a slow scrape only
		// makes its row longer.
		c.HTTPClient = &http.Client{Timeout: max(5*c.Interval, scrapeTimeoutFloor)}
	}
	if c.PageSize == 0 {
		c.PageSize = os.Getpagesize()
	}
	if c.PageSize < 0 {
		return fmt.Errorf("page size %d is negative", c.PageSize)
	}
	seen := map[int]bool{}
	for _, b := range c.Brokers {
		if seen[b.ID] {
			return fmt.Errorf("broker %d is listed twice", b.ID)
		}
		seen[b.ID] = true
		if b.PID < 0 {
			return fmt.Errorf("broker %d: pid %d is negative", b.ID, b.PID)
		}
		if b.PID > 0 && c.Proc == "" {
			return fmt.Errorf("broker %d has pid %d but the sampler has no /proc", b.ID, b.PID)
		}
		if b.CPUAllotment < 0 {
			return fmt.Errorf("broker %d: cpu allotment %g is negative", b.ID, b.CPUAllotment)
		}
	}
	return nil
}

// Sampler records a Series: Start it, run the load, then Stop it (or take Snapshots along the
// way). It is safe for concurrent use.
type Sampler struct {
	cfg   SamplerConfig
	clock func() time.Time

	// Owned by the sampling goroutine.
	brokers []*brokerState
	host    *hostReading
	hostAt  time.Time
	// self is kbench's own cgroup when it has a CPU quota (Quota > 0).
	self CgroupCPU
	// proc reads cfg.Proc; ok is false without one.
	proc   procDir
	procOK bool

	mu     sync.Mutex
	series Series
	cancel context.CancelFunc
	done   chan struct{}
}

// brokerState is the previous reading of one broker, which the next one is compared with.
type brokerState struct {
	target    BrokerTarget
	allotment float64
	proc      *procReading
	// procPrevAt is when the reading before proc was taken (zero before the second reading).
	procPrevAt time.Time
	prom       promValues
	promAt     time.Time
}

// procReading is one read of a broker's /proc files.
type procReading struct {
	at   time.Time
	stat procStat
	io   *procIO
}

// NewSampler returns a sampler for cfg, or an error naming the invalid setting.
func NewSampler(cfg SamplerConfig) (*Sampler, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("invalid sampler configuration: %w", err)
	}
	s := &Sampler{cfg: cfg, clock: time.Now}
	if cfg.Proc != "" {
		proc, err := openProc(cfg.Proc)
		if err != nil {
			return nil, err
		}
		s.proc, s.procOK = proc, true
	}
	if cfg.Proc != "" && cfg.Cgroup != nil {
		// Without a readable cgroup the host rows keep the machine's view only.
		s.self, _ = ReadCgroupCPU(cfg.Proc, cfg.Cgroup, "self")
	}
	s.series = Series{Version: SeriesVersion, IntervalSeconds: cfg.Interval.Seconds()}
	for _, b := range cfg.Brokers {
		if !b.HasSource() {
			continue
		}
		allotment := b.CPUAllotment
		if allotment == 0 && b.PID > 0 {
			allotment = hostCPUs(cfg.Proc)
		}
		s.brokers = append(s.brokers, &brokerState{target: b, allotment: allotment})
		s.series.Brokers = append(s.series.Brokers, BrokerSeries{ID: b.ID, CPUAllotment: allotment})
	}
	return s, nil
}

// Start takes a first reading at once (rows begin one interval later) and then samples every
// interval until ctx ends or Stop is called. Starting a started sampler does nothing.
func (s *Sampler) Start(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done != nil {
		return
	}
	ctx, s.cancel = context.WithCancel(ctx)
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		s.sample(ctx)
		t := time.NewTicker(s.cfg.Interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				s.sample(ctx)
			}
		}
	}()
}

// MaxRowDelay is the longest after a moment until every source has a row covering it: the
// interval to the next reading, and that reading's scrapes at their timeout.
func (s *Sampler) MaxRowDelay() time.Duration {
	timeout := s.cfg.HTTPClient.Timeout
	if timeout <= 0 {
		timeout = scrapeTimeoutFloor
	}
	return s.cfg.Interval + timeout
}

// Stop ends sampling and returns the series recorded. It may be called more than once.
func (s *Sampler) Stop() Series {
	s.mu.Lock()
	cancel, done := s.cancel, s.done
	s.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	return s.Snapshot()
}

// Snapshot returns a copy of the series recorded so far.
func (s *Sampler) Snapshot() Series {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.series.clone()
}

// sample takes one reading of every broker (concurrently, since a scrape may wait on the
// network) and of the host, and appends a row for each that has a previous reading.
func (s *Sampler) sample(ctx context.Context) {
	now := s.clock()
	rows := make([]*Row, len(s.brokers))
	errs := make([]error, len(s.brokers))
	var wg sync.WaitGroup
	for i, b := range s.brokers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rows[i], errs[i] = s.sampleBroker(ctx, b, now)
		}()
	}
	hostRow, hostErr := s.sampleHost(now)
	wg.Wait()
	if ctx.Err() != nil {
		// Stop cut this reading short: its scrapes were cancelled, so its rows would lack
		// the brokers' metrics and count a failure that was not theirs.
		return
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.brokers {
		bs := &s.series.Brokers[i]
		if rows[i] != nil {
			bs.Rows = append(bs.Rows, *rows[i])
		}
		if errs[i] != nil {
			bs.Errors++
			bs.LastError = errs[i].Error()
		}
	}
	if hostRow != nil {
		s.series.Host = append(s.series.Host, *hostRow)
	}
	if hostErr != nil {
		s.series.HostErrors++
		s.series.HostLastError = hostErr.Error()
	}
}

// sampleBroker reads one broker's sources and returns the row of the interval that ends now,
// or nil for the first reading. The row lacks the fields of any source that failed.
func (s *Sampler) sampleBroker(ctx context.Context, b *brokerState, now time.Time) (*Row, error) {
	var errs []error
	row := newRow(now)
	hasPrev := false

	if b.target.PID > 0 {
		cur, err := s.readProc(b.target.PID)
		if err != nil {
			errs = append(errs, err)
		} else {
			if b.proc != nil {
				hasPrev = true
				b.procPrevAt = b.proc.at
				row.From = b.proc.at
				procFields(*b.proc, cur, b.allotment, s.cfg.PageSize, row)
			}
			b.proc = &cur
		}
	}

	if b.target.MetricsURL != "" {
		cur, err := scrapePrometheus(ctx, s.cfg.HTTPClient, b.target.MetricsURL)
		// The counters' deltas are divided by the row's own interval (now since the previous
		// reading's now), not by the time between scrape completions: a scrape that took
		// seconds would otherwise give one row a tiny rate and the next a huge one, while
		// dividing by the row's interval keeps every row's rate x interval equal to the
		// counters' change, so the rows add up exactly to what the brokers counted.
		at := now
		if err != nil {
			errs = append(errs, fmt.Errorf("broker %d: %w", b.target.ID, err))
		} else {
			if b.prom != nil {
				hasPrev = true
				if row.From.IsZero() || b.promAt.Before(row.From) {
					row.From = b.promAt
				}
				dt := at.Sub(b.promAt).Seconds()
				pools := 1
				if b.target.Combined {
					pools = 2
				}
				kafkaFields(b.prom, cur, dt, pools, row)
				if b.target.PID == 0 {
					remoteProcessFields(b.prom, cur, dt, b.allotment, row)
				}
			}
			b.prom, b.promAt = cur, at
		}
	}

	if !hasPrev {
		return nil, errors.Join(errs...)
	}
	return &row, errors.Join(errs...)
}

// readProc reads a broker's /proc files. The io file may be unreadable (it needs the
// process's owner or CAP_SYS_PTRACE); the disk fields are then absent.
func (s *Sampler) readProc(pid int) (procReading, error) {
	st, err := readProcStat(s.proc, pid)
	if err != nil {
		return procReading{}, err
	}
	r := procReading{at: s.clock(), stat: st}
	if io, err := readProcIO(s.proc, pid); err == nil {
		r.io = &io
	}
	return r, nil
}

// hostCPUs returns the online CPU count from the stat file of the proc file system mounted
// at proc, or 0 when it cannot be read.
func hostCPUs(proc string) float64 {
	dir, err := openProc(proc)
	if err != nil {
		return 0
	}
	t, err := readCPUTimes(dir)
	if err != nil {
		return 0
	}
	return float64(t.CPUs)
}

// procFields sets the fields of two /proc readings of a process.
func procFields(prev, cur procReading, allotment float64, pageSize int, r Row) {
	dt := cur.at.Sub(prev.at).Seconds()
	if dt > 0 && cur.stat.CPUTicks >= prev.stat.CPUTicks {
		cores := float64(cur.stat.CPUTicks-prev.stat.CPUTicks) / userHZ / dt
		r.set(FieldCPUCores, cores)
		if allotment > 0 {
			r.set(FieldCPUPercent, cores/allotment*100)
		}
	}
	r.set(FieldRSSBytes, float64(cur.stat.RSSPages)*float64(pageSize))
	r.set(FieldThreads, float64(cur.stat.Threads))
	if dt > 0 && prev.io != nil && cur.io != nil {
		if cur.io.ReadBytes >= prev.io.ReadBytes {
			r.set(FieldDiskReadBytesSec, float64(cur.io.ReadBytes-prev.io.ReadBytes)/dt)
		}
		if cur.io.WriteBytes >= prev.io.WriteBytes {
			r.set(FieldDiskWriteBytesSec, float64(cur.io.WriteBytes-prev.io.WriteBytes)/dt)
		}
	}
}

// remoteProcessFields fills the CPU and RSS fields of a broker without a PID from its
// exporter's process metrics, so remote brokers have the same columns as local ones.
func remoteProcessFields(prev, cur promValues, dt, allotment float64, r Row) {
	a, ok1 := prev.sum(promCPUSecondsKey)
	b, ok2 := cur.sum(promCPUSecondsKey)
	if ok1 && ok2 && b >= a && dt > 0 {
		cores := (b - a) / dt
		r.set(FieldCPUCores, cores)
		if allotment > 0 {
			r.set(FieldCPUPercent, cores/allotment*100)
		}
	}
	if rss, ok := cur.sum(promRSSKey); ok {
		r.set(FieldRSSBytes, rss)
	}
}

// sampleHost reads the host files and returns the row of the interval that ends now, or nil
// for the first reading or without /proc.
func (s *Sampler) sampleHost(now time.Time) (*Row, error) {
	if !s.procOK {
		return nil, nil
	}
	cur, err := readHost(s.proc)
	if s.self.Quota > 0 {
		usage, uerr := ReadCgroupUsage(s.cfg.Proc, s.cfg.Cgroup, s.self.Version, s.self.QuotaPath)
		if uerr == nil {
			cur.cgroupCPU, cur.have["cgroup"] = usage, true
		}
		err = errors.Join(err, uerr)
	}
	at := s.clock()
	if len(cur.have) == 0 {
		return nil, err
	}
	prev, prevAt := s.host, s.hostAt
	s.host, s.hostAt = &cur, at
	if prev == nil {
		return nil, err
	}
	row := newRow(now)
	row.From = prevAt
	dt := at.Sub(prevAt).Seconds()
	hostFields(*prev, cur, dt, row)
	if dt > 0 && prev.have["cgroup"] && cur.have["cgroup"] && cur.cgroupCPU >= prev.cgroupCPU {
		cores := (cur.cgroupCPU - prev.cgroupCPU) / dt
		row.set(FieldHostCgroupCPUCores, cores)
		row.set(FieldHostCgroupCPUBusyPct, cores/s.self.Quota*100)
		row.set(FieldHostCgroupCPUQuota, s.self.Quota)
	}
	return &row, err
}

// hostFields sets the fields of two host readings dt seconds apart.
func hostFields(prev, cur hostReading, dt float64, r Row) {
	both := func(part string) bool { return prev.have[part] && cur.have[part] }
	if both("stat") && cur.cpu.Total > prev.cpu.Total {
		total := float64(cur.cpu.Total - prev.cpu.Total)
		iowait := float64(cur.cpu.IOWait - prev.cpu.IOWait)
		// Stolen time is neither this machine's work nor idle: it is its own field.
		if pct, ok := cur.cpu.host().StealPctSince(prev.cpu.host()); ok {
			r.set(FieldHostCPUStealPct, pct)
		}
		// As floats: a counter that went back must not wrap around.
		r.set(FieldHostCPUBusyPct, (float64(cur.cpu.busy())-float64(prev.cpu.busy()))/total*100)
		r.set(FieldHostCPUIOWaitPct, iowait/total*100)
	}
	if dt > 0 && both("diskstats") {
		if cur.disk.ReadBytes >= prev.disk.ReadBytes {
			r.set(FieldHostDiskReadBytesSec, float64(cur.disk.ReadBytes-prev.disk.ReadBytes)/dt)
		}
		if cur.disk.WriteBytes >= prev.disk.WriteBytes {
			r.set(FieldHostDiskWriteBytesSec, float64(cur.disk.WriteBytes-prev.disk.WriteBytes)/dt)
		}
		util, any := 0.0, false
		for name, busy := range cur.disk.IOTicks {
			was, ok := prev.disk.IOTicks[name]
			if !ok || busy < was {
				continue
			}
			// io_ticks is in milliseconds; as iostat does, a disk is at most 100% busy.
			util, any = max(util, min(float64(busy-was)/(dt*1000)*100, 100)), true
		}
		if any {
			r.set(FieldHostDiskUtilPct, util)
		}
	}
	if dt > 0 && both("net/dev") {
		if cur.net.RxBytes >= prev.net.RxBytes {
			r.set(FieldHostNetRxBytesSec, float64(cur.net.RxBytes-prev.net.RxBytes)/dt)
		}
		if cur.net.TxBytes >= prev.net.TxBytes {
			r.set(FieldHostNetTxBytesSec, float64(cur.net.TxBytes-prev.net.TxBytes)/dt)
		}
		if cur.net.LoopbackBytes >= prev.net.LoopbackBytes {
			r.set(FieldHostLoopbackBytesSec, float64(cur.net.LoopbackBytes-prev.net.LoopbackBytes)/dt)
		}
	}
	if cur.have["meminfo"] {
		r.set(FieldHostPageCacheBytes, float64(cur.mem.Cached))
		r.set(FieldHostDirtyBytes, float64(cur.mem.Dirty))
		if cur.mem.Available > 0 {
			r.set(FieldHostMemAvailableBytes, float64(cur.mem.Available))
		}
	}
	if cur.have["loadavg"] {
		r.set(FieldHostLoad1, cur.load[0])
		r.set(FieldHostLoad5, cur.load[1])
		r.set(FieldHostLoad15, cur.load[2])
	}
}
