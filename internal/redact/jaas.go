package redact

import (
	"fmt"
	"regexp"
	"strings"
)

// javaClass is a qualified Java class name, such as a login module's. Only a word of this
// shape is shown in front of the options: a stray word in an unreadable config may be a
// password.
var javaClass = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)+$`)

// controlFlags are JAAS's control flags (javax.security.auth.login.Configuration).
var controlFlags = map[string]bool{"required": true, "requisite": true, "sufficient": true, "optional": true}

// keptOptions are the JAAS options whose values are shown: identities and switches that
// say how a client logs in, never what proves it. Every other option's value is masked,
// including ones kbench does not know: password, clientSecret, PLAIN's user_<name>
// entries on brokers, OAUTHBEARER's unsecuredLogin* claims and extensions (test tokens,
// but they may carry anything) except the subject, and whatever a custom login module
// takes. Names are compared without regard to case.
var keptOptions = map[string]bool{
	"username":                      true, // PLAIN, SCRAM
	"serviceName":                   true, // GSSAPI
	"principal":                     true,
	"keyTab":                        true, // a path; the key stays in the file
	"useKeyTab":                     true,
	"storeKey":                      true,
	"useTicketCache":                true,
	"debug":                         true,
	"tokenauth":                     true, // "true" marks the password as a delegation token
	"clientId":                      true, // OAUTHBEARER client credentials: the ID, not the secret
	"scope":                         true,
	"unsecuredLoginStringClaim_sub": true, // the principal of an unsecured OAUTHBEARER token
}

var keptLower = func() map[string]bool {
	m := map[string]bool{}
	for k := range keptOptions {
		m[strings.ToLower(k)] = true
	}
	return m
}()

// JAAS returns a sasl.jaas.config value with the login module class, its control flag and
// the option names kept, and every option value masked except those in keptOptions:
//
//	org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="[redacted]";
//
// It reads the value the way Kafka's JaasConfig does (java.io.StreamTokenizer): words of
// letters, digits and ._-$, strings in double or single quotes with backslash escapes (so
// an escaped quote does not end a password), // and /* */ comments, several entries each
// ending in ';'. A value it cannot read is masked whole after the module class: a parse
// that went wrong must not leave half a password.
func JAAS(config string) string {
	entries, err := parseJAAS(config)
	for _, e := range entries {
		if !javaClass.MatchString(e.module) {
			err = &jaasError{"want a login module class"}
		}
	}
	if err != nil {
		lx := &jaasLexer{s: config}
		if t, err := lx.next(); err == nil && t.kind == tokWord && javaClass.MatchString(t.text) {
			return t.text + " " + Marker
		}
		return Marker
	}
	var b strings.Builder
	for i, e := range entries {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(e.module + " " + e.flag)
		for _, o := range e.options {
			b.WriteString(" " + o.name + "=")
			if keptLower[strings.ToLower(o.name)] {
				b.WriteString(o.raw)
			} else {
				b.WriteString(`"` + Marker + `"`)
			}
		}
		b.WriteByte(';')
	}
	return b.String()
}

// JAASOptions returns the options of a client's sasl.jaas.config, the values unquoted:
// {"username": "u", "password": "p"} for
// `org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";`.
// It reads the value as JAAS does, so the credentials a client logs in with and the
// masking of JAAS come from one reading. A client takes one login module, as Kafka's
// JaasContext requires. Errors never quote the value.
func JAASOptions(config string) (map[string]string, error) {
	entries, err := parseJAAS(config)
	if err != nil {
		return nil, err
	}
	if len(entries) != 1 {
		return nil, &jaasError{fmt.Sprintf("%d login modules; a client takes one", len(entries))}
	}
	out := map[string]string{}
	for _, o := range entries[0].options {
		out[o.name] = unquote(o.raw)
	}
	return out, nil
}

// unquote returns a JAAS option value as meant: a quoted string without its quotes, each
// backslash escape replaced by the character it escapes.
func unquote(raw string) string {
	if raw == "" || (raw[0] != '"' && raw[0] != '\'') {
		return raw
	}
	var b strings.Builder
	for i := 1; i < len(raw)-1; i++ {
		if raw[i] == '\\' && i+1 < len(raw)-1 {
			i++
		}
		b.WriteByte(raw[i])
	}
	return b.String()
}

