// Package faults injects broker faults for kbench verify: it parses a fault plan
// (`leader-kill x3 every 10s; pause 5s`), resolves each fault's broker when it is due (the
// leader or an in-sync follower of a partition, the active KRaft controller), applies it,
// heals it (restart, SIGCONT, reopen), records what happened as events, waits for the ISR
// to recover, and cuts the run into phases for the report.
//
// On the embedded cluster faults are signals to a broker's PID (never to processes found
// by name) through internal/cluster, which restarts a killed broker with the same node id,
// config and cgroup and writes its new PID to cluster.json. On an external cluster kbench
// cannot signal a broker: a kill runs the command the user gave for that broker (an ssh or
// kubectl line that restarts it), and only once the user has confirmed.
//
// Faults run one at a time: a fault starts when it is due and not before the previous
// one's heal has finished, so two faults never overlap and the phases are disjoint.
//
// The negative control with unclean leader election is the `truncate D` fault (Kafka's
// truncation_test recipe, see Truncate): with unclean.leader.election.enable=true,
// min.insync.replicas=1 and 2 replicas, the stale follower is elected and acknowledged
// records are lost (measured on the embedded 3-broker cluster with one acks=all producer:
// 907 of 1,095; the real-cluster test asserts a loss). The follower is paused, not killed,
// and all the other replicas are killed at once, so these must not hold a majority of the
// KRaft controllers (the embedded cluster's first three nodes): 2 replicas are fine, 3 need
// a cluster of 4 or more brokers with the partition mostly on broker-only nodes.
//
// A cut needs proxies in front of the brokers (cluster.Cut): an embedded cluster started
// with a broker or client link, its proxies in this process or in their own.
//
// How kbench verify calls it:
//
//	plan, err := faults.Parse(spec, seed) // before anything starts: a bad plan is a flag error
//	target := faults.NewEmbeddedTarget(c, client, topic) // c *cluster.Cluster, client *kgo.Client
//	// or, external: cmds, err := faults.ParseCommands(flagValues)
//	//               target, err := faults.NewCommandTarget(cmds, confirmed, client, topic)
//	start := time.Now()
//	go func() { events, runErr = faults.Run(ctx, plan, target, onEvent) }() // beside the load
//	... load runs at least plan.End() ...
//	err = faults.WaitRecovered(ctx, kadm.NewClient(client), topic, 2*time.Minute)
//	phases := faults.Phases(events, start, time.Now()) // then read back and check
//
// Run returns when every fault is healed; cancel its context to cut the plan short, and
// it still heals what it injected.
package faults

import (
	"context"
	"time"
)

// Event is one fault as it happened.
type Event struct {
	// Step is the fault's index in the plan.
	Step int
	// Kind is the plan's name for it: "leader-kill", "pause", "cut".
	Kind string
	// Broker is the node id hit, Partition the partition whose leader or follower it was
	// (-1 for a controller fault).
	Broker    int32
	Partition int32
	// Detail says what was done: "SIGKILL broker 2 (pid 4242), leader of t-0".
	Detail string
	// At is when the fault began, Applied when it had taken effect (the process gone
	// after SIGKILL or a SIGTERM's controlled shutdown, stopped, cut).
	At      time.Time
	Applied time.Time
	// HealAt is when its heal began, HealedAt when it was done (a restarted broker back
	// in the cluster's metadata, SIGCONT sent, the proxies reopened); zero while not healed.
	HealAt   time.Time
	HealedAt time.Time
	// HealDetail says how it was healed: "restarted broker 2 (pid 4300)".
	HealDetail string
}

// Target is where faults are applied: the embedded cluster or an external one through the
// user's commands.
type Target interface {
	// Check refuses, before any fault, a plan this target cannot apply.
	Check(ctx context.Context, p Plan) error
	// Inject applies s and returns once it has taken effect. Its Heal, when not nil, must
	// be called to undo it, even when Inject also returns an error.
	Inject(ctx context.Context, s Step) (Injection, error)
}

// Injection is what Inject did.
type Injection struct {
	Broker    int32
	Partition int32
	Detail    string
	// Heal undoes the fault and says how; nil when nothing is left to undo.
	Heal func(ctx context.Context) (detail string, err error)
}
