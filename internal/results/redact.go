package results

import "github.com/kbench/kbench/internal/redact"

// Redacted replaces secret values in property maps.
const Redacted = redact.Marker

// IsSecret reports whether the value of the property called name must not be recorded
// (see redact.IsSecret).
func IsSecret(name string) bool { return redact.IsSecret(name) }

// Redact returns a copy of props with the value of every secret property replaced by
// Redacted, or for sasl.jaas.config with its secret option values masked (see
// redact.Value). A nil map stays nil.
func Redact(props map[string]string) map[string]string { return redact.Map(props) }

// RedactStudy returns the study text to keep in a run directory: secret values (a broker
// config's password, a listener's JAAS config) redacted, everything else as written.
func RedactStudy(study []byte) ([]byte, error) {
	out, _, err := redact.YAML(study)
	return out, err
}
