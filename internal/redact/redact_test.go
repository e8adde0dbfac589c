package redact

import (
	"strings"
	"testing"
)

// canary stands for a secret in every test: it must never come out.
const canary = "CANARY-s3cr3t"

func TestIsSecret(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"sasl.jaas.config", true},
		{"listener.name.sasl.scram-sha-512.sasl.jaas.config", true},
		{"ssl.key.password", true},
		{"ssl.keystore.password", true},
		{"ssl.truststore.password", true},
		{"ssl.keystore.key", true},                   // a PEM private key
		{"listener.name.tls.ssl.keystore.key", true}, // the same, per listener
		{"ssl.key.pem", true},                        // ssl.key.* is key material
		{"ssl.keystore.certificate.chain", false},    // certificates are public
		{"ssl.truststore.certificates", false},       // so are trusted ones
		{"ssl.keymanager.algorithm", false},          // "keymanager" is not "key"
		{"ssl.keystore.location", false},             // a path
		{"sasl.oauthbearer.client.credentials.client.secret", true},
		{"sasl.oauthbearer.assertion.private.key.passphrase", true},
		{"password.encoder.secret", true},
		{"delegation.token.secret.key", true},
		{"delegation.token.master.key", true},
		{"basic.auth.user.info", true},
		{"SSL.KEY.PASSWORD", true}, // names are compared without case
		{"key.serializer", false},  // "key" as a prefix is not a secret
		{"acks", false},
		{"batch.size", false},
		{"ssl.truststore.location", false},
		{"num.io.threads", false},
	} {
		if got := IsSecret(tc.name); got != tc.want {
			t.Errorf("IsSecret(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestJAAS(t *testing.T) {
	const scram = "org.apache.kafka.common.security.scram.ScramLoginModule"
	const plain = "org.apache.kafka.common.security.plain.PlainLoginModule"
	const oauth = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"scram", scram + ` required username="alice" password="` + canary + `";`,
			scram + ` required username="alice" password="[redacted]";`},
		{"escaped quote inside the password", scram + ` required username="alice" password="a\"` + canary + `\"b";`,
			scram + ` required username="alice" password="[redacted]";`},
		{"semicolon inside the password", scram + ` required password="x;` + canary + `" username="alice";`,
			scram + ` required password="[redacted]" username="alice";`},
		{"single quotes", scram + ` required username='alice' password='` + canary + `';`,
			scram + ` required username='alice' password="[redacted]";`},
		{"unquoted", scram + ` required username=alice password=` + canary + `;`,
			scram + ` required username=alice password="[redacted]";`},
		{"spaces, new lines and comments", scram + "\n  required // " + canary + "\n  username = \"alice\" /* " + canary + " */ password\t=\"" + canary + "\" ;",
			scram + ` required username="alice" password="[redacted]";`},
		{"oauthbearer keeps the client ID, scope and subject only", oauth + ` required clientId="app" clientSecret="` + canary + `" scope="kafka" unsecuredLoginStringClaim_sub="alice" unsecuredLoginExtension_trace="` + canary + `";`,
			oauth + ` required clientId="app" clientSecret="[redacted]" scope="kafka" unsecuredLoginStringClaim_sub="alice" unsecuredLoginExtension_trace="[redacted]";`},
		{"plain on a broker", plain + ` required user_kbench="` + canary + `";`,
			plain + ` required user_kbench="[redacted]";`},
		{"two entries", plain + ` required username="a" password="` + canary + `"; ` + scram + ` optional password=` + canary + `;`,
			plain + ` required username="a" password="[redacted]"; ` + scram + ` optional password="[redacted]";`},
		{"unknown option names are masked", "com.example.Login required token=\"" + canary + "\";",
			`com.example.Login required token="[redacted]";`},
		{"unterminated string", scram + ` required password="` + canary, scram + " [redacted]"},
		{"missing semicolon before the next entry", scram + ` required password=` + canary + ` ` + scram + ` required;`, scram + " [redacted]"},
		{"no control flag", scram + ` password="` + canary + `";`, scram + " [redacted]"},
		{"a bare password is not a class", canary, "[redacted]"},
		{"an unexpected character", scram + ` required password=` + canary + `!x;`, scram + " [redacted]"},
		{"unterminated comment", scram + ` required /* ` + canary, scram + " [redacted]"},
		{"empty", " ", "[redacted]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := JAAS(tc.in)
			if got != tc.want {
				t.Errorf("JAAS(%q)\n got %s\nwant %s", tc.in, got, tc.want)
			}
			if strings.Contains(got, "CANARY") || strings.Contains(got, "s3cr3t") {
				t.Errorf("JAAS(%q) leaks the secret: %s", tc.in, got)
			}
		})
	}
}

