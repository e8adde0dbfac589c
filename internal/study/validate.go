package study

import (
	"errors"
	"fmt"
	"maps"
	"strconv"

	"github.com/kbench/kbench/internal/settings"
)

// validate checks what only a whole scenario can show: the topic fits the cluster, the
// replication settings agree, and there is some load to run.
func (p *parsed) validate(pt point) error {
	s := pt.s
	at := func(path string) origin {
		if o, ok := pt.origin[path]; ok {
			return o
		}
		return origin{pt.node, "scenarios"}
	}
	fail := func(path, format string, args ...any) error {
		o := at(path)
		msg := fmt.Sprintf(format, args...)
		if s.ID != "default" {
			msg = fmt.Sprintf("scenario %s: %s", s.ID, msg)
		}
		return p.d.errorf(o.node, o.field, "%s", msg)
	}
	switch c := p.plan.Cluster; {
	case s.Listener == "":
	case c.External != nil:
		return fail("listener", "listener applies only to the embedded cluster; an external cluster's security settings come from its command_config")
	case s.Listener == "sasl" && c.SASL == "":
		return fail("listener", "listener sasl needs cluster.sasl %s", choices(saslChoices))
	case s.Listener == "tls" && !c.TLS:
		return fail("listener", "listener tls needs cluster.tls: true")
	case s.Listener == "remote" && c.Network == nil:
		return fail("listener", "listener remote needs cluster.network: {client_rtt: 10ms}")
	}
	if err := p.validateLinks(s, fail); err != nil {
		return err
	}
	brokers := s.Cluster.Brokers
	if brokers > 0 && s.Topic.Replicas > brokers {
		return fail("topic.replicas", "replicas %d is more than the cluster's %d brokers", s.Topic.Replicas, brokers)
	}
	if v, ok := s.Topic.Configs["min.insync.replicas"]; ok {
		n, _ := strconv.Atoi(v)
		if n < 1 {
			return fail("topic.configs.min.insync.replicas", "min.insync.replicas must be at least 1")
		}
		if n > s.Topic.Replicas {
			return fail("topic.configs.min.insync.replicas", "min.insync.replicas %d is more than the topic's %d replicas, so no write could succeed", n, s.Topic.Replicas)
		}
	}
	if s.Producers.Count == 0 && s.Consumers.Count == 0 {
		return fail("producers.count", "no load: producers.count and consumers.count are both 0")
	}
	if s.Producers.Count == 0 && s.Consumers.Records == 0 {
		return fail("consumers.records", "a scenario with consumers and no producers reads a topic kbench fills first; set consumers.records to say how many records")
	}
	if s.Producers.Rate > 0 && s.Producers.Throttle > 0 {
		return fail("producers.throttle", "give a rate (a target the run must reach) or a throttle (a cap, as --throughput), not both")
	}
	if s.Producers.Records > 0 && s.Producers.Records < int64(s.Producers.Count) {
		return fail("producers.records", "%d records cannot be shared by %d producers", s.Producers.Records, s.Producers.Count)
	}
	if s.Capacity.Enabled() && s.Producers.Count == 0 {
		return fail("producers.count", "a capacity search offers rates to producers; this scenario has none")
	}
	if err := s.Capacity.validate(); err != nil {
		return fail("capacity", "%v", err)
	}
	if s.Verify.Faults != "" && !s.Verify.Enabled() {
		return fail("verify.faults", "a fault plan runs during a durability check: set verify.duration too")
	}
	if s.Verify.Enabled() && s.Producers.Count == 0 {
		return fail("producers.count", "a durability check sends with the scenario's producers; this scenario has none")
	}
	if s.Verify.Enabled() && s.Producers.Properties["acks"] == "0" {
		return fail("producers.properties.acks", "acks=0: the cluster acknowledges nothing, so a durability check has no claim to check")
	}
	if err := validateEvents(s, fail); err != nil {
		return err
	}
	if err := validateConsumerRole(s, fail); err != nil {
		return err
	}
	if err := validateTransaction(s, fail); err != nil {
		return err
	}
	return p.validateClients(s, fail)
}

// validateClients resolves the scenario's client properties as the load engine will, so a
// combination it cannot honour (explicit idempotence with acks=1, a record larger than
// max.request.size, ...) is refused here, at the line that set it.
func (p *parsed) validateClients(s Scenario, fail func(path, format string, args ...any) error) error {
	blame := func(prefix string, err error, fallback string) error {
		path := fallback
		var se *settings.Error
		if errors.As(err, &se) {
			if _, ok := s.Producers.Properties[se.Property]; ok && prefix == "producers.properties." {
				path = prefix + se.Property
			}
			if _, ok := s.Consumers.Properties[se.Property]; ok && prefix == "consumers.properties." {
				path = prefix + se.Property
			}
		}
		return fail(path, "%v", err)
	}
	if s.Producers.Count > 0 || s.Consumers.Count > 0 {
		// Consume-only scenarios are filled by a producer with the same properties.
		r, err := settings.Resolve(settings.Producer, s.Producers.Properties)
		if err != nil {
			return blame("producers.properties.", err, "producers.properties")
		}
		size := int64(s.Producers.RecordSize)
		if err := settings.CheckRecords(r, size, size); err != nil {
			return blame("producers.properties.", err, "producers.record_size")
		}
	}
	if s.Consumers.Count > 0 {
		props := maps.Clone(s.Consumers.Properties)
		if s.Consumers.FetchSize > 0 {
			props["max.partition.fetch.bytes"] = strconv.Itoa(s.Consumers.FetchSize)
		}
		if _, err := settings.Resolve(settings.Consumer, props); err != nil {
			return blame("consumers.properties.", err, "consumers.properties")
		}
	}
	return nil
}

// validateLinks checks the swept zone links: client_rtt and client_bandwidth change the
// remote listener's proxies, which the cluster has only with cluster.network's client
// link, and apply only to a scenario that uses that listener; broker_rtt changes the
// inter-broker proxies, which it has only with cluster.network.broker_rtt.
func (p *parsed) validateLinks(s Scenario, fail func(path, format string, args ...any) error) error {
	for _, k := range []struct {
		name, path string
		set        bool
	}{
		{"client_rtt", "network.client_rtt", s.ClientRTT != nil},
		{"client_bandwidth", "network.client_bandwidth", s.ClientBandwidth != nil},
	} {
		switch {
		case !k.set:
		case p.plan.Cluster.Network == nil:
			return fail(k.path, "%s needs cluster.network: {client_rtt: 10ms}, the remote listener it changes", k.name)
		case s.Listener != "" && s.Listener != "remote":
			return fail(k.path, "%s applies to the remote listener, and the scenario uses listener %s", k.name, s.Listener)
		}
	}
	if s.BrokerRTT != nil && p.plan.Cluster.BrokerNetwork == nil {
		return fail("network.broker_rtt", "broker_rtt needs cluster.network: {broker_rtt: 0ms}, the inter-broker proxies it changes (the cluster starts with them, at that RTT)")
	}
	return nil
}
