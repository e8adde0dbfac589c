package study

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/settings"
	"github.com/kbench/kbench/internal/zones"
)

// The settable scenario fields, by dotted path. Parameters and the defaults section both
// set scenario fields through setField, so a value is checked the same way wherever it is
// written.
var scalarFields = []string{
	"listener",
	"network.client_rtt",
	"network.client_bandwidth",
	"network.broker_rtt",
	"topic.partitions",
	"topic.replicas",
	"producers.count",
	"producers.record_size",
	"producers.keys",
	"producers.rate",
	"producers.throttle",
	"producers.records",
	"producers.duration",
	"consumers.count",
	"consumers.group",
	"consumers.fetch_size",
	"consumers.records",
	"consumers.duration",
	"capacity.precision",
	"capacity.trial",
	"capacity.max_trials",
	"capacity.max_duration",
	"capacity.exceed_ratio",
	"capacity.duration_sum",
	"capacity.confirm",
	"verify.faults",
	"verify.duration",
	"verify.rate",
}

// mapFields are the fields whose remaining path is a free name: a Kafka config name, or
// (capacity.slo) a percentile; cluster.broker_configs.<name> is part of the cluster shape.
var mapFields = []string{"topic.configs", "producers.properties", "consumers.properties", "capacity.slo", "cluster.broker_configs"}

// fieldChoices lists every valid field path, for error messages.
func fieldChoices() []string {
	out := slices.Clone(scalarFields)
	for _, m := range mapFields {
		out = append(out, m+".<name>")
	}
	return out
}

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

// validField reports whether path names a settable field.
func validField(path string) bool {
	if slices.Contains(scalarFields, path) {
		return true
	}
	for _, m := range mapFields {
		if name, ok := strings.CutPrefix(path, m+"."); ok && name != "" {
			return true
		}
	}
	return false
}

// setField sets the field at path from its written value.
func (s *Scenario) setField(path, value string) error {
	for _, m := range mapFields {
		name, ok := strings.CutPrefix(path, m+".")
		if !ok {
			continue
		}
		switch m {
		case "topic.configs":
			v, err := checkSetting(settings.Topic, name, value)
			if err != nil {
				return err
			}
			s.Topic.Configs[name] = v
		case "producers.properties":
			v, err := checkSetting(settings.Producer, name, value)
			if err != nil {
				return err
			}
			s.Producers.Properties[name] = v
		case "consumers.properties":
			v, err := checkSetting(settings.Consumer, name, value)
			if err != nil {
				return err
			}
			s.Consumers.Properties[name] = v
		case "capacity.slo":
			p, d, err := parseSLO(name, value)
			if err != nil {
				return err
			}
			s.Capacity.SLO[p] = d
		case "cluster.broker_configs":
			// A server.properties entry of the scenario's cluster shape (a cluster of its own).
			if _, err := s.setShapeField(path, value); err != nil {
				return err
			}
		}
		return nil
	}
	if ok, err := s.setShapeField(path, value); ok {
		return err
	}
	var err error
	switch path {
	case "listener":
		if !slices.Contains(listenerChoices, value) {
			err = fmt.Errorf("%q is not valid %s", value, choices(listenerChoices))
		}
		s.Listener = value
	case "network.client_rtt":
		rtt, perr := time.ParseDuration(value)
		if perr != nil || rtt < 0 || rtt > 10*time.Second {
			err = fmt.Errorf("%q is not a round-trip time from 0 to 10s, such as 10ms", value)
		}
		s.ClientRTT = &rtt
	case "network.client_bandwidth":
		var b int64
		b, err = parseLinkBandwidth(value)
		s.ClientBandwidth = &b
	case "network.broker_rtt":
		rtt, perr := time.ParseDuration(value)
		if perr != nil || rtt < 0 || rtt > 10*time.Second {
			err = fmt.Errorf("%q is not a round-trip time from 0 to 10s, such as 2ms", value)
		}
		s.BrokerRTT = &rtt
	case "topic.partitions":
		s.Topic.Partitions, s.Topic.PerBroker, err = parsePartitions(value)
	case "topic.replicas":
		s.Topic.Replicas, err = parseCount(value, 1)
	case "producers.count":
		s.Producers.Count, err = parseCount(value, 0)
	case "producers.record_size":
		var n int64
		n, err = ParseSize(value)
		if err == nil && n < 1 {
			err = fmt.Errorf("record size must be at least 1 byte")
		}
		s.Producers.RecordSize = int(n)
	case "producers.keys":
		if !slices.Contains(keyChoices, value) {
			err = fmt.Errorf("%q is not valid %s", value, choices(keyChoices))
		}
		s.Producers.Keys = value
	case "producers.rate":
		s.Producers.Rate, err = parseCount(value, 0)
	case "producers.throttle":
		s.Producers.Throttle, err = parseCount(value, 0)
	case "producers.records":
		s.Producers.Records, err = parseRecords(value)
		s.Producers.Duration = 0
	case "producers.duration":
		s.Producers.Duration, err = parseDuration(value)
		s.Producers.Records = 0
	case "consumers.count":
		s.Consumers.Count, err = parseCount(value, 0)
	case "consumers.group":
		s.Consumers.Group = value
	case "consumers.fetch_size":
		var n int64
		n, err = ParseSize(value)
		s.Consumers.FetchSize = int(n)
	case "consumers.records":
		s.Consumers.Records, err = parseRecords(value)
		s.Consumers.Duration = 0
	case "consumers.duration":
		s.Consumers.Duration, err = parseDuration(value)
		s.Consumers.Records = 0
	case "capacity.precision":
		s.Capacity.Precision, err = parsePrecision(value)
	case "capacity.trial":
		s.Capacity.Trial, err = parseDuration(value)
		if err == nil && s.Capacity.Trial < MinCapacityTrial {
			err = fmt.Errorf("trial %s is shorter than %s (trials while the bracket is wide last a quarter of it)", value, MinCapacityTrial)
		}
	case "capacity.max_trials":
		s.Capacity.MaxTrials, err = parseCount(value, 0)
	case "capacity.max_duration":
		s.Capacity.MaxDuration, err = parseDuration(value)
	case "capacity.exceed_ratio":
		s.Capacity.ExceedRatio, err = parseExceedRatio(value)
	case "capacity.duration_sum":
		s.Capacity.DurationSum, err = parseDuration(value)
	case "capacity.confirm":
		s.Capacity.Confirm, err = parseDuration(value)
	case "verify.faults":
		s.Verify.Faults = value
	case "verify.duration":
		s.Verify.Duration, err = parseDuration(value)
	case "verify.rate":
		s.Verify.Rate, err = parseCount(value, 1)
	default:
		err = fmt.Errorf("unknown field %q %s", path, choices(fieldChoices()))
	}
	return err
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
