package cluster

import _ "embed"

// jmxExporterRules maps Kafka's JMX beans to the Prometheus names that internal/metrics reads,
// so embedded brokers expose the same metrics as an external cluster's exporter.
//
//go:embed jmx-exporter.yaml
var jmxExporterRules []byte
