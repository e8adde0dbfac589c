package redact

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"
)

// YAML returns a YAML document with the value of every mapping key that names a secret
// (IsSecret) redacted, at any depth: a study's cluster.broker_configs may hold
// ssl.keystore.password or a listener's sasl.jaas.config. A value reached through an
// alias is redacted at its anchor. Comments on a redacted value go too, since they may
// repeat it. When nothing is secret the text is returned unchanged, byte for byte; otherwise
// it is re-encoded (comments and order kept, indentation normalised). changed reports which.
func YAML(text []byte) (out []byte, changed bool, err error) {
	var root yaml.Node
	if err := yaml.Unmarshal(text, &root); err != nil {
		return nil, false, fmt.Errorf("read YAML to redact it: %w", err)
	}
	if !redactNode(&root, "") {
		return text, false, nil
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, false, fmt.Errorf("write redacted YAML: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, false, fmt.Errorf("write redacted YAML: %w", err)
	}
	return b.Bytes(), true, nil
}

// redactNode walks n; secretKey is the name of the secret property n is the value of, ""
// when n is not under a secret key. It reports whether anything was redacted.
func redactNode(n *yaml.Node, secretKey string) bool {
	if n == nil {
		return false
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if secretKey == "" || n.Value == "" {
			return false
		}
		n.Value = Value(secretKey, n.Value)
		n.Tag, n.Style = "!!str", yaml.DoubleQuotedStyle
		n.LineComment, n.FootComment = "", ""
		return true
	case yaml.AliasNode:
		return redactNode(n.Alias, secretKey)
	case yaml.MappingNode:
		changed := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			key := secretKey
			if key == "" && k.Kind == yaml.ScalarNode && IsSecret(k.Value) {
				key = k.Value
			}
			if redactNode(v, key) {
				k.LineComment = ""
				changed = true
			}
		}
		return changed
	default: // documents and sequences
		changed := false
		for _, c := range n.Content {
			if redactNode(c, secretKey) {
				changed = true
			}
		}
		return changed
	}
}
