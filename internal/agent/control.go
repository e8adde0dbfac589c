package agent

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/settings"
)

// control is one party's client on the control topic(s): it sends its messages keyed by its
// name and reads everyone's.
type control struct {
	cl   *kgo.Client
	name string
	// bytes counts the key and value bytes of the records read, the control topic's own
	// traffic (kept apart from the load's).
	bytes atomic.Int64
}

// connection keeps the connection settings of client properties (settings.IsConnection):
// the control client needs them, and they never travel in a plan.
func connection(props map[string]string) map[string]string { return settings.Connection(props) }

// openControl connects name to bootstrap and reads the topics consume selects.
func openControl(bootstrap string, props map[string]string, name string, consume ...kgo.Opt) (*control, error) {
	conn, err := kafka.Connect(bootstrap, props)
	if err != nil {
		return nil, fmt.Errorf("control client: %w", err)
	}
	opts := []kgo.Opt{
		// Control messages are few and small; each should leave at once.
		kgo.ProducerLinger(0),
		// Read every message of the run, those sent before this client started included.
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		// A heartbeat must not wait behind a long fetch.
		kgo.FetchMaxWait(100 * time.Millisecond),
	}
	// A service client has franz-go's batch cap, about 1 MB as brokers accept by default,
	// not batch.size's 16 KiB: an agent's done message (its whole accounting, histograms
	// included) passes 16 KiB.
	cl, err := conn.NewClient("control-"+name, append(opts, consume...)...)
	if err != nil {
		return nil, err
	}
	return &control{cl: cl, name: name}, nil
}

// send publishes m to topic, from this party, and waits for its acknowledgement.
func (c *control) send(ctx context.Context, topic string, m Message) error {
	m.From, m.Sent = c.name, time.Now().UTC()
	b, err := m.encode()
	if err != nil {
		return err
	}
	rec := &kgo.Record{Topic: topic, Key: []byte(c.name), Value: b}
	if err := c.cl.ProduceSync(ctx, rec).FirstErr(); err != nil {
		return fmt.Errorf("send %s on %s: %w", m.Kind, topic, err)
	}
	return nil
}

// sendAsync publishes m to topic without waiting (heartbeats, stats): a slow
// acknowledgement must not hold the agent's loop or its trial's ticks.
func (c *control) sendAsync(topic string, m Message) {
	m.From, m.Sent = c.name, time.Now().UTC()
	b, err := m.encode()
	if err != nil {
		return
	}
	c.cl.Produce(context.Background(), &kgo.Record{Topic: topic, Key: []byte(c.name), Value: b}, nil)
}

// received is a message and where and when the broker got it.
type received struct {
	*Message
	topic string
	ts    time.Time // the record's timestamp (the sender's clock when produced)
}

// poll waits for the next messages (until ctx ends); records that are not messages are
// skipped.
func (c *control) poll(ctx context.Context) ([]received, error) {
	fs := c.cl.PollFetches(ctx)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []received
	var ferr error
	fs.EachError(func(t string, p int32, err error) {
		if ferr == nil {
			ferr = fmt.Errorf("read control topic %s: %w", t, err)
		}
	})
	fs.EachRecord(func(r *kgo.Record) {
		c.bytes.Add(int64(len(r.Key) + len(r.Value)))
		m, err := decodeMessage(r.Value)
		if err != nil {
			return
		}
		out = append(out, received{Message: m, topic: r.Topic, ts: r.Timestamp})
	})
	return out, ferr
}

func (c *control) close() { c.cl.Close() }
