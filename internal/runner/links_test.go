package runner

import (
	"testing"
	"time"

	"github.com/kbench/kbench/internal/study"
	"github.com/kbench/kbench/internal/zones"
)

// TestWantLinks: a scenario's swept values change only their own field of the link the
// cluster started with; what it does not set returns to that link, never to the previous
// repeat's.
func TestWantLinks(t *testing.T) {
	ms := time.Millisecond
	d := func(v time.Duration) *time.Duration { return &v }
	b := func(v int64) *int64 { return &v }
	base := &zones.Link{RTT: 2 * ms, Bandwidth: 100 << 20}
	broker := &zones.Link{RTT: 1 * ms}
	for _, tc := range []struct {
		name               string
		sc                 study.Scenario
		client, brk        *zones.Link
		wantClient, wantBr *zones.Link
	}{
		{"nothing swept keeps the base", study.Scenario{}, base, broker, base, broker},
		{"client rtt keeps the bandwidth", study.Scenario{ClientRTT: d(10 * ms)}, base, nil,
			&zones.Link{RTT: 10 * ms, Bandwidth: 100 << 20}, nil},
		{"bandwidth keeps the rtt; 0 is unlimited", study.Scenario{ClientBandwidth: b(0)}, base, nil,
			&zones.Link{RTT: 2 * ms}, nil},
		{"broker rtt alone", study.Scenario{BrokerRTT: d(5 * ms)}, nil, broker, nil, &zones.Link{RTT: 5 * ms}},
		{"all three", study.Scenario{ClientRTT: d(0), ClientBandwidth: b(1 << 20), BrokerRTT: d(0)}, base, broker,
			&zones.Link{Bandwidth: 1 << 20}, &zones.Link{}},
		{"no proxies: nothing to set", study.Scenario{ClientRTT: d(ms)}, nil, nil, nil, nil},
	} {
		c, br := wantLinks(tc.sc, tc.client, tc.brk)
		if !sameLink(c, tc.wantClient) || !sameLink(br, tc.wantBr) {
			t.Errorf("%s: client %v broker %v, want %v and %v", tc.name, c, br, tc.wantClient, tc.wantBr)
		}
	}
	if *base != (zones.Link{RTT: 2 * ms, Bandwidth: 100 << 20}) {
		t.Errorf("the base link was changed: %v", base)
	}
}

func sameLink(a, b *zones.Link) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}
