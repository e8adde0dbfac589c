package kafka

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/kbench/kbench/internal/redact"
)

// securityOpts translates security.protocol, sasl.* and ssl.* into kgo dial and SASL options,
// and returns the TLS configuration they dial with (nil without TLS).
func securityOpts(eff map[string]string) ([]kgo.Opt, *tls.Config, error) {
	var opts []kgo.Opt
	proto := strings.ToUpper(eff["security.protocol"])
	switch proto {
	case "PLAINTEXT", "":
	case "SSL", "SASL_SSL", "SASL_PLAINTEXT":
	default:
		return nil, nil, fmt.Errorf("invalid security.protocol=%q: want one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL", eff["security.protocol"])
	}
	if strings.HasPrefix(proto, "SASL_") {
		mech, err := saslMechanism(eff)
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, kgo.SASL(mech))
	}
	var cfg *tls.Config
	if strings.HasSuffix(proto, "SSL") {
		var err error
		if cfg, err = tlsConfig(eff); err != nil {
			return nil, nil, err
		}
		opts = append(opts, kgo.DialTLSConfig(cfg))
	}
	return opts, cfg, nil
}

func saslMechanism(eff map[string]string) (sasl.Mechanism, error) {
	mechName := strings.ToUpper(eff["sasl.mechanism"])
	jaas, err := redact.JAASOptions(eff["sasl.jaas.config"])
	if err != nil {
		return nil, err // names the property, never its value
	}
	user, pass := jaas["username"], jaas["password"]
	if user == "" {
		return nil, errors.New("invalid sasl.jaas.config: no username=\"...\" option")
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
