package cluster

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/magiconair/properties"
)

// ReadProperties reads a Java .properties file (client configs given to --producer.config
// or --command-config, and the cluster's own client files) the way Kafka's tools read
// them, with java.util.Properties.load: "name=value", "name:value" or "name value",
// '#' and '!' comments, '\' escapes, lines continued with a trailing backslash, \uXXXX
// escapes, and ISO-8859-1 bytes. ${...} is not expanded, as Java does not. An error names
// the file and line and never shows a value, which may be a password.
func ReadProperties(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("unable to read properties: %w", err)
	}
	return ParseProperties(path, data)
}

// utf8BOM is the byte-order mark some Windows editors put first. Java reads it as part of
// the first property name, which Kafka then ignores as unknown; kbench says so instead.
var utf8BOM = []byte{0xef, 0xbb, 0xbf}

// ParseProperties parses the content of a properties file; name is used in errors. The
// parser is github.com/magiconair/properties, whose syntax is java.util.Properties', with
// two adjustments: "\r\n" is read as one line end (Java does; the library would end a
// continued line at the "\n"), and expansion is disabled.
func ParseProperties(name string, data []byte) (map[string]string, error) {
	if bytes.HasPrefix(data, utf8BOM) {
		return nil, fmt.Errorf("%s:1: the file starts with a UTF-8 byte-order mark, which Kafka's tools read as part of the first property name: save it without one", name)
	}
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	l := &properties.Loader{Encoding: properties.ISO_8859_1, DisableExpansion: true}
	p, err := l.LoadBytes(data)
	if err != nil {
		return nil, propertiesError(name, err)
	}
	return p.Map(), nil
}

var libraryError = regexp.MustCompile(`Line (\d+): (.*)`)

// propertiesError turns the library's error ("properties: Line 3: invalid unicode
// literal") into "file:3: ...". Only messages known to hold no file content are passed on.
func propertiesError(name string, err error) error {
	m := libraryError.FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("%s: not a properties file", name)
	}
	msg := "malformed line (not shown: it may hold a secret)"
	switch {
	case strings.Contains(m[2], "unicode"):
		msg = `malformed \uXXXX escape: want four hexadecimal digits`
	case strings.Contains(m[2], "premature EOF"):
		msg = `the file ends with a '\' escape`
	}
	return fmt.Errorf("%s:%s: %s", name, m[1], msg)
}

// writeProperties writes props sorted by key, readable only by the owner (it may hold a
// password). Values are written as they are: kbench's own values hold no character that
// needs a properties escape.
func writeProperties(path string, props map[string]string) error {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(props)) {
		fmt.Fprintf(&b, "%s=%s\n", k, props[k])
	}
	return writePrivate(path, []byte(b.String()))
}
