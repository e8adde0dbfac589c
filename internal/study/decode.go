package study

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"
)

// decoder walks a yaml.v3 node tree, so that every error can name the line of the value
// at fault. It decodes nothing by reflection: every accepted key is listed in code.
type decoder struct {
	file string
}

func (d *decoder) errorf(n *yaml.Node, field, format string, args ...any) *Error {
	e := &Error{File: d.file, Field: field, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line = n.Line
	}
	return e
}

// wrap turns a plain error about the value at n into an *Error.
func (d *decoder) wrap(n *yaml.Node, field string, err error) error {
	if err == nil {
		return nil
	}
	return d.errorf(n, field, "%v", err)
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	default:
		if n.Tag == "!!null" {
			return "nothing"
		}
		return "a single value"
	}
}

// mapping calls each key's handler with the key and value nodes. Unknown and repeated keys
// are errors that list the valid keys.
func (d *decoder) mapping(n *yaml.Node, field string, handlers map[string]func(k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, field, "want a mapping of keys, got %s", kindName(n))
	}
	valid := make([]string, 0, len(handlers))
	for k := range handlers {
		valid = append(valid, k)
	}
	slices.Sort(valid)
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		h, ok := handlers[k.Value]
		if !ok {
			msg := fmt.Sprintf("unknown key %q %s", k.Value, choices(valid))
			if s := closest(k.Value, valid); s != "" {
				msg = fmt.Sprintf("unknown key %q (did you mean %q?) %s", k.Value, s, choices(valid))
			}
			return d.errorf(k, join(field, k.Value), "%s", msg)
		}
		if seen[k.Value] {
			return d.errorf(k, join(field, k.Value), "key %q appears twice", k.Value)
		}
		seen[k.Value] = true
		if err := h(k, v); err != nil {
			return err
		}
	}
	return nil
}

// pairs iterates over a mapping whose keys are free-form (names, IDs), in file order.
func (d *decoder) pairs(n *yaml.Node, field string, fn func(k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, field, "want a mapping, got %s", kindName(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			return d.errorf(k, join(field, k.Value), "key %q appears twice", k.Value)
		}
		seen[k.Value] = true
		if err := fn(k, v); err != nil {
			return err
		}
	}
	return nil
}

// list iterates over a sequence.
func (d *decoder) list(n *yaml.Node, field string, fn func(i int, v *yaml.Node) error) error {
	if n.Kind != yaml.SequenceNode {
		return d.errorf(n, field, "want a list, got %s", kindName(n))
	}
	for i, v := range n.Content {
		if err := fn(i, v); err != nil {
			return err
		}
	}
	return nil
}

// scalar returns a single value's text.
func (d *decoder) scalar(n *yaml.Node, field string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", d.errorf(n, field, "want a single value, got %s", kindName(n))
	}
	return n.Value, nil
}

func (d *decoder) str(n *yaml.Node, field string, dst *string) error {
	s, err := d.scalar(n, field)
	*dst = s
	return err
}

func (d *decoder) integer(n *yaml.Node, field string, lo int, dst *int) error {
	s, err := d.scalar(n, field)
	if err != nil {
		return err
	}
	v, err := parseCount(s, lo)
	if err != nil {
		return d.wrap(n, field, err)
	}
	*dst = v
	return nil
}

func (d *decoder) boolean(n *yaml.Node, field string, dst *bool) error {
	s, err := d.scalar(n, field)
	if err != nil {
		return err
	}
	v, err := strconv.ParseBool(s)
	if err != nil || (s != "true" && s != "false") {
		return d.errorf(n, field, "%q is not valid (valid: true, false)", s)
	}
	*dst = v
	return nil
}

// duration accepts a Go duration; zero is allowed ("0s" turns a warm-up off).
func (d *decoder) duration(n *yaml.Node, field string, dst *time.Duration) error {
	s, err := d.scalar(n, field)
	if err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return d.errorf(n, field, "%q is not a duration such as 5s or 1m", s)
	}
	*dst = v
	return nil
}

func join(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

func index(field string, i int) string { return fmt.Sprintf("%s[%d]", field, i) }
