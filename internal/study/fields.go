package study

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/zones"
)

// listenerChoices are the listener values.
var listenerChoices = []string{"plain", "sasl", "tls", "remote"}

// keyChoices are the producers.keys values.
var keyChoices = []string{"none", "random"}

// defaultScenario is the scenario every study starts from before its defaults section.
func defaultScenario(brokers int) Scenario {
	replicas := 3
	if brokers > 0 && brokers < replicas {
		replicas = brokers
	}
	return Scenario{
		Topic:     Topic{Partitions: 3, Replicas: replicas, Configs: map[string]string{}},
		Producers: Producers{Count: 1, Properties: map[string]string{}, RecordSize: 1024, Keys: "none", Duration: DefaultDuration},
		Consumers: Consumers{Properties: map[string]string{}, Duration: DefaultDuration},
		Capacity: Capacity{SLO: map[string]time.Duration{}, Precision: DefaultCapacityPrecision, Trial: DefaultCapacityTrial,
			ExceedRatio: DefaultCapacityExceedRatio, Confirm: DefaultCapacityConfirm, MaxDuration: DefaultCapacityMaxDuration},
		Verify: Verify{Rate: DefaultVerifyRate},
	}
}

// clone deep-copies the scenario's maps so points of a matrix never share them.
func (s Scenario) clone() Scenario {
	s.Params = maps.Clone(s.Params)
	s.Topic.Configs = maps.Clone(s.Topic.Configs)
	s.Producers.Properties = maps.Clone(s.Producers.Properties)
	s.Consumers.Properties = maps.Clone(s.Consumers.Properties)
	s.Capacity.SLO = maps.Clone(s.Capacity.SLO)
	return s
}

// parseCount parses a whole number no smaller than lo; underscores may group digits.
func parseCount(s string, lo int) (int, error) {
	n, err := strconv.Atoi(strings.ReplaceAll(s, "_", ""))
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	if n < lo {
		return 0, fmt.Errorf("%d is less than %d", n, lo)
	}
	return n, nil
}

// parseRecords parses a record count: a whole number of at least 1.
func parseRecords(s string) (int64, error) {
	n, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number of records", s)
	}
	if n < 1 {
		return 0, fmt.Errorf("record count %d is less than 1", n)
	}
	return n, nil
}

// parseDuration parses a positive Go duration such as "10s" or "1m30s".
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration such as 10s or 1m30s", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("duration %s is not positive", s)
	}
	return d, nil
}

// parseLinkBandwidth parses a zone link's bandwidth per direction: a size per second such
// as 100MiB (at least 64KiB), or "unlimited" (0), so a sweep can include the uncapped link.
func parseLinkBandwidth(s string) (int64, error) {
	if s == "unlimited" {
		return 0, nil
	}
	b, err := zones.ParseBandwidth(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a bandwidth per direction such as 100MiB, or unlimited", s)
	}
	if err := (zones.Link{Bandwidth: b}).Validate(); err != nil {
		return 0, err
	}
	return b, nil
}
