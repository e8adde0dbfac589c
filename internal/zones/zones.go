// Package zones puts a network between a Kafka client and the brokers: a userspace TCP
// proxy per broker that delays every byte by half the round-trip time in each direction
// and can cap the bandwidth, so that a listener advertised at the proxies behaves like a
// broker in another availability zone. Kafka clients connect only to advertised
// addresses, so no connection of theirs can go around the proxies.
//
// Why an own proxy rather than toxiproxy v2 as a library: toxiproxy's latency toxic
// sleeps per chunk in the goroutine that passes chunks on, so how far a delay bounds a
// connection's throughput depends on its internal channel buffering, which kbench would
// have to measure and could not tune; its bandwidth toxic is per connection, not per link;
// and it brings an HTTP control API and its dependencies that kbench does not need. The
// proxy here is about 250 lines: each direction of a connection is a reader that stamps
// each chunk with its due time (read time + RTT/2) and queues it, and a writer that sends
// it when due, so the delay adds latency without limiting throughput (up to 16 MiB in
// flight per direction); one token bucket per direction is shared by all connections of a
// link, as a zone link's capacity is; accepts are counted per route (one route per broker
// listener), which is how tests
// prove that every client connection came through. The proxy runs either in the process
// that uses it or as its own process (`kbench zones proxy`), whose CPU is then measured
// by PID like a broker's.
package zones

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Link is the network between two zones.
type Link struct {
	// RTT is the round-trip time the link adds; each direction is delayed by RTT/2.
	RTT time.Duration
	// Bandwidth caps each direction in bytes per second, shared by every connection of
	// the link; 0 means unlimited.
	Bandwidth int64
}

// OneWay is the delay applied to each direction.
func (l Link) OneWay() time.Duration { return l.RTT / 2 }

// Validate rejects a negative delay or bandwidth and delays beyond 10 s, which are typos.
func (l Link) Validate() error {
	if l.RTT < 0 || l.RTT > 10*time.Second {
		return fmt.Errorf("rtt %s: want 0 to 10s", l.RTT)
	}
	if l.Bandwidth < 0 {
		return fmt.Errorf("bandwidth %d: want a positive size per second such as 100MiB", l.Bandwidth)
	}
	if l.Bandwidth > 0 && l.Bandwidth < 64<<10 {
		return fmt.Errorf("bandwidth %s: want at least 64KiB per second", FormatBandwidth(l.Bandwidth))
	}
	return nil
}

// String describes the link for logs and reports: "rtt 10ms, 100MiB/s".
func (l Link) String() string {
	s := "rtt " + l.RTT.String()
	if l.Bandwidth > 0 {
		s += ", " + FormatBandwidth(l.Bandwidth) + "/s"
	}
	return s
}

var units = []struct {
	suffix string
	mult   int64
}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1}}

// ParseBandwidth reads a size per second: "100MiB", "12.5MB", "1GiB", "500000" (bytes).
// A trailing "/s" is accepted. Binary and decimal units are kept apart, as MiB and MB
// differ by 5%.
func ParseBandwidth(s string) (int64, error) {
	t := strings.TrimSuffix(strings.TrimSpace(s), "/s")
	mult := int64(1)
	for _, u := range units {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("bandwidth %q: want a size per second such as 100MiB, 12.5MB or 1GiB", s)
	}
	return int64(v * float64(mult)), nil
}

// FormatBandwidth writes bytes in the largest binary unit that divides them evenly, so it
// reads back through ParseBandwidth unchanged.
func FormatBandwidth(b int64) string {
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b >= u.mult && b%u.mult == 0 {
			return fmt.Sprintf("%d%s", b/u.mult, u.suffix)
		}
	}
	return fmt.Sprintf("%dB", b)
}
