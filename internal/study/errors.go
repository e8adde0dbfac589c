package study

import (
	"fmt"
	"strings"
)

// Error is a problem in a study file, located by file, line and field.
type Error struct {
	// File is the study's path or "builtin:<name>".
	File string
	// Line is the 1-based line of the offending value (0 when not known).
	Line int
	// Field is the dotted path of the offending field, e.g.
	// "defaults.producers.properties.acks" or "matrix.batch[1]".
	Field string
	// Msg says what is wrong and, when there is a fixed set, the valid choices.
	Msg string
}

// Error renders "file:line: field: msg".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

// choices renders a fixed set for an error message: "(valid: a, b, c)".
func choices(valid []string) string {
	return "(valid: " + strings.Join(valid, ", ") + ")"
}
