package cluster

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strings"
)

// errPortTaken marks a start that failed because another process bound a chosen port first.
var errPortTaken = errors.New("a chosen port was taken before its broker bound it")

// portTakenMarker is what a Kafka broker logs when its socket server cannot bind.
const portTakenMarker = "Address already in use"

// ephemeralRangeFile holds the range the kernel draws ports from for listen(:0) and for
// every outgoing connection.
const ephemeralRangeFile = "/proc/sys/net/ipv4/ip_local_port_range"

// lowestPort is the bottom of the range kbench draws listener ports from, above the ports
// services are usually configured on.
const lowestPort = 20000

// portPicker chooses loopback ports for brokers and holds each open until all are chosen,
// so no two listeners get the same one. The ports lie below the kernel's ephemeral range:
// a port from listen(:0) is closed before the broker binds it, and in that gap any outgoing
// connection on the host (the clients of another cluster, a test running beside this one)
// can take it as its local port. Below the range only another explicit bind can.
type portPicker struct {
	low, high int // the range to draw from, [low, high); empty when the kernel's range starts too low
	held      []net.Listener
}

func newPortPicker() *portPicker {
	p := &portPicker{}
	if data, err := os.ReadFile(ephemeralRangeFile); err == nil {
		var lo, hi int
		if _, err := fmt.Sscan(string(data), &lo, &hi); err == nil && lo > lowestPort+1000 {
			p.low, p.high = lowestPort, lo
		}
	}
	return p
}

// next returns a free port on 127.0.0.1 and keeps it bound until release.
func (p *portPicker) next() (int, error) {
	for range 100 {
		if p.high <= p.low {
			break
		}
		port := p.low + rand.IntN(p.high-p.low)
		if l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			p.held = append(p.held, l)
			return port, nil
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port on 127.0.0.1: %w", err)
	}
	p.held = append(p.held, l)
	return l.Addr().(*net.TCPAddr).Port, nil
}

// release closes every held port, for the brokers to bind.
func (p *portPicker) release() {
	for _, l := range p.held {
		l.Close()
	}
	p.held = nil
}

// portTaken reports whether a broker's log says it could not bind its port.
func portTaken(log string) bool { return strings.Contains(log, portTakenMarker) }
