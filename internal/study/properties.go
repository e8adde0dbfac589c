package study

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kbench/kbench/internal/settings"
)

// propertyName is the shape of a Kafka config name: lowercase words joined by dots.
var propertyName = regexp.MustCompile(`^[a-z][a-z0-9]*(\.[a-z0-9]+)*$`)

// checkSetting validates one producer or consumer property or topic config against the
// catalogue (internal/settings) that the load engine and topic creation read, and returns
// its normalised value (sizes become byte counts). A study may set only what kbench applies.
func checkSetting(role settings.Role, name, value string) (string, error) {
	what := role.String() + " property"
	if role == settings.Topic {
		what = "topic config"
	}
	p, ok := settings.Lookup(role, name)
	if !ok && role != settings.Topic && settings.IsConnection(name) {
		return "", fmt.Errorf("%s %q may not be set here: security settings go in cluster.sasl/cluster.tls or --command-config", what, name)
	}
	if !ok {
		return "", unknownName(what, name, settings.Names(role, settings.Property.Studyable))
	}
	if why := p.StudyRefusal(); why != "" {
		return "", fmt.Errorf("%s %q may not be set here: %s", what, name, why)
	}
	// A study may write a size with units (16MiB); a size's special values (-1) are not sizes.
	if p.Kind == settings.Size && !slices.Contains(p.Choices, strings.TrimSpace(value)) {
		n, err := ParseSize(value)
		if err != nil {
			return "", fmt.Errorf("%s %s: %w", what, name, err)
		}
		value = strconv.FormatInt(n, 10)
	}
	v, err := p.Check(value)
	if err != nil {
		return "", fmt.Errorf("%s %w", what, err)
	}
	return v, nil
}

// unknownName is the error for a name not in known, suggesting the nearest.
func unknownName(what, name string, known []string) error {
	msg := fmt.Sprintf("unknown %s %q", what, name)
	if !propertyName.MatchString(name) {
		msg += " (Kafka config names are lowercase words joined by dots, e.g. batch.size)"
	} else if s := closest(name, known); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	} else {
		slices.Sort(known)
		msg += " " + choices(known)
	}
	return errors.New(msg)
}

// closest returns the candidate nearest to name by edit distance, if it is near enough to
// be a likely typo.
func closest(name string, candidates []string) string {
	slices.Sort(candidates)
	best, bestD := "", len(name)/3+1
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
