package cluster

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// ReadProperties reads a Java properties file of the simple kind client configs use:
// key=value (or key: value) lines, # and ! comments, surrounding spaces trimmed. A value
// keeps any further '=' characters, as sasl.jaas.config needs.
func ReadProperties(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read properties: %w", err)
	}
	defer f.Close()
	props := map[string]string{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' || text[0] == '!' {
			continue
		}
		i := strings.IndexAny(text, "=:")
		if i <= 0 {
			return nil, fmt.Errorf("%s:%d: want key=value, got %q", path, line, text)
		}
		props[strings.TrimSpace(text[:i])] = strings.TrimSpace(text[i+1:])
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return props, nil
}

// writeProperties writes props sorted by key, readable only by the owner (it may hold a
// password).
func writeProperties(path string, props map[string]string) error {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(props)) {
		fmt.Fprintf(&b, "%s=%s\n", k, props[k])
	}
	return writePrivate(path, []byte(b.String()))
}
