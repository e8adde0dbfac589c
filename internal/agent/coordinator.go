package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/kbench/kbench/internal/kafka"
)

// CoordinatorConfig describes the coordinator of one run.
type CoordinatorConfig struct {
	// Bootstrap and Properties reach the cluster; only connection settings (security.*,
	// sasl.*, ssl.*) of Properties are used.
	Bootstrap  string
	Properties map[string]string
	// Prefix is the run's topic prefix (kbench-<run>); the control topic is Prefix-control.
	Prefix string
	// Agents is how many agents the run needs; JoinTimeout how long to wait for them.
	Agents      int
	JoinTimeout time.Duration
	// Version is this kbench's version; an agent of another version is refused.
	Version string
	// Log receives one line per event (an agent joined or was refused).
	Log func(string)
	// AgentStats, when set, receives each agent's own tick as it arrives, beside the merged
	// ones: the live page shows each agent's rate.
	AgentStats func(agent string, s Stats)
}

// readyTimeout bounds the wait for every agent to open its clients for a plan.
const readyTimeout = 60 * time.Second

// Coordinator runs scenarios on agents. Its methods are not safe for concurrent use.
type Coordinator struct {
	cfg    CoordinatorConfig
	topic  string
	ctl    *control
	admin  *kadm.Client
	owned  *kafka.Owned
	msgs   chan received
	stop   context.CancelFunc
	done   chan struct{}
	agents []Join
	// epoch numbers the scenarios; the heartbeat goroutine reads it too.
	epoch atomic.Int64
	// lost names an agent that went silent or failed: the run cannot split load over it
	// any more, so every later scenario fails at once.
	lost error
}

// Open creates the run's control topic, opens the run and waits until cfg.Agents agents
// joined. The caller must Close the coordinator (which deletes the topic) whatever Open
// returns, when it returns a coordinator.
func Open(ctx context.Context, cfg CoordinatorConfig) (*Coordinator, error) {
	if cfg.Agents < 1 {
		return nil, fmt.Errorf("--agents %d is less than 1", cfg.Agents)
	}
	if cfg.Log == nil {
		cfg.Log = func(string) {}
	}
	topic := ControlTopic(cfg.Prefix)
	if !IsControlTopic(topic) {
		return nil, fmt.Errorf("control topic %s lacks kbench's prefix", topic)
	}
	ctl, err := openControl(cfg.Bootstrap, cfg.Properties, CoordinatorName, kgo.ConsumeTopics(topic))
	if err != nil {
		return nil, err
	}
	c := &Coordinator{cfg: cfg, topic: topic, ctl: ctl, admin: kadm.NewClient(ctl.cl), owned: kafka.NewOwned(cfg.Prefix), msgs: make(chan received, 1024), done: make(chan struct{})}
	if err := c.createTopic(ctx); err != nil {
		return c, err
	}
	rctx, stop := context.WithCancel(context.Background())
	c.stop = stop
	go c.read(rctx)
	go c.heartbeats(rctx)
	if err := c.ctl.send(ctx, topic, Message{Kind: KindOpen, Run: cfg.Prefix, Open: &OpenRun{Version: cfg.Version, Agents: cfg.Agents}}); err != nil {
		return c, err
	}
	return c, c.awaitJoins(ctx)
}

// Topic is the control topic's name.
func (c *Coordinator) Topic() string { return c.topic }

// Agents are the admitted agents, in the order they joined.
func (c *Coordinator) Agents() []Join { return c.agents }

// ControlBytes is the key and value bytes read from the control topic so far: every
// party's messages, the control plane's own traffic on the cluster.
func (c *Coordinator) ControlBytes() int64 { return c.ctl.bytes.Load() }

// createTopic creates the control topic: one partition (one order for every message), as
// many replicas as the cluster has brokers, up to 3.
func (c *Coordinator) createTopic(ctx context.Context) error {
	brokers, err := c.admin.ListBrokers(ctx)
	if err != nil {
		return fmt.Errorf("list brokers for control topic %s: %w", c.topic, err)
	}
	rf := int16(min(3, max(1, len(brokers))))
	if err := c.owned.CreateTopic(ctx, c.admin, c.topic, 1, rf, nil); err != nil {
		return fmt.Errorf("control topic: %w", err)
	}
	return nil
}

