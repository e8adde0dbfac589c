package results

import "strings"

// Redacted replaces secret values in property maps.
const Redacted = "[redacted]"

// secretMarkers are substrings of property names whose values are secrets: passwords
// (ssl.key.password, sasl password), JAAS configs (they embed the password), keys
// (ssl.keystore.key, ssl.key.*), tokens and credentials. key.serializer is not a secret, so
// "key" alone is matched only as a suffix or in the ssl.key. prefix.
var secretMarkers = []string{"password", "jaas", "secret", "token", "credential"}

// IsSecret reports whether the value of the property called name must not be recorded.
func IsSecret(name string) bool {
	n := strings.ToLower(name)
	for _, m := range secretMarkers {
		if strings.Contains(n, m) {
			return true
		}
	}
	return strings.HasSuffix(n, ".key") || strings.HasPrefix(n, "ssl.key.")
}

// Redact returns a copy of props with the value of every secret property replaced by
// Redacted. A nil map stays nil.
func Redact(props map[string]string) map[string]string {
	if props == nil {
		return nil
	}
	out := make(map[string]string, len(props))
	for k, v := range props {
		if IsSecret(k) && v != "" {
			v = Redacted
		}
		out[k] = v
	}
	return out
}
