package agent

import (
	"fmt"
	"maps"

	"github.com/kbench/kbench/internal/load"
)

// Share is one agent's part of a scenario: a contiguous range of the scenario's producers,
// and the rate, records and warm-up records those producers would have had in a local run.
type Share struct {
	Agent string `json:"agent"`
	// FirstProducer is the index, among all the scenario's producers, of the agent's first;
	// Producers is how many it runs.
	FirstProducer int `json:"first_producer"`
	Producers     int `json:"producers"`
	// Rate is the agent's offered rate in records/s (0 unlimited): the total rate in
	// proportion to its producers.
	Rate float64 `json:"rate,omitempty"`
	// Records and WarmupRecords are the sums of the shares its producers would have had.
	Records       int64 `json:"records,omitempty"`
	WarmupRecords int64 `json:"warmup_records,omitempty"`
	// Seed seeds the agent's payloads and keys: the job's seed plus FirstProducer, so no
	// two agents send the same payload sequence.
	Seed uint64 `json:"seed"`
	// Partitions and Consumers are set when the scenario consumes: the agent's producers
	// write only these partitions and its Consumers consumers read them, so every
	// end-to-end latency is measured on one host's clock.
	Partitions []int32 `json:"partitions,omitempty"`
	Consumers  int     `json:"consumers,omitempty"`
}

// SplitPartitions gives each share a contiguous range of the topic's partitions (the first
// partitions%len(shares) one more) and consumers in proportion, at least one each (every
// agent's partitions must be read) and at most one per partition.
func SplitPartitions(shares []Share, partitions, consumers int) error {
	n := len(shares)
	if partitions < n {
		return fmt.Errorf("a topic of %d partitions cannot be split between %d agents whose consumers each read their own producers' partitions (raise the topic's partitions or lower --agents)", partitions, n)
	}
	first := 0
	for a := range shares {
		k := int(part(int64(partitions), n, a))
		shares[a].Partitions = nil
		for p := first; p < first+k; p++ {
			shares[a].Partitions = append(shares[a].Partitions, int32(p))
		}
		shares[a].Consumers = min(max(1, int(part(int64(consumers), n, a))), k)
		first += k
	}
	return nil
}

// Split divides producers, rate (records/s, 0 or less unlimited), records and warm-up
// records between agents, in order: the first producers%len(agents) agents run one producer
// more, and each agent's records are the sum of what its producers get in a local run
// (load splits records between producers the same way), so the shares add up exactly.
func Split(agents []string, producers int, rate float64, records, warmupRecords int64, seed uint64) ([]Share, error) {
	n := len(agents)
	if n == 0 {
		return nil, fmt.Errorf("no agents to split the load between")
	}
	if producers < n {
		return nil, fmt.Errorf("%d producers cannot be split between %d agents: each agent runs at least one (raise the scenario's producers or lower --agents)", producers, n)
	}
	shares := make([]Share, n)
	first := 0
	for a, name := range agents {
		k := int(part(int64(producers), n, a))
		s := Share{Agent: name, FirstProducer: first, Producers: k, Seed: seed + uint64(first)}
		for i := first; i < first+k; i++ {
			s.Records += part(records, producers, i)
			s.WarmupRecords += part(warmupRecords, producers, i)
		}
		if rate > 0 {
			s.Rate = rate * float64(k) / float64(producers)
		}
		shares[a] = s
		first += k
	}
	return shares, nil
}

// part is item i's part of total split between n items: the first total%n get one more (the
// split load uses between producers).
func part(total int64, n, i int) int64 {
	p := total / int64(n)
	if int64(i) < total%int64(n) {
		p++
	}
	return p
}

// config is the producer configuration and schedule an agent runs for share s of plan p,
// with its own bootstrap servers and connection properties.
func (s Share) config(p *Plan, bootstrap string, conn map[string]string) (load.ProducerConfig, load.Schedule) {
	cfg := p.Job
	cfg.Bootstrap = bootstrap
	cfg.Properties = withConnection(p.Job.Properties, conn)
	cfg.Producers, cfg.Seed = s.Producers, s.Seed
	if len(s.Partitions) > 0 {
		cfg.Partitions = s.Partitions
	}
	sch := p.Schedule
	sch.Rate, sch.Records, sch.WarmupRecords = s.Rate, s.Records, s.WarmupRecords
	cfg.Rate, cfg.Records, cfg.WarmupRecords = sch.Rate, sch.Records, sch.WarmupRecords
	cfg.Duration, cfg.Warmup = sch.Duration, sch.Warmup
	return cfg, sch
}

// consumerConfig is the consumer configuration an agent runs for share s of plan p: its
// consumers read its own partitions, from the start, with no group.
func (s Share) consumerConfig(p *Plan, bootstrap string, conn map[string]string) load.ConsumerConfig {
	cfg := *p.Consumers
	cfg.Bootstrap = bootstrap
	cfg.Properties = withConnection(p.Consumers.Properties, conn)
	cfg.Consumers, cfg.Partitions = s.Consumers, s.Partitions
	return cfg
}

// withConnection is a copy of the plan's client properties with the agent's own
// connection properties over them.
func withConnection(props, conn map[string]string) map[string]string {
	out := maps.Clone(props)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, conn)
	return out
}
