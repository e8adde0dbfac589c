package load

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/metrics"
	kbsettings "github.com/kbench/kbench/internal/settings"
)

// ShareAck is how share consumers acknowledge the records they keep.
type ShareAck string

// The acknowledgement modes, as Java's share.acknowledgement.mode names them.
const (
	// ShareAckImplicit accepts a poll's records with the next poll, one acknowledgement per
	// poll.
	ShareAckImplicit ShareAck = "implicit"
	// ShareAckExplicit acknowledges each record as it is processed.
	ShareAckExplicit ShareAck = "explicit"
)

// ShareConfig describes one run of share consumers (KIP-932): consumers of one share group,
// any number of them whatever the partition count, each delivery acknowledged.
type ShareConfig struct {
	// Bootstrap is the comma-separated broker list; it overrides bootstrap.servers.
	Bootstrap string
	Topics    []string
	// Group is the share group. One kbench creates (it did not exist) gets
	// share.auto.offset.reset (earliest, or latest with FromLatest) and is deleted at the end.
	Group      string
	FromLatest bool
	// Properties are Java consumer properties; those a share consumer does not take are
	// refused (settings.CheckShare).
	Properties map[string]string
	// Consumers is the number of share consumers (default 1).
	Consumers int
	// Records ends the run once this many distinct records were delivered and every record
	// the consumers released was delivered again; 0 means no limit.
	Records  int64
	Duration time.Duration
	// Timeout ends the run when no record arrived for this long (default 10 s).
	Timeout      time.Duration
	TickInterval time.Duration
	// Ack is the acknowledgement mode; default implicit, explicit when a share below is set.
	Ack ShareAck
	// Release and Reject are the shares of deliveries the consumers release (the broker
	// delivers them again) or reject (never delivered again), to model failing work.
	Release, Reject float64
	// Seed seeds each consumer's choice of what to release or reject (consumer i uses
	// Seed+i), so a run can be replayed.
	Seed uint64
}

// ShareResult is the outcome of ConsumeShare.
type ShareResult struct {
	Group           string `json:"share_group"`
	GroupCreated    bool   `json:"share_group_created"`
	Consumers       int    `json:"consumers"`
	Acknowledgement string `json:"acknowledgement"`
	// Delivered counts every delivery, Bytes their keys and values; Distinct the records
	// delivered at least once; Redelivered the deliveries with a delivery count above 1, of
	// which Unreleased were of records no consumer released (an acquisition lock expired, or
	// the holder's session ended).
	Delivered   int64 `json:"delivered"`
	Bytes       int64 `json:"bytes"`
	Distinct    int64 `json:"distinct"`
	Redelivered int64 `json:"redelivered"`
	Unreleased  int64 `json:"redelivered_unreleased"`
	// RedeliveredShare is Redelivered / Delivered.
	RedeliveredShare float64 `json:"redelivered_share"`
	MaxDeliveryCount int32   `json:"max_delivery_count"`
	// Accepted, Released and Rejected count the acknowledgements by kind.
	Accepted int64 `json:"accepted"`
	Released int64 `json:"released"`
	Rejected int64 `json:"rejected"`

	Start          time.Time `json:"start"`
	End            time.Time `json:"end"`
	ElapsedSeconds float64   `json:"elapsed_seconds"`
	// RecordsPerSec and MiBPerSec are deliveries over the run.
	RecordsPerSec float64 `json:"records_per_sec"`
	MiBPerSec     float64 `json:"mib_per_sec"`
	// EndToEnd is the latency from produce to delivery, as ConsumeResult's.
	EndToEnd          metrics.LatencySummary `json:"end_to_end_latency"`
	EndToEndHistogram *metrics.Histogram     `json:"end_to_end_histogram"`
	EndToEndSource    string                 `json:"end_to_end_source,omitempty"`
	TimedOut          bool                   `json:"timed_out,omitempty"`
	Errors            map[string]int64       `json:"errors,omitempty"`
	CPU               ClientCPU              `json:"client_cpu"`
	Settings          map[string]string      `json:"settings"`
	Warnings          []string               `json:"warnings,omitempty"`
	Interrupted       bool                   `json:"interrupted,omitempty"`
}

