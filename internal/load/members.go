package load

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/rebalance"
)

// A consume run with membership events (ConsumerConfig.Events) changes its group while it
// runs and records what every member consumed when (rebalance.Log), so the figures of each
// event can be computed from the records alone.
//
// A kill must look to the group like a crashed process: no LeaveGroup (or leaving
// heartbeat), no further heartbeat, the member dropped only when its session times out.
// kgo's Close always leaves, and a consumer in a child process would need a second binary
// for tests and agents alike. So each member of such a run dials through a killableDialer:
// a kill closes every connection the member has open (the broker sees the sockets close,
// as when the kernel reaps a crashed process), refuses any new one, and cancels the
// client's context before Close, so the leave Close attempts fails before a byte is sent.

// killableDialer dials for one client and can cut it off from the cluster. With tls set
// it speaks TLS as kgo would (kgo's dialer option replaces its TLS option): the server name
// is the broker's host unless the configuration names one.
type killableDialer struct {
	mu     sync.Mutex
	dead   bool
	conns  []net.Conn
	dialer net.Dialer
	tls    *tls.Config
}

// errKilled is a killed member's every dial.
var errKilled = &net.OpError{Op: "dial", Err: net.ErrClosed}

func (d *killableDialer) DialContext(ctx context.Context, network, host string) (net.Conn, error) {
	d.mu.Lock()
	dead := d.dead
	d.mu.Unlock()
	if dead {
		return nil, errKilled
	}
	c, err := d.dialer.DialContext(ctx, network, host)
	if err != nil {
		return nil, err
	}
	if d.tls != nil {
		cfg := d.tls.Clone()
		if cfg.ServerName == "" {
			server, _, err := net.SplitHostPort(host)
			if err != nil {
				c.Close()
				return nil, fmt.Errorf("unable to split host:port for dialing: %w", err)
			}
			cfg.ServerName = server
		}
		tc := tls.Client(c, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			c.Close()
			return nil, err
		}
		c = tc
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.dead {
		c.Close()
		return nil, errKilled
	}
	d.conns = append(d.conns, c)
	return c, nil
}

// kill closes every connection and refuses new ones.
func (d *killableDialer) kill() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.dead = true
	for _, c := range d.conns {
		c.Close()
	}
	d.conns = nil
}

// eventLog gathers a run's rebalance.Log from its members.
type eventLog struct {
	start time.Time
	mu    sync.Mutex
	log   rebalance.Log
}

func (l *eventLog) us(t time.Time) int64 { return t.Sub(l.start).Microseconds() }

func (l *eventLog) change(member int, kind string, m map[string][]int32) {
	at := l.us(time.Now())
	var parts []int32
	for _, ps := range m {
		parts = append(parts, ps...)
	}
	slices.Sort(parts)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log.Changes = append(l.log.Changes, rebalance.Change{AtUs: at, Member: member, Kind: kind, Partitions: parts})
}

func (l *eventLog) event(ev rebalance.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.log.Events = append(l.log.Events, ev)
}

// records logs one poll's records of one member, consumed at now; produced gives a record's
// production time in microseconds since the epoch (ok false: unknown, taken as now).
func (l *eventLog) records(now time.Time, fetches kgo.Fetches, produced func(*kgo.Record) (int64, bool)) {
	at, startUs := l.us(now), l.start.UnixMicro()
	l.mu.Lock()
	defer l.mu.Unlock()
	fetches.EachRecord(func(r *kgo.Record) {
		if l.log.Records.Len() >= rebalance.MaxRecords {
			l.log.Truncated = true
			return
		}
		p, ok := produced(r)
		if !ok {
			p = now.UnixMicro()
		}
		l.log.Records.Add(r.Partition, at, r.Offset, p-startUs)
	})
}

// producedUs is a record's production time: the kbench-ts header, else its create time.
func producedUs(r *kgo.Record) (int64, bool) {
	if ts, ok := headerTimestamp(r); ok {
		return ts, true
	}
	if !r.Timestamp.IsZero() && r.Attrs.TimestampType() == 0 {
		return r.Timestamp.UnixMicro(), true
	}
	return 0, false
}

// members is a run's group as it changes: the members in order of start (a member's number
// is its index), their poll goroutines, and the closing of members stopped by an event.
type members struct {
	mu      sync.Mutex
	workers []*consumerWorker
	polls   sync.WaitGroup
	closing sync.WaitGroup
}

// live returns the members not stopped by an event.
func (m *members) live() []*consumerWorker {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*consumerWorker
	for _, w := range m.workers {
		if !w.gone.Load() {
			out = append(out, w)
		}
	}
	return out
}

