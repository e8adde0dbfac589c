package cluster

import (
	"crypto/x509"
	"encoding/pem"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestServerPropertiesHost checks that Options.Host moves the client listeners (bound and
// advertised) and nothing else: brokers and controllers still talk over 127.0.0.1.
func TestServerPropertiesHost(t *testing.T) {
	n := node{ID: 1, Controller: true, Internal: 1001, Client: 1002, CtrlPort: 1003, SASL: 1004, TLS: 1005}
	opts := Options{Host: "10.231.7.1", SASL: "scram-sha-512", TLS: true}
	got := serverProperties(n, []node{n}, "/c", opts, nil)
	for _, want := range []string{
		"listeners=INTERNAL://127.0.0.1:1001,CLIENT://10.231.7.1:1002,SASL://10.231.7.1:1004,TLS://10.231.7.1:1005,CONTROLLER://127.0.0.1:1003\n",
		"advertised.listeners=INTERNAL://127.0.0.1:1001,CLIENT://10.231.7.1:1002,SASL://10.231.7.1:1004,TLS://10.231.7.1:1005\n",
		"controller.quorum.voters=1@127.0.0.1:1003\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("server.properties lacks %q:\n%s", want, got)
		}
	}
	// IPv6 addresses take brackets in a listener.
	got = serverProperties(n, []node{n}, "/c", Options{Host: "fd00::2"}, nil)
	if !strings.Contains(got, "CLIENT://[fd00::2]:1002") {
		t.Errorf("IPv6 host not bracketed:\n%s", got)
	}
}

func TestCheckHost(t *testing.T) {
	for _, tc := range []struct {
		host, want string // want: part of the error, "" for none
	}{
		{"", ""},
		{"127.0.0.1", ""},
		{"kafka.example.com", "want an IP address of this machine"},
		{"0.0.0.0", "not a wildcard"},
		{"::", "not a wildcard"},
		// 198.51.100.0/24 is TEST-NET-2 (RFC 5737), on no interface of a test host.
		{"198.51.100.254", "not an address brokers can listen on here"},
	} {
		err := checkHost(tc.host)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("checkHost(%q) = %v, want %q", tc.host, err, tc.want)
		}
	}
}

// TestKeystoreNamesHost checks that a broker's certificate names Options.Host, so a TLS
// client connecting there verifies it.
func TestKeystoreNamesHost(t *testing.T) {
	ca, err := newCertAuthority()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "broker-1.pem")
	if err := ca.writeKeystore(path, "broker-1", "10.231.7.1"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cert *x509.Certificate
	for rest := data; cert == nil; {
		var b *pem.Block
		if b, rest = pem.Decode(rest); b == nil {
			t.Fatal("no certificate in the keystore")
		}
		if b.Type == "CERTIFICATE" {
			if cert, err = x509.ParseCertificate(b.Bytes); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !slices.ContainsFunc(cert.IPAddresses, func(ip net.IP) bool { return ip.Equal(net.ParseIP("10.231.7.1")) }) {
		t.Errorf("certificate names %v, want 10.231.7.1 among them", cert.IPAddresses)
	}
	if err := cert.VerifyHostname("10.231.7.1"); err != nil {
		t.Errorf("VerifyHostname: %v", err)
	}
}