type jaasEntry struct {
	module, flag string
	options      []jaasOption
}

type jaasOption struct {
	name string
	raw  string // the value as written, quotes included
}

type tokKind int

const (
	tokEOF tokKind = iota
	tokWord
	tokQuoted
	tokEquals
	tokSemicolon
)

type token struct {
	kind tokKind
	text string // as written
}

type jaasError struct{ msg string }

func (e *jaasError) Error() string { return "unreadable sasl.jaas.config: " + e.msg }

func parseJAAS(s string) ([]jaasEntry, error) {
	lx := &jaasLexer{s: s}
	var entries []jaasEntry
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		if t.kind == tokEOF {
			break
		}
		// Any word, as Java reads it: JAAS shows only a qualified class name.
		if t.kind != tokWord {
			return nil, &jaasError{"want a login module class"}
		}
		e := jaasEntry{module: t.text}
		flag, err := lx.next()
		if err != nil {
			return nil, err
		}
		if flag.kind != tokWord || !controlFlags[strings.ToLower(flag.text)] {
			return nil, &jaasError{"want a control flag"}
		}
		e.flag = flag.text
		for {
			t, err := lx.next()
			if err != nil {
				return nil, err
			}
			if t.kind == tokSemicolon {
				break
			}
			if t.kind != tokWord {
				return nil, &jaasError{"want an option name or ';'"}
			}
			eq, err := lx.next()
			if err != nil {
				return nil, err
			}
			if eq.kind != tokEquals {
				return nil, &jaasError{"want '=' after an option name"}
			}
			v, err := lx.next()
			if err != nil {
				return nil, err
			}
			if v.kind != tokWord && v.kind != tokQuoted {
				return nil, &jaasError{"want an option value"}
			}
			e.options = append(e.options, jaasOption{name: t.text, raw: v.text})
		}
		entries = append(entries, e)
	}
	if len(entries) == 0 {
		return nil, &jaasError{"no login module"}
	}
	return entries, nil
}

type jaasLexer struct {
	s   string
	pos int
}

func isJAASWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '.' || c == '-' || c == '_' || c == '$' || c >= 0x80
}

func (l *jaasLexer) next() (token, error) {
	if err := l.skipSpace(); err != nil {
		return token{}, err
	}
	if l.pos >= len(l.s) {
		return token{kind: tokEOF}, nil
	}
	start := l.pos
	switch c := l.s[l.pos]; {
	case c == '=':
		l.pos++
		return token{kind: tokEquals, text: "="}, nil
	case c == ';':
		l.pos++
		return token{kind: tokSemicolon, text: ";"}, nil
	case c == '"' || c == '\'':
		l.pos++
		for l.pos < len(l.s) {
			switch l.s[l.pos] {
			case '\\':
				l.pos += 2 // the escaped character never ends the string
				continue
			case c:
				l.pos++
				return token{kind: tokQuoted, text: l.s[start:l.pos]}, nil
			}
			l.pos++
		}
		return token{}, &jaasError{"unterminated quoted string"}
	case isJAASWord(c):
		for l.pos < len(l.s) && isJAASWord(l.s[l.pos]) {
			l.pos++
		}
		return token{kind: tokWord, text: l.s[start:l.pos]}, nil
	default:
		return token{}, &jaasError{"unexpected character"}
	}
}

// skipSpace skips white space and comments.
func (l *jaasLexer) skipSpace() error {
	for l.pos < len(l.s) {
		switch {
		case l.s[l.pos] <= ' ':
			l.pos++
		case strings.HasPrefix(l.s[l.pos:], "//"):
			end := strings.IndexAny(l.s[l.pos:], "\r\n")
			if end < 0 {
				l.pos = len(l.s)
			} else {
				l.pos += end
			}
		case strings.HasPrefix(l.s[l.pos:], "/*"):
			end := strings.Index(l.s[l.pos+2:], "*/")
			if end < 0 {
				return &jaasError{"unterminated comment"}
			}
			l.pos += 2 + end + 2
		default:
			return nil
		}
	}
	return nil
}
