package load

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// jaasOption matches one `key="value"` (or unquoted) option of a sasl.jaas.config entry.
var jaasOption = regexp.MustCompile(`(\w+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s;]+))`)

// parseJAAS reads username and password from a Java JAAS login entry such as
// `org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";`.
func parseJAAS(cfg string) (user, pass string, err error) {
	for _, m := range jaasOption.FindAllStringSubmatch(cfg, -1) {
		v := m[2]
		if v == "" {
			v = m[3]
		}
		v = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(v)
		switch m[1] {
		case "username":
			user = v
		case "password":
			pass = v
		}
	}
	if user == "" {
		return "", "", errors.New("invalid sasl.jaas.config: no username=\"...\" option")
	}
	return user, pass, nil
}

// securityOpts translates security.protocol, sasl.* and ssl.* into kgo dial and SASL options.
func securityOpts(eff map[string]string) ([]kgo.Opt, error) {
	var opts []kgo.Opt
	proto := strings.ToUpper(eff["security.protocol"])
	switch proto {
	case "PLAINTEXT", "":
	case "SSL", "SASL_SSL", "SASL_PLAINTEXT":
	default:
		return nil, fmt.Errorf("invalid security.protocol=%q: want one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL", eff["security.protocol"])
	}
	if strings.HasPrefix(proto, "SASL_") {
		mech, err := saslMechanism(eff)
		if err != nil {
			return nil, err
		}
		opts = append(opts, kgo.SASL(mech))
	}
	if strings.HasSuffix(proto, "SSL") {
		cfg, err := tlsConfig(eff)
		if err != nil {
			return nil, err
		}
		opts = append(opts, kgo.DialTLSConfig(cfg))
	}
	return opts, nil
}

func saslMechanism(eff map[string]string) (sasl.Mechanism, error) {
	mechName := strings.ToUpper(eff["sasl.mechanism"])
	user, pass, err := parseJAAS(eff["sasl.jaas.config"])
	if err != nil {
		return nil, err
	}
	switch mechName {
	case "PLAIN":
		return plain.Auth{User: user, Pass: pass}.AsMechanism(), nil
	case "SCRAM-SHA-256":
		return scram.Auth{User: user, Pass: pass}.AsSha256Mechanism(), nil
	case "SCRAM-SHA-512":
		return scram.Auth{User: user, Pass: pass}.AsSha512Mechanism(), nil
	}
	return nil, fmt.Errorf("unsupported sasl.mechanism=%q: want PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512", eff["sasl.mechanism"])
}

func tlsConfig(eff map[string]string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	var pemData []byte
	switch {
	case eff["ssl.truststore.certificates"] != "":
		pemData = []byte(eff["ssl.truststore.certificates"])
	case eff["ssl.truststore.location"] != "":
		if t := strings.ToUpper(eff["ssl.truststore.type"]); t != "PEM" {
			return nil, fmt.Errorf("unsupported ssl.truststore.type=%q for %s: kbench reads PEM trust stores (set ssl.truststore.type=PEM)", eff["ssl.truststore.type"], eff["ssl.truststore.location"])
		}
		b, err := os.ReadFile(eff["ssl.truststore.location"])
		if err != nil {
			return nil, fmt.Errorf("unable to read ssl.truststore.location: %w", err)
		}
		pemData = b
	}
	if pemData != nil {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pemData) {
			return nil, errors.New("invalid trust store: no PEM certificate found")
		}
		cfg.RootCAs = pool
	}
	// ssl.endpoint.identification.algorithm="" turns host name checking off (as in Java) but
	// the certificate chain is still verified against the trust store.
	if eff["ssl.endpoint.identification.algorithm"] == "" {
		roots := cfg.RootCAs
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("tls: broker sent no certificate")
			}
			inter := x509.NewCertPool()
			for _, c := range cs.PeerCertificates[1:] {
				inter.AddCert(c)
			}
			_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
			return err
		}
	}
	return cfg, nil
}