func (c ShareConfig) withDefaults() ShareConfig {
	if c.Consumers == 0 {
		c.Consumers = 1
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultConsumeTimeout
	}
	if c.TickInterval == 0 {
		c.TickInterval = DefaultTickInterval
	}
	if c.Ack == "" {
		c.Ack = ShareAckImplicit
		if c.Release > 0 || c.Reject > 0 {
			c.Ack = ShareAckExplicit
		}
	}
	return c
}

func (c *ShareConfig) validate() error {
	var errs []error
	if len(c.Topics) == 0 {
		errs = append(errs, errors.New("a topic is required"))
	}
	if c.Group == "" {
		errs = append(errs, errors.New("a share group is required"))
	}
	if c.Consumers < 1 {
		errs = append(errs, fmt.Errorf("consumers %d is less than 1", c.Consumers))
	}
	if c.Ack != ShareAckImplicit && c.Ack != ShareAckExplicit {
		errs = append(errs, fmt.Errorf("acknowledgement %q is not valid (valid: implicit, explicit)", c.Ack))
	}
	if c.Release < 0 || c.Reject < 0 || c.Release+c.Reject >= 1 {
		errs = append(errs, fmt.Errorf("release share %g and reject share %g must be at least 0 and add up to less than 1", c.Release, c.Reject))
	}
	if c.Ack == ShareAckImplicit && (c.Release > 0 || c.Reject > 0) {
		// As Java's implicit mode refuses acknowledge calls.
		errs = append(errs, errors.New("releasing or rejecting records needs explicit acknowledgement"))
	}
	if c.Records < 0 || c.Timeout < 0 {
		errs = append(errs, errors.New("records and timeout must not be negative"))
	}
	if err := kbsettings.CheckShare(c.Properties); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// shareDeliveryLimit is Kafka's default group.share.delivery.count.limit: a record released
// at its fifth delivery is archived, not delivered again.
const shareDeliveryLimit = 5

// shareConsumer is one share consumer and its counts.
type shareConsumer struct {
	cl                                    *kgo.Client
	rng                                   *rand.Rand
	delivered, bytes, redelivered         atomic.Int64
	accepted, released, rejected          atomic.Int64
	unreleased, headers, stamps, maxDeliv atomic.Int64
	e2e                                   *metrics.Recorder
	errMu                                 sync.Mutex
	errs                                  map[string]int64
}

// ConsumeShare runs cfg and returns its result; tick, if not nil, is called every
// TickInterval with the deliveries (Records and Bytes count deliveries, redeliveries
// included). It ends when Records distinct records came and no release is outstanding,
// Duration passed, no record came for Timeout, or ctx is cancelled.
func ConsumeShare(ctx context.Context, cfg ShareConfig, tick func(ConsumeTick)) (res *ShareResult, err error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("invalid share consumer configuration: %w", err)
	}
	settings, seeds, err := clientSettings(kbsettings.Consumer, cfg.Properties, cfg.Bootstrap)
	if err != nil {
		return nil, err
	}
	// Recorded settings are those in force: a share consumer takes none of the group ones.
	maps.DeleteFunc(settings.Effective, func(k, _ string) bool { return kbsettings.NotShare(k) })
	settings.Effective["share.acknowledgement.mode"] = string(cfg.Ack)

	conn, err := kafka.Connect(cfg.Bootstrap, cfg.Properties)
	if err != nil {
		return nil, err
	}
	admin, err := conn.NewClient("share-admin")
	if err != nil {
		return nil, err
	}
	defer admin.Close()
	groupConfigs, created, err := prepareShareGroup(ctx, admin, cfg)
	if err != nil {
		return nil, err
	}
	if created {
		defer func() {
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			if derr := kafka.DeleteShareGroup(dctx, admin, cfg.Group, groupConfigs); derr != nil && res != nil {
				res.Warnings = append(res.Warnings, derr.Error())
			}
		}()
	}

	recs := make([]*metrics.Recorder, max(1, min(cfg.Consumers, runtime.GOMAXPROCS(0))))
	for i := range recs {
		recs[i] = metrics.NewRecorder()
	}
	consumers := make([]*shareConsumer, cfg.Consumers)
	for i := range consumers {
		opts := append([]kgo.Opt{kgo.SeedBrokers(seeds...), kgo.ClientID("kbench-share-consumer-" + strconv.Itoa(i)),
			kgo.ConsumeTopics(cfg.Topics...), kgo.ShareGroup(cfg.Group)}, settings.Opts...)
		cl, err := kgo.NewClient(opts...)
		if err != nil {
			closeShareConsumers(consumers[:i], cfg.Ack)
			return nil, fmt.Errorf("unable to create share consumer client: %w", err)
		}
		consumers[i] = &shareConsumer{cl: cl, rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i))), e2e: recs[i%len(recs)],
			errs: map[string]int64{}}
	}

	cpu0 := ProcessCPU()
	start := time.Now()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if cfg.Duration > 0 {
		var c2 context.CancelFunc
		runCtx, c2 = context.WithDeadline(runCtx, start.Add(cfg.Duration))
		defer c2()
	}
	seen := newShareSeen()
	var lastRecord atomic.Int64 // ns since start
	var wg sync.WaitGroup
	for _, c := range consumers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.poll(runCtx, &cfg, seen, start, &lastRecord, cancel)
		}()
	}
	e2eM := metrics.NewMerger(recs...)
	var timedOut bool
	endCh := make(chan time.Time, 1)
	go func() {
		soFar := func() (records, bytes int64, _ time.Duration) {
			for _, c := range consumers {
				records += c.delivered.Load()
				bytes += c.bytes.Load()
			}
			return records, bytes, 0
		}
		endCh <- consumeTicks(runCtx, soFar, e2eM, cfg.TickInterval, cfg.Timeout, start, &lastRecord, &timedOut, cancel, tick)
	}()
	wg.Wait()
	cancel()
	end := <-endCh
	// Every consumer stopped polling before any leaves, so that records one releases while
	// leaving are not delivered to another and counted.
	closeShareConsumers(consumers, cfg.Ack)
	cpu := ProcessCPU().sub(cpu0)

	res = &ShareResult{Group: cfg.Group, GroupCreated: created, Consumers: cfg.Consumers, Acknowledgement: string(cfg.Ack),
		Start: start, End: end, TimedOut: timedOut, Errors: map[string]int64{}, Settings: settings.Effective,
		Warnings: settings.Warnings, Interrupted: ctx.Err() != nil, Distinct: seen.distinct.Load()}
	var headers, stamps int64
	for _, c := range consumers {
		res.Delivered += c.delivered.Load()
		res.Bytes += c.bytes.Load()
		res.Redelivered += c.redelivered.Load()
		res.Unreleased += c.unreleased.Load()
		res.Accepted += c.accepted.Load()
		res.Released += c.released.Load()
		res.Rejected += c.rejected.Load()
		res.MaxDeliveryCount = max(res.MaxDeliveryCount, int32(c.maxDeliv.Load()))
		headers += c.headers.Load()
		stamps += c.stamps.Load()
		for k, v := range c.errs {
			res.Errors[k] += v
		}
	}
	_, e2e := e2eM.Tick()
	res.EndToEndHistogram = e2e.Clone()
	res.EndToEnd = e2e.Summary()
	switch {
	case headers > 0 && stamps == 0:
		res.EndToEndSource = "header"
	case stamps > 0:
		res.EndToEndSource = "timestamp"
	}
	res.ElapsedSeconds = end.Sub(start).Seconds()
	if res.ElapsedSeconds > 0 {
		res.RecordsPerSec = float64(res.Delivered) / res.ElapsedSeconds
		res.MiBPerSec = float64(res.Bytes) / (1024 * 1024) / res.ElapsedSeconds
	}
	if res.Delivered > 0 {
		res.RedeliveredShare = float64(res.Redelivered) / float64(res.Delivered)
	}
	res.CPU = clientCPU(cpu, res.Delivered)
	return res, nil
}

