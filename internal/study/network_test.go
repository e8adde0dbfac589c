package study

import (
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/zones"
)

// TestParseNetwork reads the clients' zone link from the cluster block and checks that
// listener: remote needs it.
func TestParseNetwork(t *testing.T) {
	for _, tc := range []struct {
		study string
		want  *zones.Link
		err   string // file:line: field: message substring
	}{
		{study: "cluster: {network: {client_rtt: 10ms}}", want: &zones.Link{RTT: 10 * time.Millisecond}},
		// 100 MiB = 100 x 1,048,576 = 104,857,600 bytes per second.
		{study: "cluster: {network: {client_rtt: 2ms, client_bandwidth: 100MiB}}",
			want: &zones.Link{RTT: 2 * time.Millisecond, Bandwidth: 104857600}},
		{study: "cluster: {network: {client_bandwidth: 12.5MB}}", want: &zones.Link{Bandwidth: 12500000}},
		{study: "cluster: {network: {client_rtt: 0ms}}", want: &zones.Link{}},
		{study: "cluster: {network: {client_rtt: 10ms}}\ndefaults: {listener: remote}", want: &zones.Link{RTT: 10 * time.Millisecond}},
		{study: "cluster: {brokers: 3}", want: nil},
		{study: "cluster: {network: {client_rtt: fast}}", err: "f.yaml:2: cluster.network.client_rtt: \"fast\" is not a round-trip time"},
		{study: "cluster: {network: {client_rtt: 11s}}", err: "cluster.network.client_rtt: \"11s\" is not a round-trip time from 0 to 10s"},
		{study: "cluster: {network: {client_bandwidth: 1KiB}}", err: "cluster.network.client_bandwidth: bandwidth 1KiB: want at least 64KiB"},
		{study: "cluster: {network: {client_bandwidth: lots}}", err: "cluster.network.client_bandwidth: bandwidth \"lots\""},
		{study: "cluster: {network: {rtt: 10ms}}", err: "cluster.network.rtt: unknown key \"rtt\""},
		{study: "cluster: {network: {}}", err: "cluster.network: empty"},
		{study: "cluster: {network: {client_rtt: 10ms}, external: {bootstrap: k:9092}}", err: "cluster.network: applies only to the embedded cluster"},
		{study: "cluster: {brokers: 3}\ndefaults: {listener: remote}", err: "listener remote needs cluster.network"},
	} {
		plan, err := Parse("f.yaml", []byte("name: f\n"+tc.study+"\n"))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.study, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.study, err)
			continue
		}
		got := plan.Cluster.Network
		if (got == nil) != (tc.want == nil) || (got != nil && *got != *tc.want) {
			t.Errorf("%s: network %+v, want %+v", tc.study, got, tc.want)
		}
	}
}

