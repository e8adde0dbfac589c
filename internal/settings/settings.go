// Package settings is the one catalogue of the Java client properties kbench knows, the way
// Kafka's ConfigDef is the single definition behind ProducerConfig and ConsumerConfig: each
// property once, with its role, type, the Java client's default (Kafka 4.1), its valid
// values, the franz-go option that applies it, and whether a study may set it.
//
// Study validation (internal/study) and the load engine (internal/load) both read this
// table, so a study can only set what the engine applies, and Resolve applies the rules
// that tie properties together (acks and idempotence, in-flight requests, timeouts) the
// same way for both. The package has no Kafka imports: it describes and checks values;
// internal/load turns the resolved values into kgo options.
package settings

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Role says which client a property configures.
type Role int

// The roles. Common and Security properties apply to producers and consumers alike.
const (
	Common Role = iota
	Producer
	Consumer
	Security
)

func (r Role) String() string {
	return [...]string{"common", "producer", "consumer", "security"}[r]
}

// Kind is a property's value type.
type Kind int

// The kinds.
const (
	String Kind = iota
	Int         // a whole number within [Min, Max], or one of Choices
	Size        // a byte count within [Min, Max] (a study may write units: 16KiB)
	Bool        // true or false
	Enum        // one of Choices
)

func (k Kind) String() string {
	return [...]string{"string", "int", "size", "boolean", "enum"}[k]
}

// Property is one Java client property.
type Property struct {
	Name string
	Role Role
	Kind Kind
	// Default is the Java client's default in Kafka 4.1 ("" when it has none).
	Default string
	// Min and Max bound an Int or Size; they are the narrower of Java's and franz-go's
	// limits, so a value in range is one the engine applies.
	Min, Max int64
	// Choices are an Enum's values, or an Int's values allowed outside [Min, Max].
	Choices []string
	// Applies names the franz-go option(s) the engine applies the property with; "" when
	// the engine does not apply it (see Ignored).
	Applies string
	// Ignored says why the engine cannot apply the property. Such a property is refused in a
	// study; in a Java properties file given to kbench produce/consume it is accepted with a
	// warning (config files written for Kafka's tools carry them) and never recorded as in
	// force.
	Ignored string
	// NoStudy says why a study may not set the property ("" when it may).
	NoStudy string
	// Secret values are hidden wherever they are recorded.
	Secret bool
	// Example is a valid value other than the default, for tests and documentation.
	Example string
}

// Studyable reports whether a study may set p: the engine applies it and it is not reserved.
func (p Property) Studyable() bool { return p.NoStudy == "" && p.Ignored == "" }

// StudyRefusal says why a study may not set p ("" when it may).
func (p Property) StudyRefusal() string {
	if p.NoStudy != "" {
		return p.NoStudy
	}
	if p.Ignored != "" {
		return "kbench cannot apply it: " + p.Ignored
	}
	return ""
}

// For reports whether p configures a client of role (Producer or Consumer).
func (p Property) For(role Role) bool {
	return p.Role == role || p.Role == Common || p.Role == Security
}

// Lookup finds the property name of a role's client (Producer or Consumer).
func Lookup(role Role, name string) (Property, bool) {
	for _, p := range catalogue {
		if p.Name == name && p.For(role) {
			return p, true
		}
	}
	return Property{}, false
}

// All returns every property of the catalogue, in its order.
func All() []Property { return slices.Clone(catalogue) }

// Names returns the sorted names of role's properties that keep (nil keeps all).
func Names(role Role, keep func(Property) bool) []string {
	var names []string
	for _, p := range catalogue {
		if p.For(role) && (keep == nil || keep(p)) {
			names = append(names, p.Name)
		}
	}
	slices.Sort(names)
	return names
}

// Valid describes p's valid values for an error message or a document: "0, 1, -1, all",
// "a whole number from 0 to 60000".
func (p Property) Valid() string {
	switch p.Kind {
	case Bool:
		return "true, false"
	case Enum:
		return strings.Join(p.Choices, ", ")
	case Int, Size:
		what := "a whole number"
		if p.Kind == Size {
			what = "a byte count"
		}
		r := fmt.Sprintf("%s from %d to %d", what, p.Min, p.Max)
		if len(p.Choices) > 0 {
			r = strings.Join(p.Choices, ", ") + " or " + r
		}
		return r
	}
	return "any text"
}

// Check validates one value of p and returns it normalised (booleans and choices in the
// catalogue's spelling, numbers without spaces). The error names the property, the value
// and the valid values: `acks="2" is not valid (valid: 0, 1, -1, all)`.
func (p Property) Check(value string) (string, error) {
	v := strings.TrimSpace(value)
	bad := func() (string, error) {
		return "", &Error{Property: p.Name, Msg: fmt.Sprintf("%s=%q is not valid (valid: %s)", p.Name, value, p.Valid())}
	}
	switch p.Kind {
	case Bool:
		// Java reads booleans case-insensitively and nothing else (not 1/0, not yes/no).
		if l := strings.ToLower(v); l == "true" || l == "false" {
			return l, nil
		}
		return bad()
	case Enum:
		for _, c := range p.Choices {
			if strings.EqualFold(v, c) {
				return c, nil
			}
		}
		return bad()
	case Int, Size:
		if slices.Contains(p.Choices, v) {
			return v, nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < p.Min || n > p.Max {
			return bad()
		}
		return strconv.FormatInt(n, 10), nil
	}
	return v, nil
}

// Error is a property that cannot be applied. Property names it so that a study can point
// at the line that set it.
type Error struct {
	Property string
	Msg      string
}

func (e *Error) Error() string { return e.Msg }

func errorf(property, format string, args ...any) error {
	return &Error{Property: property, Msg: fmt.Sprintf(format, args...)}
}
