package verify

import (
	"context"
	"time"
)

// FaultEvent is one fault injected during the load: what, on which broker (and partition,
// when the fault chose a partition's leader), when it began and when it was healed (zero
// when it never was).
type FaultEvent struct {
	At        time.Time `json:"at"`
	Kind      string    `json:"kind"`
	Broker    int32     `json:"broker"`
	Partition int32     `json:"partition"`
	Detail    string    `json:"detail,omitempty"`
	Healed    time.Time `json:"healed,omitzero"`
}

// FaultRunner runs a fault schedule while the load runs: Run returns when the schedule is
// done (every fault healed) or ctx ends, calling onEvent as faults begin and heal, and
// returns the events. Recovered waits until the cluster is whole again (every broker back,
// every replica in sync) before the read-back.
type FaultRunner interface {
	Run(ctx context.Context, onEvent func(FaultEvent)) ([]FaultEvent, error)
	Recovered(ctx context.Context) error
}
