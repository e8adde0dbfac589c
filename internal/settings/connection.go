package settings

import "strings"

// connectionPrefixes start the names of the properties that say how to log in to a
// cluster: security.protocol and the sasl.* and ssl.* families.
var connectionPrefixes = []string{"security.", "sasl.", "ssl."}

// connectionNames are the other properties that say where the cluster is.
var connectionNames = map[string]bool{"bootstrap.servers": true, "client.dns.lookup": true}

// IsConnection says whether the property called name says how to reach and authenticate to
// the cluster rather than how to produce or consume: bootstrap.servers, client.dns.lookup
// and the security.*, sasl.* and ssl.* properties. A service client (admin, control,
// preflight, read-back) takes these and nothing else of the user's client properties, and
// they never travel in an agent's plan.
func IsConnection(name string) bool {
	if connectionNames[name] {
		return true
	}
	for _, prefix := range connectionPrefixes {
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
