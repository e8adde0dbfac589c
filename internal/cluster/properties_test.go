package cluster

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParsePropertiesAsJava reads files in every form Java accepts and compares with what
// java.util.Properties itself read from them: the .json files beside them were written by
// testdata/properties/Dump.java (see its header), not by kbench.
func TestParsePropertiesAsJava(t *testing.T) {
	for _, name := range []string{"client-sasl", "forms", "crlf"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "properties", name+".properties")
			got, err := ReadProperties(path)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join("testdata", "properties", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var want map[string]string
			if err := json.Unmarshal(data, &want); err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Errorf("%d properties, Java read %d", len(got), len(want))
			}
			for k, v := range want {
				if g, ok := got[k]; !ok || g != v {
					t.Errorf("%q = %q (present %v), Java read %q", k, g, ok, v)
				}
			}
		})
	}
}

// TestParsePropertiesErrors checks that a malformed file is refused with its file and line,
// and that no error shows the line's content.
func TestParsePropertiesErrors(t *testing.T) {
	const secret = "CANARY-s3cr3t"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"bad unicode escape", "a=1\nssl.key.password=" + secret + `\u12` + "\n", `f.properties:2: malformed \uXXXX escape`},
		{"bad unicode escape after a continuation", "a=1\\\n  2\nsasl.jaas.config=x password=\"" + secret + `\uzzzz";`, `f.properties:3: malformed \uXXXX escape`},
		{"byte-order mark", "\xef\xbb\xbfsecurity.protocol=SSL\n", "f.properties:1: the file starts with a UTF-8 byte-order mark"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseProperties("f.properties", []byte(tc.text))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q...", err, tc.want)
			}
			if strings.Contains(err.Error(), "CANARY") || strings.Contains(err.Error(), "password") {
				t.Errorf("error shows the line: %v", err)
			}
		})
	}
}

// TestWritePropertiesRoundTrip checks that the client files the cluster writes read back
// the same (the cluster's own client-sasl.properties).
func TestWritePropertiesRoundTrip(t *testing.T) {
	props := map[string]string{
		"security.protocol": "SASL_PLAINTEXT",
		"sasl.mechanism":    "SCRAM-SHA-512",
		"sasl.jaas.config":  `org.apache.kafka.common.security.scram.ScramLoginModule required username="kbench" password="0a1b2c";`,
	}
	path := filepath.Join(t.TempDir(), "client.properties")
	if err := writeProperties(path, props); err != nil {
		t.Fatal(err)
	}
	got, err := ReadProperties(path)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range props {
		if got[k] != v {
			t.Errorf("%s = %q, wrote %q", k, got[k], v)
		}
	}
}
