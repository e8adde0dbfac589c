// Package redact hides secrets in Kafka configuration before anything is printed or
// written: property maps (client and broker configs), sasl.jaas.config values, and study
// files copied into run directories. It decides by the property's name, never by the
// value, so a secret is hidden however it is spelled.
//
// It imports nothing of kbench's, so every package that prints or writes configuration
// (cluster, results, cli) can use it.
package redact

import "strings"

// Marker replaces a secret value.
const Marker = "[redacted]"

// secretMarkers are substrings of property names whose values are secrets: passwords and
// passphrases (ssl.key.password, sasl.oauthbearer.assertion.private.key.passphrase), secrets
// (sasl.oauthbearer.client.credentials.client.secret, password.encoder.secret,
// delegation.token.secret.key), JAAS configs (they embed passwords), tokens and
// credentials, and HTTP basic-auth user info (user:password). Matching is by substring
// so listener prefixes (listener.name.sasl.plain.sasl.jaas.config) and unknown plug-in
// properties are covered: hiding a harmless value costs little, showing a secret a lot.
var secretMarkers = []string{"password", "passphrase", "secret", "jaas", "token", "credential", "user.info"}

// IsSecret reports whether the value of the property called name must not be shown or
// recorded. Besides the markers above it covers private key material: a name ending in
// ".key" (ssl.keystore.key, delegation.token.master.key) and any ssl.* name with a "key"
// component (ssl.key.password, listener.name.x.ssl.keystore.key). Certificates
// (ssl.keystore.certificate.chain, ssl.truststore.certificates), locations, types and
// ssl.keymanager.algorithm are not secret.
func IsSecret(name string) bool {
	n := strings.ToLower(name)
	for _, m := range secretMarkers {
		if strings.Contains(n, m) {
			return true
		}
	}
	if strings.HasSuffix(n, ".key") {
		return true
	}
	parts := strings.Split(n, ".")
	for i, p := range parts {
		if p == "ssl" {
			for _, q := range parts[i+1:] {
				if q == "key" {
					return true
				}
			}
		}
	}
	return false
}

// Value returns value as it may be shown for the property called name: unchanged when the
// property is not secret or the value is empty (an empty value reveals nothing and shows
// that it was unset), the JAAS config with its secret option values masked
// (see JAAS), otherwise Marker.
func Value(name, value string) string {
	if value == "" || !IsSecret(name) {
		return value
	}
	if strings.HasSuffix(strings.ToLower(name), "sasl.jaas.config") {
		return JAAS(value)
	}
	return Marker
}

// Secret returns value as it may be shown when the property called name is known to be
// secret (a catalogue says so) whatever its name: a JAAS config masked (see JAAS), any other
// non-empty value Marker.
func Secret(name, value string) string {
	if value == "" {
		return value
	}
	if strings.HasSuffix(strings.ToLower(name), "sasl.jaas.config") {
		return JAAS(value)
	}
	return Marker
}

// Map returns a copy of props with every secret value redacted (see Value). A nil map
// stays nil.
func Map(props map[string]string) map[string]string {
	if props == nil {
		return nil
	}
	out := make(map[string]string, len(props))
	for k, v := range props {
		out[k] = Value(k, v)
	}
	return out
}