// TestParseClientRTTParameter sweeps client_rtt: each scenario carries its RTT, and the
// parameter needs the remote listener.
func TestParseClientRTTParameter(t *testing.T) {
	plan, err := Parse("f.yaml", []byte("name: f\ncluster: {network: {client_rtt: 10ms}}\nmatrix: {client_rtt: [0ms, 10ms, 25ms]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{0, 10 * time.Millisecond, 25 * time.Millisecond}
	if len(plan.Scenarios) != len(want) {
		t.Fatalf("%d scenarios, want %d", len(plan.Scenarios), len(want))
	}
	for i, sc := range plan.Scenarios {
		if sc.ClientRTT == nil || *sc.ClientRTT != want[i] {
			t.Errorf("scenario %s: client_rtt %v, want %s", sc.ID, sc.ClientRTT, want[i])
		}
	}
	for _, tc := range []struct{ study, err string }{
		{"cluster: {brokers: 3}\nmatrix: {client_rtt: [0ms, 10ms]}", "client_rtt needs cluster.network"},
		{"cluster: {network: {client_rtt: 1ms}}\nmatrix: {client_rtt: [0ms, 10ms]}\ndefaults: {listener: plain}", "client_rtt applies to the remote listener"},
		{"cluster: {network: {client_rtt: 1ms}}\nmatrix: {client_rtt: [0ms, soon]}", "\"soon\" is not a round-trip time"},
	} {
		_, err := Parse("f.yaml", []byte("name: f\n"+tc.study+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.study, err, tc.err)
		}
	}
}

// TestParseBrokerRTT reads broker_rtt apart from the client link: alone it adds no remote
// listener.
func TestParseBrokerRTT(t *testing.T) {
	plan, err := Parse("f.yaml", []byte("name: f\ncluster: {network: {broker_rtt: 2ms}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if b := plan.Cluster.BrokerNetwork; b == nil || b.RTT != 2*time.Millisecond || plan.Cluster.Network != nil {
		t.Errorf("broker %v, client %v; want a 2ms broker link and no client link", b, plan.Cluster.Network)
	}
	plan, err = Parse("f.yaml", []byte("name: f\ncluster: {network: {broker_rtt: 1ms, client_rtt: 10ms}}\n"))
	if err != nil || plan.Cluster.Network == nil || plan.Cluster.BrokerNetwork == nil {
		t.Fatalf("both links: %v, %+v", err, plan)
	}
	if _, err := Parse("f.yaml", []byte("name: f\ncluster: {network: {broker_rtt: far}}\n")); err == nil ||
		!strings.Contains(err.Error(), "cluster.network.broker_rtt: \"far\" is not a round-trip time") {
		t.Errorf("bad broker_rtt: %v", err)
	}
}

// TestParseLinkParameters sweeps client_bandwidth and broker_rtt: each scenario carries its
// value (bytes per second computed by hand), and each parameter needs the proxies it
// changes.
func TestParseLinkParameters(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name, study string
		bandwidth   []int64         // each scenario's client_bandwidth, nil: not set
		brokerRTT   []time.Duration // each scenario's broker_rtt, nil: not set
		err         string
	}{
		{name: "bandwidth sweep", study: "cluster: {network: {client_rtt: 2ms}}\nmatrix: {client_bandwidth: [unlimited, 100MiB, 12.5MB, 64KiB]}",
			// unlimited = 0; 100 x 1,048,576 = 104,857,600; 12.5 x 1,000,000 = 12,500,000; 64 x 1,024 = 65,536
			bandwidth: []int64{0, 104857600, 12500000, 65536}},
		{name: "broker rtt sweep", study: "cluster: {network: {broker_rtt: 0ms}}\nmatrix: {broker_rtt: [0ms, 2ms, 10ms]}",
			brokerRTT: []time.Duration{0, 2 * ms, 10 * ms}},
		{name: "both with the client rtt", study: "cluster: {network: {client_rtt: 1ms, broker_rtt: 1ms}}\nmatrix: {client_rtt: [1ms], client_bandwidth: [10MiB], broker_rtt: [5ms]}",
			// 10 x 1,048,576 = 10,485,760
			bandwidth: []int64{10485760}, brokerRTT: []time.Duration{5 * ms}},
		{name: "bandwidth without the remote listener", study: "cluster: {brokers: 3}\nmatrix: {client_bandwidth: [10MiB, 20MiB]}",
			err: "f.yaml:3: matrix.client_bandwidth[0]: scenario client_bandwidth=10MiB: client_bandwidth needs cluster.network"},
		{name: "bandwidth with only a broker link", study: "cluster: {network: {broker_rtt: 1ms}}\nmatrix: {client_bandwidth: [10MiB]}",
			err: "client_bandwidth needs cluster.network"},
		{name: "bandwidth on the plain listener", study: "cluster: {network: {client_rtt: 1ms}}\ndefaults: {listener: plain}\nmatrix: {client_bandwidth: [10MiB]}",
			err: "client_bandwidth applies to the remote listener, and the scenario uses listener plain"},
		{name: "bandwidth too small", study: "cluster: {network: {client_rtt: 1ms}}\nmatrix: {client_bandwidth: [1KiB]}",
			err: "f.yaml:3: matrix.client_bandwidth[0]: bandwidth 1KiB: want at least 64KiB"},
		{name: "bandwidth not a size", study: "cluster: {network: {client_rtt: 1ms}}\nmatrix: {client_bandwidth: [fast]}",
			err: "\"fast\" is not a bandwidth per direction such as 100MiB, or unlimited"},
		{name: "broker rtt without broker proxies", study: "cluster: {network: {client_rtt: 1ms}}\nmatrix: {broker_rtt: [0ms, 2ms]}",
			err: "broker_rtt needs cluster.network: {broker_rtt: 0ms}"},
		{name: "broker rtt not a duration", study: "cluster: {network: {broker_rtt: 0ms}}\nmatrix: {broker_rtt: [far]}",
			err: "matrix.broker_rtt[0]: \"far\" is not a round-trip time from 0 to 10s"},
		{name: "broker rtt too long", study: "cluster: {network: {broker_rtt: 0ms}}\nmatrix: {broker_rtt: [20s]}",
			err: "\"20s\" is not a round-trip time from 0 to 10s"},
		{name: "broker rtt external", study: "cluster: {external: {bootstrap: k:9092}}\nmatrix: {broker_rtt: [1ms]}",
			err: "broker_rtt needs cluster.network"},
	} {
		plan, err := Parse("f.yaml", []byte("name: f\n"+tc.study+"\n"))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		for i, sc := range plan.Scenarios {
			if tc.bandwidth != nil && (sc.ClientBandwidth == nil || *sc.ClientBandwidth != tc.bandwidth[i]) {
				t.Errorf("%s: scenario %s: client_bandwidth %v, want %d", tc.name, sc.ID, sc.ClientBandwidth, tc.bandwidth[i])
			}
			if tc.brokerRTT != nil && (sc.BrokerRTT == nil || *sc.BrokerRTT != tc.brokerRTT[i]) {
				t.Errorf("%s: scenario %s: broker_rtt %v, want %s", tc.name, sc.ID, sc.BrokerRTT, tc.brokerRTT[i])
			}
		}
	}
}
