package study

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseErrors loads each malformed study in testdata and checks that the error names
// the file, the line and the field, and says what is valid.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		file  string
		line  int
		field string
		msg   string // a substring of the message
	}{
		{"unknown-key.yaml", 5, "defaults.producers.recordsize", `unknown key "recordsize" (did you mean "record_size"?) (valid: count, duration, keys, properties, rate, record_size, records, throttle, transaction, transaction_aborts, transaction_records)`},
		{"bad-type.yaml", 2, "repeats", `"three" is not a whole number`},
		{"acks-2.yaml", 3, "matrix.acks[1]", `producer property acks="2" is not valid (valid: 0, 1, -1, all)`},
		{"replicas-over-brokers.yaml", 5, "matrix.replicas[2]", "scenario replicas=3: replicas 3 is more than the cluster's 2 brokers"},
		// yaml.v3 places an indentation error at the start of the enclosing block
		{"bad-yaml.yaml", 2, "", "invalid YAML: did not find expected key"},
		{"negative-size.yaml", 4, "defaults.producers.record_size", `size "-5" is negative`},
		{"unknown-property.yaml", 5, "defaults.producers.properties.batch.sise", `unknown producer property "batch.sise" (did you mean "batch.size"?)`},
		{"bad-property-shape.yaml", 5, "defaults.producers.properties.batchSize", "Kafka config names are lowercase words joined by dots"},
		{"secret-property.yaml", 5, "defaults.producers.properties.sasl.jaas.config", "credentials never go in a study"},
		{"records-and-duration.yaml", 5, "defaults.producers", "set records or duration, not both"},
		{"min-isr.yaml", 6, "defaults.topic.configs.min.insync.replicas", "min.insync.replicas 3 is more than the topic's 2 replicas"},
		{"unknown-parameter.yaml", 3, "matrix.bach", `unknown parameter "bach"`},
		{"bad-claim.yaml", 5, "hypotheses[0]", `records_per_sec(batch=4KiB): batch has no value "4KiB" (valid: 1KiB, 16KiB)`},
		{"claim-unknown-param.yaml", 5, "hypotheses[0]", `"acks" is not a parameter of this study (valid: batch)`},
		{"claim-overlap.yaml", 6, "hypotheses[0]", `hypothesis "mean(mbps(replicas=1)) > mbps(compression=gzip,replicas=1)": both sides select scenario(s) compression=gzip,replicas=1`},
		{"claim-ambiguous.yaml", 6, "hypotheses[0]", `mb_per_sec(compression=none) selects 2 scenarios (compression=none,replicas=1; compression=none,replicas=2): ` +
			`name one by all its parameters, or ask for an aggregate such as mean(mb_per_sec(compression=none))`},
		{"claim-mean-p99.yaml", 6, "hypotheses[0]", "mean(p99(...)) is refused: a mean of several scenarios' p99 is not the p99 of their records together"},
		{"bad-reference.yaml", 6, "reference.scenarios.batch=2KiB", `"batch=2KiB" is not a scenario of this study (valid: batch=1KiB, batch=16KiB)`},
		{"duplicate-scenario.yaml", 5, "scenarios", "scenario batch=16KiB appears twice"},
		{"sasl-listener.yaml", 3, "matrix.listener[1]", "listener sasl needs cluster.sasl (valid: scram-sha-512, scram-sha-256, plain)"},
		{"external-embedded-key.yaml", 3, "cluster.tls", "applies only to the embedded cluster"},
		{"missing-name.yaml", 1, "name", "missing"},
		{"named-value.yaml", 7, "matrix.replication[1]", `"semi" is not a value of parameter replication (valid: async, sync)`},
		{"ambiguous-size.yaml", 3, "matrix.batch[0]", `unit "KB" is ambiguous; use KiB, MiB, GiB or a byte count`},
		{"no-load.yaml", 4, "defaults.producers.count", "no load"},
		{"param-slash.yaml", 4, "parameters.mode.fast/slow", `"fast/slow" may not contain '/' or '\' (it becomes part of a scenario ID, which names a run directory)`},
		{"param-control.yaml", 3, "matrix.linger[0]", "may not contain control characters"},
		// 11 x 11 x 4 x 5 = 2420, counted by hand from the file
		{"matrix-too-large.yaml", 4, "matrix", "11 x 11 x 4 x 5 = 2420 scenarios, more than the 1000 one study may have"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("testdata", tt.file)
			_, err := Load(path)
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("Load(%s) error = %v, want a *study.Error", path, err)
			}
			if se.File != path || se.Line != tt.line || se.Field != tt.field || !strings.Contains(se.Msg, tt.msg) {
				t.Errorf("Load(%s) error:\n got %s:%d field %q: %s\nwant %s:%d field %q: ...%s...",
					path, se.File, se.Line, se.Field, se.Msg, path, tt.line, tt.field, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), path+":") {
				t.Errorf("error %q does not start with the file name", err)
			}
		})
	}
}