// all returns every member ever started.
func (m *members) all() []*consumerWorker {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.workers)
}

// startEvents carries out the schedule in the background until ctx ends; join starts
// member i. The schedule holds a poll count of its own, so a join never adds to an empty
// WaitGroup that is being waited for.
func (m *members) startEvents(ctx context.Context, events []rebalance.Scheduled, from time.Time, log *eventLog, join func(i int) error) {
	m.polls.Add(1)
	go func() {
		defer m.polls.Done()
		m.runEvents(ctx, events, from, log, join)
	}()
}

// runEvents carries out the schedule, its times counted from from, until ctx ends. Leave,
// kill and stall act on the first member still running (the oldest), so both protocols of
// a study see the same member go.
func (m *members) runEvents(ctx context.Context, events []rebalance.Scheduled, from time.Time, log *eventLog, join func(i int) error) {
	for _, ev := range events {
		t := time.NewTimer(time.Until(from.Add(ev.At)))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		rec := rebalance.Event{Spec: ev.String(), Kind: ev.Kind, AtUs: log.us(time.Now()), Member: -1}
		if ev.Kind == rebalance.Join {
			m.mu.Lock()
			rec.Member = len(m.workers)
			m.mu.Unlock()
			log.event(rec) // before the member's first assignment
			if err := join(rec.Member); err != nil {
				log.mu.Lock()
				log.log.Events[len(log.log.Events)-1].Skipped = "the consumer could not start: " + err.Error()
				log.mu.Unlock()
			}
			continue
		}
		live := m.live()
		if len(live) == 0 {
			rec.Skipped = "no member was running"
			log.event(rec)
			continue
		}
		w := live[0]
		rec.Member = w.member
		rec.MemberID, _ = w.cl.GroupMetadata()
		log.event(rec)
		switch ev.Kind {
		case rebalance.Stall:
			w.stallFor.Store(int64(ev.For))
		case rebalance.Leave:
			w.gone.Store(true)
			w.stop()
			m.closing.Add(1)
			go func() {
				defer m.closing.Done()
				leaveCtx, cancel := context.WithTimeout(context.Background(), leaveTimeout)
				defer cancel()
				_ = w.cl.LeaveGroupContext(leaveCtx)
				w.cl.Close()
			}()
		case rebalance.Kill:
			w.gone.Store(true)
			w.stop()
			w.dial.kill()
			w.cancelClient()
			m.closing.Add(1)
			go func() {
				defer m.closing.Done()
				w.cl.Close()
			}()
		}
	}
}

// stalled waits out a stall of the member, if one is set, unless ctx ends first. The stall
// runs its full length from the end of the poll being handled when it was set, as a
// handler that takes that long would.
func (w *consumerWorker) stalled(ctx context.Context) {
	d := time.Duration(w.stallFor.Swap(0))
	if d == 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// killable gives the worker a dialer and a client context that a kill cuts. tlsCfg is the
// client's TLS configuration (nil without TLS): the dialer speaks it, and kgo's own TLS
// option is cleared, as kgo refuses both.
func (w *consumerWorker) killable(tlsCfg *tls.Config) []kgo.Opt {
	w.dial = &killableDialer{tls: tlsCfg}
	clientCtx, cancel := context.WithCancel(context.Background())
	w.cancelClient = cancel
	return []kgo.Opt{kgo.DialTLSConfig(nil), kgo.Dialer(w.dial.DialContext), kgo.WithContext(clientCtx)}
}

// memberState is what an event run adds to a worker.
type memberState struct {
	member       int
	gone         atomic.Bool
	stallFor     atomic.Int64 // a stall to begin, in ns; 0: none
	stop         context.CancelFunc
	dial         *killableDialer
	cancelClient context.CancelFunc
	log          *eventLog
}

// partitionCount is topic's number of partitions. A topic created a moment ago may not be
// in every broker's metadata yet, so an unknown topic is asked about again for a while.
func partitionCount(ctx context.Context, adm *kadm.Client, topic string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, topicWait)
	defer cancel()
	for {
		td, err := adm.ListTopics(ctx, topic)
		if err == nil {
			err = td.Error()
		}
		if err == nil {
			return len(td[topic].Partitions), nil
		}
		if !errors.Is(err, kerr.UnknownTopicOrPartition) || sleepCtx(ctx, 100*time.Millisecond) != nil {
			return 0, fmt.Errorf("unable to read the partitions of topic %s: %w", topic, err)
		}
	}
}

// topicWait bounds the wait for a new topic's metadata.
const topicWait = 10 * time.Second

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
