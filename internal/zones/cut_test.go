package zones

import (
	"io"
	"net"
	"testing"
	"time"
)

// echoOnce writes msg on conn and reads it back; an error means the route carries nothing.
func echoOnce(conn net.Conn, msg string) (string, error) {
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := conn.Write([]byte(msg)); err != nil {
		return "", err
	}
	buf := make([]byte, len(msg))
	_, err := io.ReadFull(conn, buf)
	return string(buf), err
}

// TestCutClosesAndRefusesThenMends checks the three states of a route: a connection
// echoes; after Cut the open connection ends and a new one is closed at once; after the
// mend a new connection echoes again. An unknown route is an error.
func TestCutClosesAndRefusesThenMends(t *testing.T) {
	p := startProxy(t, Link{}, echoServer(t))
	before, err := net.Dial("tcp", p.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer before.Close()
	if got, err := echoOnce(before, "ping"); err != nil || got != "ping" {
		t.Fatalf("before the cut: got %q, %v; want ping", got, err)
	}
	if err := p.Cut("r1", true); err != nil {
		t.Fatal(err)
	}
	if _, err := echoOnce(before, "lost"); err == nil {
		t.Error("the connection open at the cut still echoes")
	}
	during, err := net.Dial("tcp", p.Addrs()[0])
	if err != nil {
		t.Fatal(err) // the listener stays: the connect completes, then is closed
	}
	defer during.Close()
	if _, err := echoOnce(during, "lost"); err == nil {
		t.Error("a connection made during the cut echoes")
	}
	if err := p.Cut("r1", false); err != nil {
		t.Fatal(err)
	}
	after, err := net.Dial("tcp", p.Addrs()[0])
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	if got, err := echoOnce(after, "pong"); err != nil || got != "pong" {
		t.Fatalf("after the mend: got %q, %v; want pong", got, err)
	}
	if err := p.Cut("r9", true); err == nil {
		t.Error("cutting an unknown route: no error")
	}
}

// TestSetCutAndCutFile: the file round-trips; SetCut cuts the named routes it has, mends
// the rest, and returns the names it has not.
func TestSetCutAndCutFile(t *testing.T) {
	path := t.TempDir() + "/" + CutFile
	if err := WriteCutFile(path, []string{"r2", "other-9"}); err != nil {
		t.Fatal(err)
	}
	names, err := ReadCutFile(path)
	if err != nil || len(names) != 2 || names[0] != "r2" || names[1] != "other-9" {
		t.Fatalf("read back %v, %v", names, err)
	}
	target := echoServer(t)
	p, err := Start(Link{}, []Route{{Name: "r1", Listen: "127.0.0.1:0", Target: target}, {Name: "r2", Listen: "127.0.0.1:0", Target: target}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.Cut("r1", true); err != nil {
		t.Fatal(err)
	}
	unknown := p.SetCut(names)
	if len(unknown) != 1 || unknown[0] != "other-9" {
		t.Errorf("unknown = %v, want [other-9]", unknown)
	}
	// r1 was cut and is not named: mended; r2 is named: cut.
	for i, want := range []bool{true, false} {
		conn, err := net.Dial("tcp", p.Addrs()[i])
		if err != nil {
			t.Fatal(err)
		}
		_, err = echoOnce(conn, "x")
		conn.Close()
		if (err == nil) != want {
			t.Errorf("route r%d echoes: %v, want %v", i+1, err == nil, want)
		}
	}
}
