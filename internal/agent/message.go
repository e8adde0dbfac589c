package agent

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kbench/kbench/internal/load"
	"github.com/kbench/kbench/internal/metrics"
)

// Kind names a control message. docs/agents.md describes each one.
type Kind string

// The control messages, in the order a scenario uses them.
const (
	// KindOpen: the coordinator opened a run for Open.Agents agents.
	KindOpen Kind = "open"
	// KindJoin: an agent asks to take part (Join).
	KindJoin Kind = "join"
	// KindAdmit: the coordinator accepted the agent named in To.
	KindAdmit Kind = "admit"
	// KindRefuse: the coordinator refused the agent named in To (Reason): another kbench
	// version, a run already in progress or already full.
	KindRefuse Kind = "refuse"
	// KindPlan: a scenario's split between the agents (Plan); Epoch numbers it.
	KindPlan Kind = "plan"
	// KindReady: an agent opened its clients for the plan of Epoch.
	KindReady Kind = "ready"
	// KindStart: the barrier; every agent starts its trial at Start.
	KindStart Kind = "start"
	// KindStarted: an agent's own start time (Start), so start skew is measured.
	KindStarted Kind = "started"
	// KindStats: one interval of an agent's trial (Stats).
	KindStats Kind = "stats"
	// KindDone: an agent's whole accounting (Result).
	KindDone Kind = "done"
	// KindError: an agent could not run its share (Reason).
	KindError Kind = "error"
	// KindAbort: the coordinator stops the scenario of Epoch on every agent (Reason).
	KindAbort Kind = "abort"
	// KindHeartbeat: the sender is alive; every party sends one each HeartbeatInterval.
	KindHeartbeat Kind = "heartbeat"
	// KindClose: the run ended; agents leave it and wait for the next.
	KindClose Kind = "close"
)

// CoordinatorName is the sender name (and record key) of the coordinator's messages.
const CoordinatorName = "coordinator"

// Message is one record of the control topic, JSON, keyed by its sender.
type Message struct {
	Kind Kind   `json:"kind"`
	From string `json:"from"`
	Run  string `json:"run"`
	// Epoch numbers the run's scenarios from 1; 0 outside a scenario.
	Epoch int `json:"epoch,omitempty"`
	// Sent is the sender's clock when it sent the message.
	Sent time.Time `json:"sent"`
	// To names the agent an admit or refuse is for.
	To     string `json:"to,omitempty"`
	Reason string `json:"reason,omitempty"`

	Open  *OpenRun  `json:"open,omitempty"`
	Join  *Join     `json:"join,omitempty"`
	Plan  *Plan     `json:"plan,omitempty"`
	Start time.Time `json:"start,omitzero"`
	Stats *Stats    `json:"stats,omitempty"`
	// Result is an agent's whole accounting: counts and the full histograms.
	Result *load.ProduceResult `json:"result,omitempty"`
	// Consumed is an agent's consumers' accounting, when the scenario consumes.
	Consumed *load.ConsumeResult `json:"consumed,omitempty"`
}

// OpenRun describes a run open for agents.
type OpenRun struct {
	Version string `json:"version"`
	Agents  int    `json:"agents"`
}

// Join is what an agent says of itself.
type Join struct {
	Name    string `json:"name"`
	Host    string `json:"host"`
	Cores   int    `json:"cores"`
	Version string `json:"version"`
}

// Plan is one scenario's load and each agent's share of it.
type Plan struct {
	// Scenario names the scenario (for the agents' log lines).
	Scenario string `json:"scenario"`
	// Job is the load every agent runs, without its bootstrap servers and connection
	// settings (each agent has its own) and without its share (see Share).
	Job load.ProducerConfig `json:"job"`
	// Schedule is the whole scenario's schedule; each share takes its part of it.
	Schedule load.Schedule `json:"schedule"`
	Shares   []Share       `json:"shares"`
	// Consumers, when set, is the consumers' job (topic, properties without connection
	// settings): each agent runs its share's consumers on its share's partitions, until they
	// read every record its producers had acknowledged.
	Consumers *load.ConsumerConfig `json:"consumers,omitempty"`
}

// Stats is one tick of an agent's trial: its interval's counts and latency histograms.
type Stats struct {
	Seq      int           `json:"seq"`
	Elapsed  time.Duration `json:"elapsed"`
	Interval time.Duration `json:"interval"`
	Warmup   bool          `json:"warmup,omitempty"`
	Acked    int64         `json:"acked"`
	Failed   int64         `json:"failed"`
	Bytes    int64         `json:"bytes"`
	// Buffered and BufferedBytes are the agent's records waiting in its clients at the tick.
	Buffered      int64 `json:"buffered,omitempty"`
	BufferedBytes int64 `json:"buffered_bytes,omitempty"`
	// Due and Send are the interval's due-time and send-time latencies.
	Due  *metrics.Histogram `json:"due"`
	Send *metrics.Histogram `json:"send"`
}

// encode is m as the control topic's record value.
func (m *Message) encode() ([]byte, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("encode %s message: %w", m.Kind, err)
	}
	return b, nil
}

// decodeMessage reads a record value; a value that is not a message is an error (the
// topic is kbench's own, so it says something is wrong, but one bad record is skipped).
func decodeMessage(b []byte) (*Message, error) {
	var m Message
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("decode control message: %w", err)
	}
	if m.Kind == "" || m.From == "" {
		return nil, fmt.Errorf("decode control message: no kind or sender")
	}
	return &m, nil
}
