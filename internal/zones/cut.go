package zones

import (
	"fmt"
	"net"
)

// Cut cuts route name, or mends it (cut false): while cut, its open connections are closed
// and every new one is closed as soon as it is accepted, so no one reaches the broker
// listener behind it through the proxy, as when a broker's network fails. Closing rather
// than holding connections makes clients see the failure at once and retry, as after a
// broker's crash; the other routes are untouched.
func (p *Proxy) Cut(name string, cut bool) error {
	var r *route
	for _, x := range p.routes {
		if x.Name == name {
			r = x
		}
	}
	if r == nil {
		return fmt.Errorf("proxy route %q: not one of this proxy's routes", name)
	}
	r.cut.Store(cut)
	if !cut {
		return nil
	}
	p.mu.Lock()
	var open []net.Conn
	for c, owner := range p.conns {
		if owner == r {
			open = append(open, c)
		}
	}
	p.mu.Unlock()
	// Closing ends both directions' pipes, which untrack the connection.
	for _, c := range open {
		c.Close()
	}
	return nil
}

// Routes returns the proxy's routes, in the order they were given.
func (p *Proxy) Routes() []Route {
	out := make([]Route, len(p.routes))
	for i, r := range p.routes {
		out[i] = r.Route
	}
	return out
}
