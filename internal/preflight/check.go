package preflight

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// checker runs the steps of one Check on one client.
type checker struct {
	cl   *kgo.Client
	sec  security
	need Need
	res  *Result
	hook *lastError
	boot string
}

// run asks for the metadata (which connects, handshakes and authenticates), then checks
// that every broker is reachable at its advertised address, then the topics, the topic
// creation and the group.
func (c *checker) run(ctx context.Context) error {
	meta, err := c.metadata(ctx)
	if err != nil {
		return err
	}
	if err := c.checkBrokers(ctx, meta); err != nil {
		return err
	}
	if err := c.checkTopics(ctx, meta); err != nil {
		return err
	}
	if err := c.checkPrefix(ctx, meta); err != nil {
		return err
	}
	return c.checkGroup(ctx)
}

// explain turns a failed request into one line: the recognised cause of the request's
// error or of the last connection error the hooks saw, else the client's own words.
func (c *checker) explain(ctx context.Context, err error, doing string) error {
	if ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("cluster check interrupted: %w", ctx.Err())
	}
	addr, connErr := c.hook.get()
	if addr == "" {
		addr = c.boot
	}
	// The probes run after the requests' deadline, on their own budget.
	probe := &onceProber{p: netProber{ctx: context.WithoutCancel(ctx)}}
	if e := classify(err, addr, c.sec, probe); e != nil {
		return e
	}
	if e := classify(connErr, addr, c.sec, probe); e != nil {
		return e
	}
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		last := ""
		if connErr != nil {
			last = fmt.Sprintf(" (last error: %v)", connErr)
		}
		return fail(Other, "%s accepted the connection but did not answer while %s: not a Kafka listener, or an overloaded broker?%s", addr, doing, last)
	}
	return describeErr(fmt.Errorf("%s: %w", doing, err), addr)
}

// request issues req and returns when it is answered or ctx ends, whichever comes first:
// the client's own timeouts (an ApiVersions on connect, retries) can outlast the check's
// budget. Check closes the client, which ends a request left behind.
func (c *checker) request(ctx context.Context, req kmsg.Request) (kmsg.Response, error) {
	type answer struct {
		resp kmsg.Response
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		resp, err := c.cl.Request(ctx, req)
		done <- answer{resp, err}
	}()
	select {
	case a := <-done:
		return a.resp, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// checkBrokers dials every broker at the address it advertises: the clients connect there
// after the bootstrap, and an advertised.listeners that names an address this host cannot
// reach (a container's name, an internal IP) makes the load hang with no other clue.
func (c *checker) checkBrokers(ctx context.Context, meta *metadata) error {
	errs := make([]error, len(meta.brokers))
	var wg sync.WaitGroup
	for i, b := range meta.brokers {
		wg.Go(func() { errs[i] = dial(ctx, b.addr) })
	}
	wg.Wait()
	for i, b := range meta.brokers {
		if errs[i] != nil {
			return fail(Unreachable, "broker %d advertises %s, which cannot be reached from here: %v (check the brokers' advertised.listeners)", b.id, b.addr, errs[i])
		}
	}
	return nil
}

// lastError is the client hook that keeps the last connection failure and its address: the
// request error alone often says only that the request failed.
type lastError struct {
	mu   sync.Mutex
	addr string
	err  error
}

func (h *lastError) OnBrokerConnect(meta kgo.BrokerMetadata, _ time.Duration, _ net.Conn, err error) {
	h.set(meta, err)
}

func (h *lastError) OnBrokerE2E(meta kgo.BrokerMetadata, _ int16, e kgo.BrokerE2E) {
	if e.WriteErr != nil {
		h.set(meta, e.WriteErr)
	} else if e.ReadErr != nil {
		h.set(meta, e.ReadErr)
	}
}

func (h *lastError) set(meta kgo.BrokerMetadata, err error) {
	if err == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.addr = net.JoinHostPort(meta.Host, strconv.Itoa(int(meta.Port)))
	h.err = err
}

func (h *lastError) get() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.addr, h.err
}
