package load

import (
	"strings"
	"testing"
)

func TestParsePropertyArgs(t *testing.T) {
	tests := []struct {
		arg, key, value, wantError string
	}{
		{arg: "acks=1", key: "acks", value: "1"},
		// Only the first '=' separates: a JAAS line fits inline.
		{arg: `sasl.jaas.config=M required username="u" password="a=b";`, key: "sasl.jaas.config",
			value: `M required username="u" password="a=b";`},
		{arg: "linger.ms=", key: "linger.ms", value: ""},
		{arg: "novalue", wantError: "want name=value"},
		{arg: "=1", wantError: "want name=value"},
	}
	for _, tt := range tests {
		got, err := ParsePropertyArgs([]string{tt.arg})
		if tt.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantError) {
				t.Errorf("%q: error = %v, want %q", tt.arg, err, tt.wantError)
			}
			continue
		}
		if err != nil || got[tt.key] != tt.value {
			t.Errorf("%q: got %v, %v; want %s=%s", tt.arg, got, err, tt.key, tt.value)
		}
	}
}
