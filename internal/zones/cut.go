package zones

import (
	"encoding/json"
	"fmt"
	"net"
	"os"

	"github.com/kbench/kbench/internal/atomicfile"
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

// CutFile is the file, in the proxy process's working directory, naming the routes to keep
// cut, read on SIGHUP (and removed once applied) as the link files are.
const CutFile = "cut.json"

type cutJSON struct {
	Cut []string `json:"cut"`
}

// WriteCutFile writes the whole set of routes to keep cut (every other route is mended) to
// path for a proxy process to read on SIGHUP.
func WriteCutFile(path string, routes []string) error {
	data, _ := json.Marshal(cutJSON{Cut: append([]string{}, routes...)})
	if err := atomicfile.Write(path, data, 0o644); err != nil {
		return fmt.Errorf("write proxy cut: %w", err)
	}
	return nil
}

// ReadCutFile reads the routes written by WriteCutFile.
func ReadCutFile(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read proxy cut: %w", err)
	}
	var c cutJSON
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return c.Cut, nil
}

// SetCut cuts exactly the named routes this proxy has and mends its others; it returns the
// names it has no route for (another proxy's, or none's).
func (p *Proxy) SetCut(names []string) (unknown []string) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	for _, r := range p.routes {
		_ = p.Cut(r.Name, want[r.Name])
		delete(want, r.Name)
	}
	for _, n := range names {
		if want[n] {
			unknown = append(unknown, n)
		}
	}
	return unknown
}
