package preflight

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
)

// fakeProber answers the port probes from the test's table.
type fakeProber struct{ tls, plain bool }

func (p fakeProber) speaksTLS(string) bool        { return p.tls }
func (p fakeProber) speaksPlainKafka(string) bool { return p.plain }

func TestClassify(t *testing.T) {
	plain := security{protocol: "PLAINTEXT"}
	ssl := security{protocol: "SSL", truststore: "/etc/ca.pem", hostCheck: true}
	scram := security{protocol: "SASL_PLAINTEXT", mechanism: "SCRAM-SHA-512", user: "alice"}
	cert := &x509.Certificate{DNSNames: []string{"kafka-1.example.com"}}
	tests := []struct {
		name  string
		err   error
		sec   security
		probe fakeProber
		want  Kind // 0: not recognised
		says  []string
	}{
		{"sasl rejected", fmt.Errorf("wrapped: %w", kerr.SaslAuthenticationFailed), scram, fakeProber{}, AuthFailed,
			[]string{"SCRAM-SHA-512", "user alice", "b:9093"}},
		{"mechanism not enabled", kerr.UnsupportedSaslMechanism, scram, fakeProber{}, AuthFailed, []string{"SCRAM-SHA-512", "sasl.mechanism"}},
		{"sasl client, plain listener", kerr.IllegalSaslState, scram, fakeProber{}, AuthFailed, []string{"does not use SASL", "security.protocol=PLAINTEXT"}},
		{"unknown CA", fmt.Errorf("unable to dial: %w", x509.UnknownAuthorityError{}), ssl, fakeProber{}, TLSFailed,
			[]string{"unknown CA", "/etc/ca.pem"}},
		{"host name", fmt.Errorf("unable to dial: %w", x509.HostnameError{Certificate: cert, Host: "10.0.0.1"}), ssl, fakeProber{}, TLSFailed,
			[]string{"kafka-1.example.com", "not 10.0.0.1", "ssl.endpoint.identification.algorithm"}},
		{"TLS client, plaintext port", io.EOF, ssl, fakeProber{plain: true}, TLSFailed, []string{"plaintext listener", "security.protocol=PLAINTEXT"}},
		{"TLS client, silent port", io.EOF, ssl, fakeProber{}, TLSFailed, []string{"closed the connection", "plaintext port?"}},
		{"plaintext client, TLS port", errors.New("invalid large response size 352518912 > limit 104857600"), plain, fakeProber{tls: true}, TLSFailed,
			[]string{"TLS listener", "security.protocol=SSL"}},
		{"SASL plaintext client, SASL_SSL port", io.EOF, scram, fakeProber{tls: true}, TLSFailed, []string{"security.protocol=SASL_SSL"}},
		{"sasl client, hung up", io.EOF, scram, fakeProber{}, AuthFailed, []string{"user alice", "wrong password"}},
		{"refused", &net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}, plain, fakeProber{}, Unreachable, []string{"b:9093", "connection refused"}},
		{"dial timeout", &net.OpError{Op: "dial", Err: context.DeadlineExceeded}, plain, fakeProber{}, Unreachable, []string{"b:9093", "no answer within"}},
		{"DNS", &net.DNSError{Name: "kafka-9", IsNotFound: true}, plain, fakeProber{}, Unreachable, []string{"unknown host kafka-9"}},
		{"request timeout", context.DeadlineExceeded, plain, fakeProber{}, 0, nil},
		{"unrecognised", kerr.NotController, plain, fakeProber{}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := classify(tt.err, "b:9093", tt.sec, tt.probe)
			if got == nil {
				if tt.want != 0 {
					t.Fatalf("not recognised, want kind %d", tt.want)
				}
				return
			}
			if got.Kind != tt.want {
				t.Fatalf("kind %d (%v), want %d", got.Kind, got, tt.want)
			}
			for _, s := range tt.says {
				if !strings.Contains(got.Msg, s) {
					t.Errorf("%q does not say %q", got.Msg, s)
				}
			}
			if strings.Contains(got.Msg, "\n") {
				t.Errorf("%q is more than one line", got.Msg)
			}
		})
	}
}

