package zones

import (
	"bytes"
	"crypto/rand"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// echoServer echoes every connection until its client half-closes, then closes.
func echoServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				_, _ = io.Copy(c, c)
			}()
		}
	}()
	return ln.Addr().String()
}

func startProxy(t *testing.T, link Link, target string) *Proxy {
	t.Helper()
	p, err := Start(link, []Route{{Name: "r1", Listen: "127.0.0.1:0", Target: target}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// TestProxyCarriesBytesExactly sends 4 MiB of random bytes through the proxy to an echo
// server and checks they come back unchanged, that the client's half-close reaches the
// server (the echo ends), and the counters: 1 accept and 4 MiB each way.
func TestProxyCarriesBytesExactly(t *testing.T) {
	p := startProxy(t, Link{RTT: 2 * time.Millisecond}, echoServer(t))
	conn, err := net.Dial("tcp", p.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	sent := make([]byte, 4<<20)
	_, _ = rand.Read(sent)
	go func() {
		_, _ = conn.Write(sent)
		_ = conn.(*net.TCPConn).CloseWrite()
	}()
	got, err := io.ReadAll(conn) // ends only if the half-close went through and back
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, sent) {
		t.Fatalf("echoed %d bytes, not the %d sent", len(got), len(sent))
	}
	// The pipe counts a chunk after writing it; wait for the last count to land.
	deadline := time.Now().Add(5 * time.Second)
	want := Counters{Accepts: 1, Up: 4 << 20, Down: 4 << 20}
	for p.Counters()["r1"] != want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if c := p.Counters()["r1"]; c != want {
		t.Fatalf("counters %+v, want %+v", c, want)
	}
}

// TestProxyDelaysEachDirection checks that a request and its answer never take less than
// the RTT: each direction waits RTT/2 from the time its bytes were read. Only the lower
// bound is checked, which scheduling cannot break (a chunk is never sent before it is due);
// the accuracy against Kafka is measured by the cluster test and `make bench`.
func TestProxyDelaysEachDirection(t *testing.T) {
	const rtt = 40 * time.Millisecond
	p := startProxy(t, Link{RTT: rtt}, echoServer(t))
	conn, err := net.Dial("tcp", p.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	buf := make([]byte, 5)
	for i := range 3 {
		start := time.Now()
		if _, err := conn.Write([]byte("hello")); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(conn, buf); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took < rtt {
			t.Fatalf("round trip %d took %s, less than the %s RTT", i, took, rtt)
		}
	}
}

// TestProxyCloseEndsConnections checks that Close returns with connections open and that
// the client sees its connection end.
func TestProxyCloseEndsConnections(t *testing.T) {
	p, err := Start(Link{RTT: time.Millisecond}, []Route{{Name: "r1", Listen: "127.0.0.1:0", Target: echoServer(t)}})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", p.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(conn, make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	p.Close()
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Read(make([]byte, 1)); err == nil {
		t.Fatal("connection still open after Close")
	}
}

func TestStartRefusesTakenAddress(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = Start(Link{}, []Route{{Name: "remote-1", Listen: ln.Addr().String(), Target: "127.0.0.1:1"}})
	if err == nil {
		t.Fatal("started on a taken address")
	}
}

// TestSetLinkAppliesToOpenConnections raises the RTT on an open connection: the next round
// trip waits the new RTT (a lower bound, as in TestProxyDelaysEachDirection).
func TestSetLinkAppliesToOpenConnections(t *testing.T) {
	p := startProxy(t, Link{}, echoServer(t))
	conn, err := net.Dial("tcp", p.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const rtt = 60 * time.Millisecond
	if err := p.SetLink(Link{RTT: rtt}); err != nil {
		t.Fatal(err)
	}
	if p.Link().RTT != rtt {
		t.Fatalf("link %v after SetLink", p.Link())
	}
	start := time.Now()
	if _, err := conn.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(conn, make([]byte, 1)); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < rtt {
		t.Fatalf("round trip took %s after SetLink to %s", took, rtt)
	}
	if err := p.SetLink(Link{RTT: -time.Second}); err == nil || p.Link().RTT != rtt {
		t.Fatalf("SetLink accepted a negative RTT: %v, link %v", err, p.Link())
	}
}
