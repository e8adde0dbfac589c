package study

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"

	"github.com/kbench/kbench/internal/settings"
)

// propKind says how a property's value is checked and normalised.
type propKind int

const (
	propString propKind = iota // any value
	propInt                    // a non-negative integer
	propSize                   // a byte size, normalised to a byte count
	propBool                   // true or false
	propEnum                   // one of a fixed set
)

type propSpec struct {
	kind   propKind
	values []string // for propEnum
}

var (
	anyString = propSpec{kind: propString}
	anyInt    = propSpec{kind: propInt}
	size      = propSpec{kind: propSize}
	boolean   = propSpec{kind: propBool}
)

func enum(v ...string) propSpec { return propSpec{kind: propEnum, values: v} }

// compressionTypes are the Java client's compression.type values.
var compressionTypes = []string{"none", "gzip", "snappy", "lz4", "zstd"}

// topicConfigs are the topic-level configs a study may set.
var topicConfigs = map[string]propSpec{
	"cleanup.policy":                  enum("delete", "compact", "compact,delete", "delete,compact"),
	"compression.type":                enum(append([]string{"producer", "uncompressed"}, compressionTypes[1:]...)...),
	"delete.retention.ms":             anyInt,
	"file.delete.delay.ms":            anyInt,
	"flush.messages":                  anyInt,
	"flush.ms":                        anyInt,
	"index.interval.bytes":            size,
	"max.compaction.lag.ms":           anyInt,
	"max.message.bytes":               size,
	"message.timestamp.type":          enum("CreateTime", "LogAppendTime"),
	"message.timestamp.before.max.ms": anyInt,
	"message.timestamp.after.max.ms":  anyInt,
	"min.cleanable.dirty.ratio":       anyString,
	"min.compaction.lag.ms":           anyInt,
	"min.insync.replicas":             anyInt,
	"preallocate":                     boolean,
	"retention.bytes":                 propSpec{kind: propString}, // may be -1
	"retention.ms":                    propSpec{kind: propString}, // may be -1
	"segment.bytes":                   size,
	"segment.index.bytes":             size,
	"segment.jitter.ms":               anyInt,
	"segment.ms":                      anyInt,
	"unclean.leader.election.enable":  boolean,
	"local.retention.ms":              anyString,
	"local.retention.bytes":           anyString,
}

// propertyName is the shape of a Kafka config name: lowercase words joined by dots.
var propertyName = regexp.MustCompile(`^[a-z][a-z0-9]*(\.[a-z0-9]+)*$`)

// checkClientProperty validates one producer or consumer property against the catalogue the
// load engine applies (internal/settings) and returns its normalised value (sizes become
// byte counts). A study may set only what the engine applies.
func checkClientProperty(role settings.Role, name, value string) (string, error) {
	what := role.String() + " property"
	p, ok := settings.Lookup(role, name)
	if !ok && settings.IsConnection(name) {
		return "", fmt.Errorf("%s %q may not be set here: security settings go in cluster.sasl/cluster.tls or --command-config", what, name)
	}
	if !ok {
		return "", unknownName(what, name, settings.Names(role, settings.Property.Studyable))
	}
	if why := p.StudyRefusal(); why != "" {
		return "", fmt.Errorf("%s %q may not be set here: %s", what, name, why)
	}
	if p.Kind == settings.Size {
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

// checkTopicConfig validates one topic config and returns its normalised value (sizes
// become byte counts).
func checkTopicConfig(name, value string) (string, error) {
	const what = "topic config"
	spec, ok := topicConfigs[name]
	if !ok {
		return "", unknownName(what, name, slices.Collect(maps.Keys(topicConfigs)))
	}
	switch spec.kind {
	case propInt:
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil || n < 0 {
			return "", fmt.Errorf("%s %s=%q: want a non-negative integer", what, name, value)
		}
	case propSize:
		n, err := ParseSize(value)
		if err != nil {
			return "", fmt.Errorf("%s %s: %w", what, name, err)
		}
		return strconv.FormatInt(n, 10), nil
	case propBool:
		if value != "true" && value != "false" {
			return "", fmt.Errorf("%s %s=%q: want true or false", what, name, value)
		}
	case propEnum:
		if !slices.Contains(spec.values, value) {
			return "", fmt.Errorf("%s %s=%q is not valid %s", what, name, value, choices(spec.values))
		}
	}
	return value, nil
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
