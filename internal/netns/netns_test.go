package netns_test

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/cli"
	"github.com/kbench/kbench/internal/netns"
)

// helperEnv makes this test binary act as another program when it runs inside a host:
// "kbench" runs kbench's CLI with the arguments, "dial ADDR" connects to ADDR and sends a line.
const helperEnv = "KBENCH_NETNS_HELPER"

func TestMain(m *testing.M) {
	switch mode := os.Getenv(helperEnv); {
	case mode == "kbench":
		os.Exit(cli.Main(os.Args[1:]))
	case strings.HasPrefix(mode, "dial "):
		os.Exit(dial(strings.TrimPrefix(mode, "dial ")))
	}
	os.Exit(m.Run())
}

func dial(addr string) int {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer conn.Close()
	fmt.Fprintln(conn, "hello")
	return 0
}

// guard bounds each process a test starts: it must end, not hang. A guard, not a measurement.
const guard = 3 * time.Minute

// newNet makes n hosts for t, or skips t where that is impossible.
func newNet(t *testing.T, n int) *netns.Net {
	t.Helper()
	if err := netns.Available(); err != nil {
		t.Skipf("no network namespaces here: %v", err)
	}
	hosts, err := netns.New(context.Background(), n)
	if err != nil {
		t.Fatalf("netns.New: %v", err)
	}
	t.Cleanup(func() {
		if err := hosts.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return hosts
}

// helper returns a command running this test binary as mode inside h.
func helper(t *testing.T, ctx context.Context, h netns.Host, mode string, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := h.Command(ctx, self, args...)
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	return cmd
}

// TestHostsReachServer checks that each host reaches the root namespace's server address
// from its own address, that its 127.0.0.1 is its own, and that Close removes what New made.
func TestHostsReachServer(t *testing.T) {
	hosts := newNet(t, 2)
	ln, err := net.Listen("tcp", netip.AddrPortFrom(hosts.Server(), 0).String())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	local, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()

	from := make(chan string, len(hosts.Hosts))
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			line, _ := bufio.NewReader(conn).ReadString('\n')
			if line == "hello\n" {
				from <- conn.RemoteAddr().(*net.TCPAddr).IP.String()
			}
			conn.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	var want []string
	for _, h := range hosts.Hosts {
		want = append(want, h.Addr.String())
		if out, err := helper(t, ctx, h, "dial "+ln.Addr().String()).CombinedOutput(); err != nil {
			t.Fatalf("host %s dialing %s: %v: %s", h.Name, ln.Addr(), err, out)
		}
		// The root namespace's loopback is not the host's: nothing listens on its own.
		if err := helper(t, ctx, h, "dial "+local.Addr().String()).Run(); err == nil {
			t.Errorf("host %s reached the root namespace's %s", h.Name, local.Addr())
		}
	}
	var got []string
	for range hosts.Hosts {
		got = append(got, <-from)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("connections came from %v, want the hosts' addresses %v", got, want)
	}

	if err := hosts.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for _, h := range hosts.Hosts {
		if _, err := os.Stat("/run/netns/" + h.Name); err == nil {
			t.Errorf("namespace %s left after Close", h.Name)
		}
		if addrs := interfaceAddrs(t); slices.Contains(addrs, h.Gateway.String()) {
			t.Errorf("gateway %s still on an interface after Close", h.Gateway)
		}
	}
}

func interfaceAddrs(t *testing.T) []string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, a := range addrs {
		s = append(s, strings.Split(a.String(), "/")[0])
	}
	return s
}

// TestNewRemovesStale leaves a namespace and a veth named as if by a process that has
// exited (SIGKILLed mid-test) and checks that the next New removes both.
func TestNewRemovesStale(t *testing.T) {
	if err := netns.Available(); err != nil {
		t.Skipf("no network namespaces here: %v", err)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	pid := gone.Process.Pid // exited: its leftovers are stale
	ns, link := fmt.Sprintf("kbench-netns-%d-0", pid), fmt.Sprintf("kbn%dh0", pid)
	for _, args := range [][]string{{"netns", "add", ns}, {"link", "add", link, "type", "veth", "peer", "name", fmt.Sprintf("kbp%dh0", pid)}} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %v: %v: %s", args, err, out)
		}
	}
	t.Cleanup(func() { // in case New did not remove them
		_ = exec.Command("ip", "link", "del", link).Run()
		_ = exec.Command("ip", "netns", "del", ns).Run()
	})
	newNet(t, 1)
	if _, err := os.Stat("/run/netns/" + ns); err == nil {
		t.Errorf("stale namespace %s not removed", ns)
	}
	if exec.Command("ip", "link", "show", "dev", link).Run() == nil {
		t.Errorf("stale veth %s not removed", link)
	}
}

// TestCutRestore checks that a cut host reaches nothing and a restored one reaches the
// server again.
func TestCutRestore(t *testing.T) {
	hosts := newNet(t, 1)
	h := hosts.Hosts[0]
	ln, err := net.Listen("tcp", netip.AddrPortFrom(hosts.Server(), 0).String())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			conn.Close()
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	if err := h.Cut(ctx); err != nil {
		t.Fatal(err)
	}
	// dial gives up after its own 5 s timeout: the SYN goes nowhere.
	if err := helper(t, ctx, h, "dial "+ln.Addr().String()).Run(); err == nil {
		t.Error("a cut host reached the server")
	}
	if err := h.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	if out, err := helper(t, ctx, h, "dial "+ln.Addr().String()).CombinedOutput(); err != nil {
		t.Errorf("restored host: %v: %s", err, out)
	}
}