func TestValueAndMap(t *testing.T) {
	if Map(nil) != nil {
		t.Error("Map(nil) is not nil")
	}
	got := Map(map[string]string{
		"sasl.jaas.config":  `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="` + canary + `";`,
		"ssl.key.password":  "",
		"ssl.keystore.key":  "-----BEGIN PRIVATE KEY-----\n" + canary,
		"acks":              "all",
		"security.protocol": "SASL_SSL",
	})
	want := map[string]string{
		"sasl.jaas.config":  `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="[redacted]";`,
		"ssl.key.password":  "", // an empty value reveals nothing and shows it was unset
		"ssl.keystore.key":  Marker,
		"acks":              "all",
		"security.protocol": "SASL_SSL",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("Map()[%q] = %q, want %q", k, got[k], v)
		}
	}
}

func TestYAML(t *testing.T) {
	study := `name: s   # a study
cluster:
  broker_configs:
    num.io.threads: 8
    ssl.keystore.password: ` + canary + ` # the old one was also ` + canary + `
    listener.name.sasl.plain.sasl.jaas.config: 'org.apache.kafka.common.security.plain.PlainLoginModule required user_a="` + canary + `";'
    ssl.key.password: &pw ` + canary + `
matrix:
  batch: [1KiB, 16KiB]
`
	out, changed, err := YAML([]byte(study))
	if err != nil || !changed {
		t.Fatalf("YAML() changed=%v err=%v", changed, err)
	}
	s := string(out)
	if strings.Contains(s, "CANARY") {
		t.Errorf("redacted study still holds the secret:\n%s", s)
	}
	for _, want := range []string{
		"num.io.threads: 8",
		`ssl.keystore.password: "[redacted]"`,
		`user_a=\"[redacted]\"`,
		"batch: [1KiB, 16KiB]",
		"# a study",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("redacted study lacks %q:\n%s", want, s)
		}
	}

	plain := "name: s\nmatrix:\n    batch: [1KiB]   # odd indent kept\n"
	out, changed, err = YAML([]byte(plain))
	if err != nil || changed || string(out) != plain {
		t.Errorf("a study without secrets changed: %q, %v, %v", out, changed, err)
	}
}

func TestYAMLAlias(t *testing.T) {
	// The secret is written once under a harmless key and used under a secret one.
	study := "x: &pw " + canary + "\ncluster:\n  broker_configs:\n    ssl.key.password: *pw\n"
	out, changed, err := YAML([]byte(study))
	if err != nil || !changed || strings.Contains(string(out), "CANARY") {
		t.Errorf("YAML() = %q, %v, %v; want the anchored value redacted", out, changed, err)
	}
}

func TestJAASOptions(t *testing.T) {
	tests := []struct {
		in, user, pass, wantError string
	}{
		{in: `org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="pw";`, user: "alice", pass: "pw"},
		// Java reads any word as the module: the class check is only for showing it.
		{in: `PlainLoginModule required username=bob password="x=y";`, user: "bob", pass: "x=y"},
		{in: `M required username="q\"uote" password='a\\b';`, user: `q"uote`, pass: `a\b`},
		{in: `M required /* a comment */ username="u"; // trailing`, user: "u"},
		{in: `M required username="u" password="p"; N required username="v";`, wantError: "2 login modules"},
		{in: `M required username="u" password=x=y;`, wantError: "unreadable sasl.jaas.config"},
		{in: `nothing here`, wantError: "unreadable sasl.jaas.config"},
	}
	for _, tt := range tests {
		got, err := JAASOptions(tt.in)
		if tt.wantError != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantError) {
				t.Errorf("JAASOptions(%q) error = %v, want %q", tt.in, err, tt.wantError)
			}
			if err != nil && (strings.Contains(err.Error(), "x=y") || strings.Contains(err.Error(), `"p"`)) {
				t.Errorf("JAASOptions(%q) error quotes the value: %v", tt.in, err)
			}
			continue
		}
		if err != nil || got["username"] != tt.user || got["password"] != tt.pass {
			t.Errorf("JAASOptions(%q) = %q, %v; want username %q, password %q", tt.in, got, err, tt.user, tt.pass)
		}
	}
}
