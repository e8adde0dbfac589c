// Package settings is the one catalogue of the Kafka settings kbench knows, the way Kafka's
// ConfigDef is the single definition behind ProducerConfig, ConsumerConfig and LogConfig:
// each Java client property and each topic config once, with its role, type, Kafka 4.1's
// default, its valid values, what applies it, and whether a study may set it.
//
// Study validation (internal/study), the load engine (internal/kafka, internal/load), topic
// creation and the docs all read this table, so a study can only set what kbench applies,
// and Resolve applies the rules that tie client properties together (acks and idempotence,
// in-flight requests, timeouts) the same way for both. The package has no Kafka imports: it
// describes and checks values; internal/kafka turns the resolved values into kgo options.
package settings

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Role says what a setting configures: a client, or a topic.
type Role int

// The roles. Common and Security properties apply to producers and consumers alike; Topic
// configs are Kafka's per-topic LogConfig, given to the broker when kbench creates a topic.
const (
	Common Role = iota
	Producer
	Consumer
	Security
	Topic
)

func (r Role) String() string {
	return [...]string{"common", "producer", "consumer", "security", "topic"}[r]
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
	Double      // a decimal number within [Min, Max]
	List        // a comma-separated list of distinct Choices
)

func (k Kind) String() string {
	return [...]string{"string", "int", "size", "boolean", "enum", "double", "list"}[k]
}

// Property is one Java client property or topic config.
type Property struct {
	Name string
	Role Role
	Kind Kind
	// Default is Kafka 4.1's default: the Java client's, or for a topic config LogConfig's
	// (what the broker uses when neither the topic nor the broker's server config sets it).
	// "" when it has none.
	Default string
	// Min and Max bound an Int, Size or Double; for a client property they are the narrower
	// of Java's and franz-go's limits, so a value in range is one the engine applies.
	Min, Max int64
	// Choices are an Enum's or a List's values, or an Int's or Size's values allowed
	// outside [Min, Max].
	Choices []string
	// Applies names what applies the property: the franz-go option(s) of a client
	// property, the topic's creation for a topic config; "" when nothing does (see Ignored).
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
	// Requires is "name=value", another property's value this one may only be set with, as
	// the Java client refuses group.remote.assignor without group.protocol=consumer.
	Requires string
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

// For reports whether p configures role: a client (Producer or Consumer), which takes the
// Common and Security properties too, or a Topic.
func (p Property) For(role Role) bool {
	if p.Role == role {
		return true
	}
	client := role == Producer || role == Consumer
	return client && (p.Role == Common || p.Role == Security)
}

// Lookup finds the setting name of role (Producer, Consumer or Topic). A name may have one
// entry per role: compression.type is a producer property and a topic config.
func Lookup(role Role, name string) (Property, bool) {
	for _, p := range catalogue {
		if p.Name == name && p.For(role) {
			return p, true
		}
	}
	return Property{}, false
}

// catalogue is every setting kbench knows; anything else is unknown.
var catalogue = slices.Concat(clientProperties, topicConfigs)

// All returns every setting of the catalogue, in its order.
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
// "a whole number from 0 to 60000", "a whole number of at least 1" (Java's Long range).
func (p Property) Valid() string {
	switch p.Kind {
	case Bool:
		return "true, false"
	case Enum:
		return strings.Join(p.Choices, ", ")
	case List:
		return "a comma-separated list of " + strings.Join(p.Choices, ", ")
	case Int, Size, Double:
		what := map[Kind]string{Int: "a whole number", Size: "a byte count", Double: "a number"}[p.Kind]
		r := fmt.Sprintf("%s from %d to %d", what, p.Min, p.Max)
		if p.Max == math.MaxInt64 {
			r = fmt.Sprintf("%s of at least %d", what, p.Min)
		}
		if len(p.Choices) > 0 {
			r = strings.Join(p.Choices, ", ") + " or " + r
		}
		return r
	}
	return "any text"
}

// Check validates one value of p and returns it normalised (booleans and choices in the
// catalogue's spelling, numbers without spaces, a list's items joined by bare commas). The error names the property, the value
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
	case Double:
		f, err := strconv.ParseFloat(v, 64)
		// Written so that NaN, which compares false with anything, is refused.
		if err != nil || !(f >= float64(p.Min) && f <= float64(p.Max)) {
			return bad()
		}
		return strconv.FormatFloat(f, 'g', -1, 64), nil
	case List:
		var items []string
		for _, item := range strings.Split(v, ",") {
			i := slices.IndexFunc(p.Choices, func(c string) bool { return strings.EqualFold(strings.TrimSpace(item), c) })
			if i < 0 || slices.Contains(items, p.Choices[i]) {
				return bad()
			}
			items = append(items, p.Choices[i])
		}
		return strings.Join(items, ","), nil
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
