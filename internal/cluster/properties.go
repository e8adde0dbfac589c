package cluster

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// ReadProperties reads a Java .properties file, as client configs (--producer.config,
// --command-config) and the cluster's own client files are written: "name=value" or
// "name: value" lines, '#' and '!' comments, lines continued with a trailing backslash,
// surrounding spaces trimmed. A value keeps any further '=' characters, as
// sasl.jaas.config needs.
func ReadProperties(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("unable to read properties: %w", err)
	}
	defer f.Close()
	props := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	var pending string
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimLeft(sc.Text(), " \t\f")
		if pending == "" && (line == "" || line[0] == '#' || line[0] == '!') {
			continue
		}
		if strings.HasSuffix(line, `\`) && !strings.HasSuffix(line, `\\`) {
			pending += strings.TrimSuffix(line, `\`)
			continue
		}
		line, pending = pending+line, ""
		i := strings.IndexAny(line, "=:")
		if i <= 0 {
			return nil, fmt.Errorf("%s:%d: invalid property line %q: want name=value", path, lineNo, line)
		}
		props[strings.TrimSpace(line[:i])] = strings.TrimSpace(line[i+1:])
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("unable to read %s: %w", path, err)
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
