package load

import (
	"fmt"
	"strings"

	"github.com/kbench/kbench/internal/kafka"
	"github.com/kbench/kbench/internal/settings"
)

// SupportedProperties returns the Java property names kbench accepts for role (settings.Producer
// or settings.Consumer), sorted.
func SupportedProperties(role settings.Role) []string { return settings.Names(role, nil) }

// ParseProperties translates Java client properties for role into franz-go options
// (kafka.ParseProperties).
func ParseProperties(role settings.Role, props map[string]string) (*kafka.ClientSettings, error) {
	return kafka.ParseProperties(role, props)
}

// ParsePropertyArgs parses "name=value" arguments (--producer-props, --command-property, -X).
// Only the first '=' separates, so a value may contain '=' (sasl.jaas.config inline).
func ParsePropertyArgs(args []string) (map[string]string, error) {
	props := map[string]string{}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("invalid property %q: want name=value", a)
		}
		props[k] = v
	}
	return props, nil
}

// clientSettings parses props for role and resolves the seed brokers: bootstrap (a flag)
// wins over bootstrap.servers. The effective settings record both, and the numbered client
// IDs kbench gives its clients when props has none.
func clientSettings(role settings.Role, props map[string]string, bootstrap string) (*kafka.ClientSettings, []string, error) {
	settings, err := ParseProperties(role, props)
	if err != nil {
		return nil, nil, err
	}
	seeds := settings.Bootstrap
	if bootstrap != "" {
		seeds = strings.Split(bootstrap, ",")
		settings.Effective["bootstrap.servers"] = bootstrap
	}
	if len(seeds) == 0 {
		return nil, nil, fmt.Errorf("invalid %s configuration: no bootstrap servers (--bootstrap-server or bootstrap.servers)", role)
	}
	if _, ok := props["client.id"]; !ok {
		settings.Effective["client.id"] = fmt.Sprintf("kbench-%s-<n>", role)
	}
	return settings, seeds, nil
}

// CheckProducerProperties checks producer properties as Produce will, and, when the record
// value sizes are known (largest > 0), that such records can be sent with them: nothing is
// connected or allocated, so a caller can refuse bad input before anything starts.
func CheckProducerProperties(props map[string]string, smallest, largest int) error {
	s, err := ParseProperties(settings.Producer, props)
	if err != nil || largest <= 0 {
		return err
	}
	if err := settings.CheckRecords(s.Resolved, int64(smallest), int64(largest)); err != nil {
		return fmt.Errorf("invalid producer configuration: %w", err)
	}
	return nil
}
