// Package netns makes client "hosts" on one machine, for tests of kbench across hosts: each
// host is a network namespace joined to the root namespace by a veth pair on a /30 of its
// own, with a default route through it. A process started in a host reaches the root
// namespace's addresses (where the brokers listen, cluster.Options.Host) only over its
// veth, as a client on another machine reaches a cluster over its network, and its own
// 127.0.0.1 is not the brokers'.
//
// It needs root and ip(8) (Available says why not). It deletes only what it created, by
// name: namespaces kbench-netns-<pid>-<i> and root-side veths kbn<pid>h<i>, on 10.231.X.0/30
// ranges no interface or specific route of the machine uses. Ones left by a process that
// died (SIGKILL, a test timeout) are removed by the next New.
package netns

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"strings"
)

// Host is one network namespace acting as a client host.
type Host struct {
	// Name is the namespace's name, as ip netns exec takes it.
	Name string
	// Addr is the host's own address, inside its namespace: where its connections come from.
	Addr netip.Addr
	// Gateway is the root namespace's end of the host's veth, the host's default route.
	Gateway netip.Addr
	link    string // the root-side veth
}

// Net is a set of hosts made by New.
type Net struct {
	Hosts []Host
}

// Server is an address of the root namespace that every host reaches (the first host's
// gateway; the others route to it through their own): where to start servers for them.
func (n *Net) Server() netip.Addr { return n.Hosts[0].Gateway }

// Command returns a command that runs name with args inside h's namespace. ip netns exec
// enters the namespace and then execs name, so the command's PID is name's own: stop it by
// that PID.
func (h Host) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, "ip", append([]string{"netns", "exec", h.Name, name}, args...)...)
}

// Cut takes h's link down: the host drops off the network at once, its connections left
// open but silent, as a pulled cable or a partition leaves them (no reset reaches either
// side). Restore brings it back.
func (h Host) Cut(ctx context.Context) error { return ip(ctx, "link", "set", h.link, "down") }

// Restore undoes Cut. The host's default route went with the link, so it is added again.
func (h Host) Restore(ctx context.Context) error {
	if err := ip(ctx, "link", "set", h.link, "up"); err != nil {
		return err
	}
	return ip(ctx, "-n", h.Name, "route", "replace", "default", "via", h.Gateway.String())
}

// Available returns nil when this process can make hosts, otherwise an error saying why
// (tests skip with it).
func Available() error {
	if os.Geteuid() != 0 {
		return errors.New("network namespaces need root")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		return errors.New("ip(8) not found (iproute2)")
	}
	if out, err := exec.Command("ip", "netns", "list").CombinedOutput(); err != nil {
		return fmt.Errorf("ip netns list: %v: %s", err, strings.TrimSpace(string(out)))
	}
	return nil
}

// New makes n hosts. On failure it removes what it made.
func New(ctx context.Context, n int) (*Net, error) {
	if n < 1 || n > 64 {
		return nil, fmt.Errorf("hosts %d: want 1 to 64", n)
	}
	if err := Available(); err != nil {
		return nil, err
	}
	// One process at a time picks free ranges and claims them, so two test binaries
	// running at once never take the same one.
	unlock, err := lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	removeStale(ctx)
	free, err := freeRanges(n)
	if err != nil {
		return nil, err
	}
	made := &Net{}
	for i, r := range free {
		h := Host{
			Name:    fmt.Sprintf("%s%d-%d", nsPrefix, os.Getpid(), i),
			Gateway: r.Addr().Next(),        // 10.231.X.1
			Addr:    r.Addr().Next().Next(), // 10.231.X.2
			link:    fmt.Sprintf("%s%dh%d", linkPrefix, os.Getpid(), i),
		}
		made.Hosts = append(made.Hosts, h)
		if err := h.create(ctx, r.Bits()); err != nil {
			_ = made.Close()
			return nil, err
		}
	}
	return made, nil
}

// create makes h's namespace and veth pair and addresses both ends.
func (h Host) create(ctx context.Context, bits int) error {
	peer := "kbp" + strings.TrimPrefix(h.link, linkPrefix)
	steps := [][]string{
		{"netns", "add", h.Name},
		{"link", "add", h.link, "type", "veth", "peer", "name", peer},
		{"link", "set", peer, "netns", h.Name},
		{"addr", "add", fmt.Sprintf("%s/%d", h.Gateway, bits), "dev", h.link},
		{"link", "set", h.link, "up"},
		{"-n", h.Name, "link", "set", peer, "name", "eth0"},
		{"-n", h.Name, "addr", "add", fmt.Sprintf("%s/%d", h.Addr, bits), "dev", "eth0"},
		{"-n", h.Name, "link", "set", "eth0", "up"},
		{"-n", h.Name, "link", "set", "lo", "up"},
		// Every root-namespace address (another host's gateway too) goes over the veth.
		{"-n", h.Name, "route", "add", "default", "via", h.Gateway.String()},
	}
	for _, args := range steps {
		if err := ip(ctx, args...); err != nil {
			return fmt.Errorf("make host %s: %w", h.Name, err)
		}
	}
	return nil
}

// Close deletes the hosts' veths and namespaces. Processes still running in a namespace
// keep it alive (without its name) until they exit: stop them first.
func (n *Net) Close() error {
	var errs []error
	for _, h := range n.Hosts {
		errs = append(errs, remove(context.Background(), h.Name, h.link))
	}
	return errors.Join(errs...)
}

// remove deletes a namespace and a root-side veth (its peer goes with it), each only if it
// exists.
func remove(ctx context.Context, name, link string) error {
	var errs []error
	if linkExists(link) {
		errs = append(errs, ip(ctx, "link", "del", link))
	}
	if nsExists(name) {
		errs = append(errs, ip(ctx, "netns", "del", name))
	}
	return errors.Join(errs...)
}

// ip runs ip(8) and returns its output in the error.
func ip(ctx context.Context, args ...string) error {
	out, err := exec.CommandContext(ctx, "ip", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ip %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

func linkExists(name string) bool {
	return exec.Command("ip", "link", "show", "dev", name).Run() == nil
}

func nsExists(name string) bool {
	_, err := os.Stat("/run/netns/" + name)
	return err == nil
}
