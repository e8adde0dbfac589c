package runner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kbench/kbench/internal/study"
	"github.com/kbench/kbench/internal/zones"
)

// Zone links are changed on the running proxies, never by a restart: client_rtt and
// client_bandwidth on the remote listener's, broker_rtt on the inter-broker ones. Before
// each repeat the links are set to the scenario's values, and to the links the cluster
// started with for what the scenario does not set, so a scenario never inherits the link of
// the repeat that ran before it.

// wantLinks are the links a scenario runs on: base (the cluster's at the run's start, or
// at its shape's start) changed by the scenario's swept values. A nil base stays nil.
func wantLinks(sc study.Scenario, client, broker *zones.Link) (wantClient, wantBroker *zones.Link) {
	if client != nil {
		l := *client
		if sc.ClientRTT != nil {
			l.RTT = *sc.ClientRTT
		}
		if sc.ClientBandwidth != nil {
			l.Bandwidth = *sc.ClientBandwidth
		}
		wantClient = &l
	}
	if broker != nil {
		l := *broker
		if sc.BrokerRTT != nil {
			l.RTT = *sc.BrokerRTT
		}
		wantBroker = &l
	}
	return wantClient, wantBroker
}

// setLinks sets the proxies' links for the scenario's next repeat; a link already in force
// is left alone (no signal to the proxy process).
func (t *target) setLinks(sc study.Scenario) error {
	client, broker := wantLinks(sc, t.baseClient, t.baseBroker)
	switch {
	case (sc.ClientRTT != nil || sc.ClientBandwidth != nil) && client == nil:
		return fmt.Errorf("client_rtt and client_bandwidth need the embedded cluster's remote listener (cluster.network)")
	case sc.BrokerRTT != nil && broker == nil:
		return fmt.Errorf("broker_rtt needs a cluster started with inter-broker proxies (cluster.network.broker_rtt, or cluster up --broker-rtt)")
	}
	if client != nil {
		if cur, ok := t.zoned.Network(); !ok || cur.Link != *client {
			if err := t.zoned.SetClientLink(*client); err != nil {
				return fmt.Errorf("set the client link to %s: %w", client, err)
			}
		}
	}
	if broker != nil {
		if cur, ok := t.zoned.BrokerLink(); !ok || cur != *broker {
			if err := t.zoned.SetBrokerLink(*broker); err != nil {
				return fmt.Errorf("set the link between brokers to %s: %w", broker, err)
			}
		}
	}
	return nil
}

// sweptLinks names the link parameters some scenario of the plan sets, for the
// environment's words: "client_rtt, client_bandwidth".
func sweptLinks(plan *study.Plan) (client, broker string) {
	var c []string
	for _, k := range []struct {
		name string
		set  func(study.Scenario) bool
	}{
		{"client_rtt", func(sc study.Scenario) bool { return sc.ClientRTT != nil }},
		{"client_bandwidth", func(sc study.Scenario) bool { return sc.ClientBandwidth != nil }},
	} {
		if slices.ContainsFunc(plan.Scenarios, k.set) {
			c = append(c, k.name)
		}
	}
	if slices.ContainsFunc(plan.Scenarios, func(sc study.Scenario) bool { return sc.BrokerRTT != nil }) {
		broker = "broker_rtt"
	}
	return strings.Join(c, " and "), broker
}

// describeSwept says in the environment that the links change per scenario.
func (t *target) describeSwept(client, broker string) {
	if client != "" && t.zone != "" {
		t.zone = fmt.Sprintf("%s as started, changed per scenario by its %s (RTT/2 each way)", t.baseClient, client)
	}
	if broker != "" && t.brokerZones != "" {
		t.brokerZones = fmt.Sprintf("each broker in its own zone: inter-broker traffic through delay proxies with %s as started, changed per scenario by its %s (RTT/2 each way)", t.baseBroker, broker)
	}
}
