package netns

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

const (
	// nsPrefix and linkPrefix start every name this package gives; the process ID that
	// follows tells whether the maker is still alive.
	nsPrefix   = "kbench-netns-"
	linkPrefix = "kbn"
)

// pool is where the hosts' /30 ranges come from: 10.231.X.0/30 for X in 0..255, a corner
// of the private 10/8 that networks seldom use.
var pool = netip.MustParsePrefix("10.231.0.0/16")

// freeRanges returns n ranges 10.231.X.0/30 that overlap no address of this machine's
// interfaces and no route of /16 or narrower (a broad route such as a VPN's 10.0.0.0/8 only
// loses four of its addresses to a /30 here, on this machine, while the test runs).
func freeRanges(n int) ([]netip.Prefix, error) {
	used, err := usedPrefixes()
	if err != nil {
		return nil, err
	}
	var free []netip.Prefix
	for x := 0; x < 256 && len(free) < n; x++ {
		r := netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 231, byte(x), 0}), 30)
		taken := false
		for _, u := range used {
			taken = taken || u.Overlaps(r)
		}
		if !taken {
			free = append(free, r)
		}
	}
	if len(free) < n {
		return nil, fmt.Errorf("only %d of %d free /30 ranges in %s", len(free), n, pool)
	}
	return free, nil
}

// usedPrefixes lists the prefixes of this machine's interface addresses and its IPv4 routes
// of /16 or narrower inside the pool.
func usedPrefixes() ([]netip.Prefix, error) {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil, fmt.Errorf("list addresses: %w", err)
	}
	var used []netip.Prefix
	for _, a := range addrs {
		if p, err := netip.ParsePrefix(a.String()); err == nil {
			used = append(used, p.Masked())
		}
	}
	out, err := exec.Command("ip", "-4", "route", "show", "table", "all").Output()
	if err != nil {
		return nil, fmt.Errorf("ip route show: %w", err)
	}
	used = append(used, routePrefixes(string(out))...)
	return used, nil
}

// routePrefixes reads the destinations of `ip -4 route show` lines ("10.231.5.0/30 dev
// ...", "local 10.231.5.1 dev ...") that are /16 or narrower and inside the pool.
func routePrefixes(out string) []netip.Prefix {
	var ps []netip.Prefix
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		for len(f) > 0 && (f[0] == "local" || f[0] == "broadcast" || f[0] == "unicast") {
			f = f[1:]
		}
		if len(f) == 0 {
			continue
		}
		dst := f[0]
		if !strings.Contains(dst, "/") {
			dst += "/32"
		}
		p, err := netip.ParsePrefix(dst)
		if err != nil || p.Bits() < 16 || !pool.Overlaps(p) {
			continue
		}
		ps = append(ps, p.Masked())
	}
	return ps
}

// lock takes an exclusive lock shared by every process using this package.
func lock() (func(), error) {
	path := filepath.Join(os.TempDir(), "kbench-netns.lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}

var (
	staleNS   = regexp.MustCompile(`^` + nsPrefix + `([0-9]+)-([0-9]+)$`)
	staleLink = regexp.MustCompile(`^` + linkPrefix + `([0-9]+)h([0-9]+)$`)
)

// removeStale deletes the namespaces and veths of this package whose maker has exited.
// A failure leaves them: they only hold addresses that freeRanges then skips.
func removeStale(ctx context.Context) {
	if entries, err := os.ReadDir("/run/netns"); err == nil {
		for _, e := range entries {
			if m := staleNS.FindStringSubmatch(e.Name()); m != nil && dead(m[1]) {
				_ = remove(ctx, e.Name(), linkPrefix+m[1]+"h"+m[2])
			}
		}
	}
	links, err := net.Interfaces()
	if err != nil {
		return
	}
	for _, l := range links {
		if m := staleLink.FindStringSubmatch(l.Name); m != nil && dead(m[1]) {
			_ = remove(ctx, nsPrefix+m[1]+"-"+m[2], l.Name)
		}
	}
}

// dead reports whether no process has the ID pid.
func dead(pid string) bool {
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return false
	}
	return syscall.Kill(n, 0) == syscall.ESRCH
}
