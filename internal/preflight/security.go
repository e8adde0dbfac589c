package preflight

import (
	"regexp"
	"strings"
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

// jaasUser finds the username option of a sasl.jaas.config entry.
var jaasUser = regexp.MustCompile(`\busername\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;"]+))`)

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
		if m := jaasUser.FindStringSubmatch(props["sasl.jaas.config"]); m != nil {
			s.user = m[1] + m[2]
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
