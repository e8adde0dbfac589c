package preflight

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// prober asks a port what it speaks, to turn "the broker closed the connection" into a
// diagnosis. netProber is the real one; tests give canned answers.
type prober interface {
	speaksTLS(addr string) bool
	speaksPlainKafka(addr string) bool
}

// classify turns the client's error on a connection to addr into one line saying what
// failed and what to change. It returns nil for errors it does not recognise.
func classify(err error, addr string, sec security, p prober) *Error {
	if err == nil {
		return nil
	}
	if e := classifySASL(err, addr, sec); e != nil {
		return e
	}
	if e := classifyCert(err, addr, sec); e != nil {
		return e
	}
	if e := classifyMismatch(err, addr, sec, p); e != nil {
		return e
	}
	// Only a failed dial means the address cannot be reached; a timeout on an open
	// connection is a broker that does not answer (see checker.explain).
	var op *net.OpError
	var dnsErr *net.DNSError
	if (errors.As(err, &op) && op.Op == "dial") || errors.As(err, &dnsErr) {
		return fail(Unreachable, "cannot reach %s: %v", addr, netCause(err))
	}
	return nil
}

func classifySASL(err error, addr string, sec security) *Error {
	switch {
	case errors.Is(err, kerr.SaslAuthenticationFailed):
		return fail(AuthFailed, "authentication failed at %s: %s was rejected (wrong password, or no such user for this mechanism)", addr, sec.who())
	case errors.Is(err, kerr.UnsupportedSaslMechanism):
		return fail(AuthFailed, "authentication failed at %s: the listener does not enable SASL mechanism %s (sasl.mechanism)", addr, sec.mechanism)
	case errors.Is(err, kerr.IllegalSaslState):
		return fail(AuthFailed, "authentication failed at %s: the client uses %s but that listener does not use SASL: use the SASL listener's port, or security.protocol=%s",
			addr, sec.who(), strings.TrimPrefix(sec.protocol, "SASL_"))
	}
	return nil
}

func classifyCert(err error, addr string, sec security) *Error {
	var (
		unknownCA x509.UnknownAuthorityError
		host      x509.HostnameError
		hostPtr   *x509.HostnameError
		invalid   x509.CertificateInvalidError
		alert     tls.AlertError
	)
	where := "the system's CAs"
	if sec.truststore != "" {
		where = "ssl.truststore.location=" + sec.truststore
	}
	switch {
	case errors.As(err, &unknownCA):
		return fail(TLSFailed, "TLS handshake with %s failed: the broker's certificate is signed by a CA not in %s (unknown CA): point ssl.truststore.location at the cluster's CA (PEM, ssl.truststore.type=PEM)", addr, where)
	case errors.As(err, &hostPtr):
		return hostMismatch(addr, *hostPtr)
	case errors.As(err, &host):
		return hostMismatch(addr, host)
	case errors.As(err, &invalid):
		return fail(TLSFailed, "TLS handshake with %s failed: the broker's certificate is not valid: %v", addr, invalid)
	case errors.As(err, &alert):
		return fail(TLSFailed, "TLS handshake with %s failed: the broker refused it (%v; does the listener require a client certificate, ssl.client.auth=required? kbench does not send one)", addr, err)
	}
	return nil
}

func hostMismatch(addr string, h x509.HostnameError) *Error {
	names := append([]string{}, h.Certificate.DNSNames...)
	for _, ip := range h.Certificate.IPAddresses {
		names = append(names, ip.String())
	}
	valid := "no names"
	if len(names) > 0 {
		valid = strings.Join(names, ", ")
	}
	return fail(TLSFailed, "TLS handshake with %s failed: host name mismatch: the broker's certificate is for %s, not %s: connect by one of those names, or set ssl.endpoint.identification.algorithm= (empty) to skip the host name check",
		addr, valid, h.Host)
}

// classifyMismatch recognises a client and a listener that disagree on TLS or SASL: one
// side closes the connection or answers bytes the other cannot parse. A probe of the port
// turns the guess into a diagnosis.
func classifyMismatch(err error, addr string, sec security, p prober) *Error {
	var firstEOF *kgo.ErrFirstReadEOF
	var record tls.RecordHeaderError
	closed := errors.As(err, &firstEOF) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		strings.Contains(err.Error(), "connection reset by peer")
	garbled := errors.As(err, &record) || strings.Contains(err.Error(), "invalid large response size")
	if !closed && !garbled {
		return nil
	}
	// kgo says whether the broker hung up after the dial (TLS trouble) or after the first
	// request, which a SASL listener does to a client that skips authentication.
	if firstEOF != nil && strings.Contains(firstEOF.Error(), "after a request") && !sec.sasl() {
		return fail(AuthFailed, "the broker at %s closed the connection after the first request: the listener requires SASL and the client has security.protocol=%s: set security.protocol=%s, sasl.mechanism and sasl.jaas.config",
			addr, sec.protocol, saslProtocol(sec))
	}
	if sec.tls() {
		if p.speaksPlainKafka(addr) {
			return fail(TLSFailed, "TLS handshake with %s failed: that port is a plaintext listener (the client has security.protocol=%s): use the cluster's TLS port, or security.protocol=%s",
				addr, sec.protocol, plainProtocol(sec))
		}
		return fail(TLSFailed, "TLS handshake with %s failed: the broker closed the connection (a plaintext port? a listener that wants a client certificate?): %v", addr, err)
	}
	if p.speaksTLS(addr) {
		return fail(TLSFailed, "%s is a TLS listener and the client speaks plaintext (security.protocol=%s): set security.protocol=%s and ssl.truststore.location to the cluster's CA",
			addr, sec.protocol, tlsProtocol(sec))
	}
	if sec.sasl() {
		// Brokers before SaslAuthenticate (Kafka 1.0), and some proxies, hang up on bad
		// credentials instead of saying so.
		return fail(AuthFailed, "the broker at %s closed the connection of a client authenticating with %s: a wrong password or an unknown user? (%v)", addr, sec.who(), err)
	}
	return fail(Other, "the broker at %s closed the connection: %v", addr, err)
}

// plainProtocol and tlsProtocol name the protocol a client should switch to, keeping SASL.
func plainProtocol(sec security) string {
	if sec.sasl() {
		return "SASL_PLAINTEXT"
	}
	return "PLAINTEXT"
}

func saslProtocol(sec security) string {
	if sec.tls() {
		return "SASL_SSL"
	}
	return "SASL_PLAINTEXT"
}

func tlsProtocol(sec security) string {
	if sec.sasl() {
		return "SASL_SSL"
	}
	return "SSL"
}

// describeErr is the last resort: the client's own words, with where.
func describeErr(err error, addr string) *Error {
	if addr == "" {
		return fail(Other, "cluster check failed: %v", err)
	}
	return fail(Other, "cluster check failed at %s: %v", addr, err)
}