func TestLoadMissing(t *testing.T) {
	tests := []struct {
		ref, want string
	}{
		{"no-such-study", `no built-in study "no-such-study" (built-in: `},
		{"testdata/no-such-file.yaml", "unable to read study"},
	}
	for _, tt := range tests {
		_, err := Load(tt.ref)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Load(%q) error = %v, want it to contain %q", tt.ref, err, tt.want)
		}
	}
}

func TestParseDefaults(t *testing.T) {
	plan, err := Parse("minimal.yaml", []byte("name: minimal\n"))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Title != "minimal" || plan.Repeats != DefaultRepeats || plan.Warmup != DefaultWarmup || plan.Cooldown != DefaultCooldown {
		t.Errorf("plan defaults: title %q repeats %d warmup %s cooldown %s", plan.Title, plan.Repeats, plan.Warmup, plan.Cooldown)
	}
	c := plan.Cluster
	if c.Brokers != DefaultBrokers || c.KafkaVersion != DefaultKafkaVersion || c.Heap != DefaultHeap || c.External != nil {
		t.Errorf("cluster defaults: %+v", c)
	}
	if len(plan.Scenarios) != 1 {
		t.Fatalf("%d scenarios, want 1", len(plan.Scenarios))
	}
	s := plan.Scenarios[0]
	if s.ID != "default" || s.Kind() != "produce" || s.Topic.Partitions != 3 || s.Topic.Replicas != 3 ||
		s.Producers.Count != 1 || s.Producers.RecordSize != 1024 || s.Producers.Keys != "none" ||
		s.Producers.Duration != DefaultDuration || s.Producers.Records != 0 || s.Consumers.Count != 0 {
		t.Errorf("default scenario: %+v", s)
	}
}

func TestParseOneBroker(t *testing.T) {
	// the default of 3 replicas is capped at the broker count; an explicit 3 is an error
	plan, err := Parse("one.yaml", []byte("name: one\ncluster: {brokers: 1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if r := plan.Scenarios[0].Topic.Replicas; r != 1 {
		t.Errorf("replicas %d on one broker, want 1", r)
	}
	_, err = Parse("one.yaml", []byte("name: one\ncluster: {brokers: 1}\ndefaults: {topic: {replicas: 3}}\n"))
	if err == nil || !strings.Contains(err.Error(), "one.yaml:3: defaults.topic.replicas: replicas 3 is more than the cluster's 1 brokers") {
		t.Errorf("error = %v", err)
	}
}

// TestParseBrokerConfigNames accepts per-listener broker configs, whose names embed the
// listener and mechanism with '_' and '-', and refuses names that are not configs.
func TestParseBrokerConfigNames(t *testing.T) {
	const name = "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config"
	plan, err := Parse("b.yaml", []byte("name: b\ncluster:\n  broker_configs:\n    "+name+": x\n    num.io.threads: 8\n"))
	if err != nil {
		t.Fatal(err)
	}
	if plan.Cluster.BrokerConfigs[name] != "x" || plan.Cluster.BrokerConfigs["num.io.threads"] != "8" {
		t.Errorf("broker configs = %v", plan.Cluster.BrokerConfigs)
	}
	_, err = Parse("b.yaml", []byte("name: b\ncluster:\n  broker_configs:\n    Num.IO threads: 8\n"))
	if err == nil || !strings.Contains(err.Error(), `b.yaml:4: cluster.broker_configs.Num.IO threads: "Num.IO threads" is not a Kafka config name`) {
		t.Errorf("error = %v", err)
	}
}

func TestParseExternal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ext.yaml")
	data := "name: ext\ncluster:\n  external:\n    bootstrap: kafka-1:9092\n    command_config: client.properties\n    metrics_urls: [http://kafka-1:7071/metrics]\n"
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	plan, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	e := plan.Cluster.External
	if e == nil || e.Bootstrap != "kafka-1:9092" || e.CommandConfig != filepath.Join(dir, "client.properties") || len(e.MetricsURLs) != 1 {
		t.Fatalf("external = %+v", e)
	}
	// brokers unknown: no replication check, and no cluster start in the estimate
	if plan.Cluster.Brokers != 0 || plan.EstimatedDuration() != plan.ScenarioDuration(plan.Scenarios[0])*3 {
		t.Errorf("brokers %d, estimate %s", plan.Cluster.Brokers, plan.EstimatedDuration())
	}
}
