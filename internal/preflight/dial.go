package preflight

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"syscall"
)

// dialAll opens (and closes) a TCP connection to every address at once, so a dead one is
// named by itself rather than hidden behind the client's retries. It returns the addresses
// that answered; when none did, the error names each address and its cause. A dead address
// among live ones is a note: the client reaches the cluster through the others, as Kafka's
// own clients do. what names the addresses in messages ("bootstrap server", "broker 2").
func dialAll(ctx context.Context, addrs []string, what string, res *Result) ([]string, error) {
	errs := make([]error, len(addrs))
	var wg sync.WaitGroup
	for i, a := range addrs {
		wg.Go(func() { errs[i] = dial(ctx, a) })
	}
	wg.Wait()
	var alive, dead []string
	for i, a := range addrs {
		if errs[i] == nil {
			alive = append(alive, a)
			continue
		}
		dead = append(dead, fmt.Sprintf("%s %s: %v", what, a, errs[i]))
	}
	if len(alive) == 0 {
		return nil, fail(Unreachable, "cannot reach the cluster: %s", strings.Join(dead, "; "))
	}
	for _, d := range dead {
		res.Notes = append(res.Notes, d+" (the other addresses answered)")
	}
	return alive, nil
}

// dial connects to addr within dialTimeout and explains a failure in a few words.
func dial(ctx context.Context, addr string) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("not a host:port address (%v)", err)
	}
	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return netCause(err)
	}
	return conn.Close()
}

// netCause names a connection failure: refused, no route, DNS, timeout.
func netCause(err error) error {
	var dnsErr *net.DNSError
	switch {
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return fmt.Errorf("unknown host %s (DNS: no such host)", dnsErr.Name)
		}
		return fmt.Errorf("cannot resolve host %s (DNS: %s)", dnsErr.Name, dnsErr.Err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return errors.New("connection refused (nothing listens on that port)")
	case errors.Is(err, syscall.EHOSTUNREACH):
		return errors.New("no route to host")
	case errors.Is(err, syscall.ENETUNREACH):
		return errors.New("network unreachable")
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded), isTimeout(err):
		return fmt.Errorf("no answer within %s (host down or a firewall dropping packets)", dialTimeout)
	case errors.Is(err, context.Canceled):
		return errors.New("interrupted")
	}
	return err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
