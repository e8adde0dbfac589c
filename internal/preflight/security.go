package preflight

import (
	"strings"

	"github.com/kbench/kbench/internal/redact"
)

// security is what the client's properties say about the connection, for messages: never
// the password.
type security struct {
	protocol   string // PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL
	mechanism  string // sasl.mechanism, "" without SASL
	user       string // the JAAS username, "" without SASL
	truststore string // ssl.truststore.location, "" for the system's CAs
	hostCheck  bool   // ssl.endpoint.identification.algorithm is not ""
}

func (s security) tls() bool  { return strings.HasSuffix(s.protocol, "SSL") }
func (s security) sasl() bool { return strings.HasPrefix(s.protocol, "SASL_") }

func describeSecurity(props map[string]string) security {
	s := security{protocol: strings.ToUpper(strings.TrimSpace(props["security.protocol"]))}
	if s.protocol == "" {
		s.protocol = "PLAINTEXT"
	}
	if s.sasl() {
		s.mechanism = strings.ToUpper(strings.TrimSpace(props["sasl.mechanism"]))
		if s.mechanism == "" {
			s.mechanism = "GSSAPI" // the Java client's default
		}
		// An unreadable config leaves the user unnamed; Connect has refused it already.
		if opts, err := redact.JAASOptions(props["sasl.jaas.config"]); err == nil {
			s.user = opts["username"]
		}
	}
	s.truststore = props["ssl.truststore.location"]
	alg, set := props["ssl.endpoint.identification.algorithm"]
	s.hostCheck = !set || strings.TrimSpace(alg) != ""
	return s
}

// who names the SASL identity for a message: mechanism and user, never the password.
func (s security) who() string {
	user := s.user
	if user == "" {
		user = "(none)"
	}
	return "SASL " + s.mechanism + " user " + user
}
