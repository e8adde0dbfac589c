package netns

import (
	"net/netip"
	"slices"
	"testing"
)

func TestRoutePrefixes(t *testing.T) {
	out := `default via 192.0.2.1 dev eth0
10.0.0.0/8 via 192.0.2.5 dev eth0
10.231.5.0/30 dev kbn1h0 proto kernel scope link src 10.231.5.1
192.0.2.0/24 dev eth0 proto kernel scope link src 192.0.2.2
local 10.231.5.1 dev kbn1h0 table local proto kernel scope host src 10.231.5.1
broadcast 10.231.5.3 dev kbn1h0 table local proto kernel scope link src 10.231.5.1
local 127.0.0.0/8 dev lo table local proto kernel scope host src 127.0.0.1
`
	// Kept: the /30 and the two /32s inside the pool. Left out: default, the /8 (broader
	// than /16), and everything outside 10.231.0.0/16.
	want := []netip.Prefix{
		netip.MustParsePrefix("10.231.5.0/30"),
		netip.MustParsePrefix("10.231.5.1/32"),
		netip.MustParsePrefix("10.231.5.3/32"),
	}
	if got := routePrefixes(out); !slices.Equal(got, want) {
		t.Errorf("routePrefixes = %v, want %v", got, want)
	}
}
