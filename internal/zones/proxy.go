package zones

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Route is one proxied address: connections accepted at Listen are carried to Target.
type Route struct {
	// Name identifies the route in counters, e.g. "remote-1" for broker 1's remote listener.
	Name string
	// Listen is the proxy's address, "127.0.0.1:0" for any free port.
	Listen string
	// Target is the broker listener's address.
	Target string
}

// Counters are one route's totals since the proxy started.
type Counters struct {
	// Accepts is the connections accepted.
	Accepts int64
	// Up is the bytes delivered towards the target, Down those delivered back.
	Up, Down int64
}

// Proxy serves a set of routes over one link. Its methods are safe for concurrent use.
type Proxy struct {
	shaping atomic.Pointer[shaping]
	routes  []*route
	wg      sync.WaitGroup
	mu      sync.Mutex
	conns   map[net.Conn]*route
	closed  bool
}

type route struct {
	Route
	ln       net.Listener
	accepts  atomic.Int64
	up, down atomic.Int64
	cut      atomic.Bool // see Cut
}

// Start listens on every route's address and serves until Close. A route whose address
// cannot be bound fails the whole start.
func Start(link Link, routes []Route) (*Proxy, error) {
	if err := link.Validate(); err != nil {
		return nil, err
	}
	p := &Proxy{conns: map[net.Conn]*route{}}
	p.shaping.Store(newShaping(link))
	for _, r := range routes {
		ln, err := net.Listen("tcp", r.Listen)
		if err != nil {
			p.Close()
			return nil, fmt.Errorf("proxy %s: listen on %s: %w", r.Name, r.Listen, err)
		}
		p.routes = append(p.routes, &route{Route: r, ln: ln})
	}
	for _, r := range p.routes {
		p.wg.Add(1)
		go p.serve(r)
	}
	return p, nil
}

// shaping is the link in force: its one-way delay and a token bucket per direction
// (client -> broker up, broker -> client down), shared by every route. SetLink swaps it
// whole, so a chunk sees one link, never half of two.
type shaping struct {
	link     Link
	up, down *bucket
}

func newShaping(l Link) *shaping {
	now := time.Now()
	return &shaping{link: l, up: newBucket(l.Bandwidth, now), down: newBucket(l.Bandwidth, now)}
}

// Link returns the link the proxy applies.
func (p *Proxy) Link() Link { return p.shaping.Load().link }

// SetLink changes the link for every chunk read from now on, on open connections too (a
// study sweeping client_rtt changes it between scenarios without restarting anything).
// Chunks already queued keep the due time they were given.
func (p *Proxy) SetLink(l Link) error {
	if err := l.Validate(); err != nil {
		return err
	}
	p.shaping.Store(newShaping(l))
	return nil
}

// Addrs returns each route's listening address, in the order the routes were given.
func (p *Proxy) Addrs() []string {
	out := make([]string, len(p.routes))
	for i, r := range p.routes {
		out[i] = r.ln.Addr().String()
	}
	return out
}

// Counters returns each route's totals by route name.
func (p *Proxy) Counters() map[string]Counters {
	out := make(map[string]Counters, len(p.routes))
	for _, r := range p.routes {
		out[r.Name] = Counters{Accepts: r.accepts.Load(), Up: r.up.Load(), Down: r.down.Load()}
	}
	return out
}

// Close stops listening, closes every open connection and waits for them to end.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	for _, r := range p.routes {
		r.ln.Close()
	}
	p.wg.Wait()
	return nil
}

func (p *Proxy) serve(r *route) {
	defer p.wg.Done()
	for {
		client, err := r.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// A transient accept error (out of descriptors) must not end the route.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		r.accepts.Add(1)
		if r.cut.Load() {
			client.Close()
			continue
		}
		p.wg.Add(1)
		go p.carry(r, client)
	}
}

// carry connects to the target and runs both directions. The client's connect completes
// at the proxy without delay, so the first request of a connection, not its TCP handshake,
// pays the first round trip; Kafka clients keep their connections, so only each
// connection's first request is concerned.
func (p *Proxy) carry(r *route, client net.Conn) {
	defer p.wg.Done()
	server, err := net.DialTimeout("tcp", r.Target, 10*time.Second)
	if err != nil {
		client.Close()
		return
	}
	if !p.track(r, client, server) {
		return
	}
	defer p.untrack(client, server)
	for _, c := range []net.Conn{client, server} {
		if tcp, ok := c.(*net.TCPConn); ok {
			_ = tcp.SetNoDelay(true)
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go pipe{src: client, dst: server, shaping: &p.shaping, up: true, bytes: &r.up}.run(wg.Done)
	go pipe{src: server, dst: client, shaping: &p.shaping, bytes: &r.down}.run(wg.Done)
	wg.Wait()
}

func (p *Proxy) track(r *route, conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	// A cut that came while this connection was dialling closes it here.
	if p.closed || r.cut.Load() {
		for _, c := range conns {
			c.Close()
		}
		return false
	}
	for _, c := range conns {
		p.conns[c] = r
	}
	return true
}

func (p *Proxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		c.Close()
		delete(p.conns, c)
	}
}

// String writes the route as ParseRoute reads it: "name=listen@target".
func (r Route) String() string { return r.Name + "=" + r.Listen + "@" + r.Target }

// ParseRoute reads "name=listen@target", e.g. "remote-1=127.0.0.1:9100@127.0.0.1:9092".
func ParseRoute(s string) (Route, error) {
	name, rest, ok1 := strings.Cut(s, "=")
	listen, target, ok2 := strings.Cut(rest, "@")
	if !ok1 || !ok2 || name == "" || listen == "" || target == "" {
		return Route{}, fmt.Errorf("route %q: want name=listen-address@target-address, e.g. remote-1=127.0.0.1:9100@127.0.0.1:9092", s)
	}
	for _, a := range []string{listen, target} {
		if _, _, err := net.SplitHostPort(a); err != nil {
			return Route{}, fmt.Errorf("route %q: %q is not host:port", s, a)
		}
	}
	return Route{Name: name, Listen: listen, Target: target}, nil
}