// read delivers every message but the coordinator's own until ctx ends.
func (c *Coordinator) read(ctx context.Context) {
	defer close(c.done)
	for {
		ms, _ := c.ctl.poll(ctx) // a failed fetch is retried by the next poll
		if ctx.Err() != nil {
			return
		}
		for _, m := range ms {
			if m.From == CoordinatorName || m.Run != c.cfg.Prefix {
				continue
			}
			select {
			case c.msgs <- m:
			case <-ctx.Done():
				return
			}
		}
	}
}

// heartbeats tells the agents, each HeartbeatInterval, that the coordinator is alive.
func (c *Coordinator) heartbeats(ctx context.Context) {
	t := time.NewTicker(HeartbeatInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			_ = c.ctl.send(ctx, c.topic, Message{Kind: KindHeartbeat, Run: c.cfg.Prefix, Epoch: int(c.epoch.Load())})
		}
	}
}

// awaitJoins admits agents until cfg.Agents joined or JoinTimeout passed.
func (c *Coordinator) awaitJoins(ctx context.Context) error {
	timeout := time.NewTimer(c.cfg.JoinTimeout)
	defer timeout.Stop()
	var refused []string
	for len(c.agents) < c.cfg.Agents {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout.C:
			return c.joinTimeout(refused)
		case m := <-c.msgs:
			if m.Kind != KindJoin || m.Join == nil {
				continue
			}
			if reason := c.admit(m.Join); reason != "" {
				refused = append(refused, fmt.Sprintf("%s (%s)", m.From, reason))
				c.cfg.Log(fmt.Sprintf("refused agent %s: %s", m.From, reason))
				if err := c.ctl.send(ctx, c.topic, Message{Kind: KindRefuse, Run: c.cfg.Prefix, To: m.From, Reason: reason}); err != nil {
					return err
				}
				continue
			}
			c.agents = append(c.agents, *m.Join)
			c.cfg.Log(fmt.Sprintf("agent %s joined (host %s, %d cores), %d of %d", m.Join.Name, m.Join.Host, m.Join.Cores, len(c.agents), c.cfg.Agents))
			if err := c.ctl.send(ctx, c.topic, Message{Kind: KindAdmit, Run: c.cfg.Prefix, To: m.From}); err != nil {
				return err
			}
		}
	}
	return nil
}

// admit returns why j cannot join, or "".
func (c *Coordinator) admit(j *Join) string {
	if j.Version != c.cfg.Version {
		return fmt.Sprintf("it runs kbench %s, the coordinator %s", j.Version, c.cfg.Version)
	}
	for _, a := range c.agents {
		if a.Name == j.Name {
			return "an agent of that name already joined (give each agent its own --name)"
		}
	}
	return ""
}

func (c *Coordinator) joinTimeout(refused []string) error {
	var names []string
	for _, a := range c.agents {
		names = append(names, a.Name)
	}
	msg := fmt.Sprintf("%d of %d agents joined within %v (joined: %s)", len(c.agents), c.cfg.Agents, c.cfg.JoinTimeout, orNone(names))
	if len(refused) > 0 {
		msg += "; refused: " + strings.Join(refused, ", ")
	}
	return errors.New(msg + "; start `kbench agent --bootstrap-server ...` on more hosts or lower --agents")
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// Close ends the run (agents leave it), deletes the control topic this coordinator created
// and closes its client.
func (c *Coordinator) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if c.stop != nil {
		c.stop()
		<-c.done
		_ = c.ctl.send(ctx, c.topic, Message{Kind: KindClose, Run: c.cfg.Prefix})
	}
	var err error
	if c.owned.Owns(c.topic) {
		if _, derr := c.owned.DeleteTopic(ctx, c.admin, c.topic); derr != nil {
			err = fmt.Errorf("control topic: %w (delete it with kafka-topics.sh --delete --topic %s)", derr, c.topic)
		}
	}
	c.ctl.close()
	return err
}