func TestDescribeSecurity(t *testing.T) {
	tests := []struct {
		props map[string]string
		want  security
	}{
		{nil, security{protocol: "PLAINTEXT", hostCheck: true}},
		{map[string]string{"security.protocol": "sasl_ssl", "sasl.mechanism": "PLAIN",
			"sasl.jaas.config":                      `org.apache.kafka.common.security.plain.PlainLoginModule required username="bob" password="pw";`,
			"ssl.endpoint.identification.algorithm": ""},
			security{protocol: "SASL_SSL", mechanism: "PLAIN", user: "bob"}},
		// Unquoted values, as some files have them; the default mechanism is Java's.
		{map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.jaas.config": `x required username=carol password=pw;`},
			security{protocol: "SASL_PLAINTEXT", mechanism: "GSSAPI", user: "carol", hostCheck: true}},
	}
	for _, tt := range tests {
		if got := describeSecurity(tt.props); got != tt.want {
			t.Errorf("describeSecurity(%v) = %+v, want %+v", tt.props, got, tt.want)
		}
	}
}

func TestAllowed(t *testing.T) {
	// Read is bit 3, Write bit 4, All bit 2 (kmsg.ACLOperation values).
	tests := []struct {
		ops  int32
		want bool
	}{
		{1 << 3, false},     // Read only
		{1<<3 | 1<<4, true}, // Read and Write
		{1 << 2, true},      // All
		{-1 << 31, true},    // math.MinInt32: not given, not refused
		{0, false},
	}
	for _, tt := range tests {
		if got := allowed(tt.ops, write); got != tt.want {
			t.Errorf("allowed(%b, Write) = %v, want %v", tt.ops, got, tt.want)
		}
	}
}

func TestAPIVersionsRequestFrame(t *testing.T) {
	// size 4 bytes = 2 key + 2 version + 4 correlation + 2 length + 16 "kbench-preflight"
	// = 26 (v0 has an empty body): 00 00 00 1a, then 00 12 (key 18), 00 00, 00 00 6b 62.
	got := apiVersionsRequest(0x6b62)
	want := append([]byte{0, 0, 0, 26, 0, 18, 0, 0, 0, 0, 0x6b, 0x62, 0, 16}, "kbench-preflight"...)
	if string(got) != string(want) {
		t.Errorf("frame % x\nwant  % x", got, want)
	}
}

func TestDialAll(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := closed.Addr().String()
	closed.Close()
	live := ln.Addr().String()

	res := &Result{}
	alive, err := dialAll(context.Background(), []string{dead, live}, "bootstrap server", res)
	if err != nil || len(alive) != 1 || alive[0] != live {
		t.Fatalf("dialAll = %v, %v; want [%s]", alive, err, live)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], dead) || !strings.Contains(res.Notes[0], "refused") {
		t.Errorf("notes %q, want one naming %s as refused", res.Notes, dead)
	}

	_, err = dialAll(context.Background(), []string{dead, "no-port"}, "bootstrap server", &Result{})
	if KindOf(err) != Unreachable || !strings.Contains(err.Error(), dead+": connection refused") || !strings.Contains(err.Error(), "no-port: not a host:port") {
		t.Errorf("all dead: %v", err)
	}
}

// TestCheckSilentPort points the check at a port that accepts connections and never
// answers: the check must give up by itself, with a line naming the address.
func TestCheckSilentPort(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the check's own deadline")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, silent, until the listener closes
		}
	}()
	done := make(chan error, 1)
	go func() {
		_, err := Check(context.Background(), ln.Addr().String(), nil, Need{Produce: []string{"t"}})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), ln.Addr().String()) {
			t.Fatalf("Check = %v, want an error naming %s", err, ln.Addr())
		}
		t.Log(err)
	case <-time.After(3 * Timeout): // a guard, not a measurement
		t.Fatal("the check did not give up")
	}
}
