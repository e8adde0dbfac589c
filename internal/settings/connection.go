package settings

import "strings"

// IsConnection says whether the property called name says how to reach and authenticate to
// the cluster rather than how to produce or consume: the security.*, sasl.* and ssl.*
// properties. A service client (admin, control, preflight, read-back) takes these and
// nothing else of the user's client properties.
func IsConnection(name string) bool {
	for _, prefix := range []string{"security.", "sasl.", "ssl."} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// Connection returns the connection properties of props (see IsConnection); nil for none.
func Connection(props map[string]string) map[string]string {
	var out map[string]string
	for k, v := range props {
		if IsConnection(k) {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		}
	}
	return out
}