// prepareShareGroup checks the brokers serve share groups and, when cfg's group is new,
// sets where it starts. It returns the configs it set and whether kbench created the group.
func prepareShareGroup(ctx context.Context, admin *kgo.Client, cfg ShareConfig) (map[string]string, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	adm := kadm.NewClient(admin)
	if err := kafka.CheckShareGroups(ctx, adm); err != nil {
		return nil, false, err
	}
	exists, err := kafka.ShareGroupExists(ctx, adm, cfg.Group)
	if err != nil || exists {
		return nil, false, err
	}
	reset := "earliest"
	if cfg.FromLatest {
		reset = "latest"
	}
	configs := map[string]string{"share.auto.offset.reset": reset}
	if err := kafka.SetShareGroupConfigs(ctx, admin, cfg.Group, configs); err != nil {
		return nil, false, err
	}
	return configs, true, nil
}

// poll receives and acknowledges deliveries until ctx ends, and ends the run once Records
// distinct records came and no release is outstanding.
func (c *shareConsumer) poll(ctx context.Context, cfg *ShareConfig, seen *shareSeen, start time.Time, lastRecord *atomic.Int64, stop context.CancelFunc) {
	var batch []shareDelivery
	for ctx.Err() == nil {
		fetches := c.cl.PollFetches(ctx)
		if fetches.IsClientClosed() {
			return
		}
		now := time.Now()
		fetches.EachError(func(topic string, p int32, err error) {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return
			}
			c.errMu.Lock()
			c.errs[fmt.Sprintf("%s[%d]: %v", topic, p, err)]++
			c.errMu.Unlock()
		})
		batch = batch[:0]
		var n, b, redelivered int64
		fetches.EachRecord(func(r *kgo.Record) {
			n++
			b += int64(len(r.Key) + len(r.Value))
			count := r.DeliveryCount()
			if count > 1 {
				redelivered++
			}
			if int64(count) > c.maxDeliv.Load() {
				c.maxDeliv.Store(int64(count))
			}
			if ts, ok := headerTimestamp(r); ok {
				c.headers.Add(1)
				c.e2e.Record(time.Duration(now.UnixMicro()-ts) * time.Microsecond)
			} else if !r.Timestamp.IsZero() && r.Attrs.TimestampType() == 0 {
				c.stamps.Add(1)
				c.e2e.Record(now.Sub(r.Timestamp))
			}
			d := shareDelivery{topic: r.Topic, partition: r.Partition, offset: r.Offset, count: count}
			switch u := c.rng.Float64(); {
			case u < cfg.Release:
				r.Ack(kgo.AckRelease)
				c.released.Add(1)
				// The broker archives a record at its delivery limit instead of delivering
				// it again: the run must not wait for it.
				d.released = count < shareDeliveryLimit
			case u < cfg.Release+cfg.Reject:
				r.Ack(kgo.AckReject)
				c.rejected.Add(1)
			default:
				if cfg.Ack == ShareAckExplicit {
					r.Ack(kgo.AckAccept)
				} // else accepted by the next poll
				c.accepted.Add(1)
			}
			batch = append(batch, d)
		})
		if n == 0 {
			continue
		}
		c.unreleased.Add(seen.add(batch))
		c.delivered.Add(n)
		c.bytes.Add(b)
		c.redelivered.Add(redelivered)
		lastRecord.Store(int64(now.Sub(start)))
		if cfg.Records > 0 && seen.distinct.Load() >= cfg.Records && seen.pending.Load() <= 0 {
			stop()
		}
	}
}

// closeShareConsumers acknowledges what the last poll left pending (implicit mode accepts
// it, as a next poll would), sends every acknowledgement, and leaves the group, all within
// leaveTimeout: a share consumer that closes with records unacknowledged releases them.
func closeShareConsumers(consumers []*shareConsumer, ack ShareAck) {
	ctx, cancel := context.WithTimeout(context.Background(), leaveTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, c := range consumers {
		if c == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if ack == ShareAckImplicit {
				c.cl.MarkAcks(kgo.AckAccept)
			}
			_ = c.cl.FlushAcks(ctx)
			_ = c.cl.LeaveGroupContext(ctx)
			c.cl.Close()
		}()
	}
	wg.Wait()
}
