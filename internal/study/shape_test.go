package study

import (
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/flavor"
)

// TestShapeParameters sweeps cluster fields as parameters: each scenario gets its shape,
// partitions written per broker follow the scenario's broker count, and a wrong value is
// refused at its line.
func TestShapeParameters(t *testing.T) {
	const study = `name: s
cluster: {brokers: 3}
parameters:
  disk:
    high-io: {cluster.disk.write_mib_per_sec: 150}
    ultra-high-io: {cluster.disk.write_mib_per_sec: 350, cluster.disk.write_iops: 50000}
defaults:
  topic: {partitions: 2 x brokers}
matrix:
  brokers: [1, 6]
  kafka_version: [3.9.1, 4.1.1]
scenarios:
  - {disk: high-io}
  - {disk: ultra-high-io, broker_cpus: 0.5}
`
	plan, err := Parse("s.yaml", []byte(study))
	if err != nil {
		t.Fatal(err)
	}
	// 2 x 2 matrix points, then the two listed scenarios on the cluster section's 3 brokers.
	want := []struct {
		id         string
		shape      Shape
		partitions int // 2 x brokers
		replicas   int // default 3, capped at the scenario's brokers
	}{
		{"brokers=1,kafka_version=3.9.1", Shape{Brokers: 1, KafkaVersion: "3.9.1", Heap: "1g"}, 2, 1},
		{"brokers=1,kafka_version=4.1.1", Shape{Brokers: 1, KafkaVersion: "4.1.1", Heap: "1g"}, 2, 1},
		{"brokers=6,kafka_version=3.9.1", Shape{Brokers: 6, KafkaVersion: "3.9.1", Heap: "1g"}, 12, 3},
		{"brokers=6,kafka_version=4.1.1", Shape{Brokers: 6, KafkaVersion: "4.1.1", Heap: "1g"}, 12, 3},
		// 150 MiB/s = 157,286,400 B/s; 350 MiB/s = 367,001,600 B/s.
		{"disk=high-io", Shape{Brokers: 3, KafkaVersion: "4.4.0", Heap: "1g",
			Limits: flavor.Limits{Disk: flavor.Disk{WriteBPS: 157286400}}}, 6, 3},
		{"disk=ultra-high-io,broker_cpus=0.5", Shape{Brokers: 3, KafkaVersion: "4.4.0", Heap: "1g",
			Limits: flavor.Limits{CPUs: 0.5, Disk: flavor.Disk{WriteBPS: 367001600, WriteIOPS: 50000}}}, 6, 3},
	}
	if len(plan.Scenarios) != len(want) {
		t.Fatalf("%d scenarios, want %d", len(plan.Scenarios), len(want))
	}
	for i, w := range want {
		s := plan.Scenarios[i]
		if s.ID != w.id || s.Cluster != w.shape || s.Topic.Partitions != w.partitions || s.Topic.Replicas != w.replicas {
			t.Errorf("scenario %d: %s %+v %dp x%dr, want %s %+v %dp x%dr", i, s.ID, s.Cluster, s.Topic.Partitions, s.Topic.Replicas,
				w.id, w.shape, w.partitions, w.replicas)
		}
	}
	// Every scenario has a shape of its own: six groups, in study order.
	groups := plan.ShapeGroups()
	if len(groups) != 6 || groups[2].Indexes[0] != 2 {
		t.Errorf("groups %+v", groups)
	}
}

// TestShapeErrors refuses impossible shapes at the line that wrote them.
func TestShapeErrors(t *testing.T) {
	for _, tc := range []struct{ body, err string }{
		{"matrix: {brokers: [1, 17]}", `s.yaml:2: matrix.brokers[1]: 17 brokers is more than the 16`},
		{"matrix: {kafka_version: [3.8.1]}", `s.yaml:2: matrix.kafka_version[0]: version 3.8.1 is older than 3.9.0`},
		{"matrix: {kafka_version: [4.x]}", `matrix.kafka_version[0]: "4.x" is not a version`},
		{"matrix: {heap: [lots]}", `matrix.heap[0]: "lots" is not a JVM heap size`},
		{"matrix: {disk: [ssd]}", `matrix.disk[0]: "ssd" is not tmpfs or none`},
		{"matrix: {partitions: [2xbrokers, 3xnodes]}", `matrix.partitions[1]: "3xnodes" is not a partition count or a multiple`},
		{"matrix: {brokers: [1, 3]}\ndefaults: {topic: {replicas: 3}}", `s.yaml:3: defaults.topic.replicas: scenario brokers=1: replicas 3 is more than the cluster's 1 brokers`},
		{"cluster: {external: {bootstrap: k:9092}}\nmatrix: {brokers: [3, 6]}", `s.yaml:3: matrix.brokers[0]: cluster.brokers applies only to the embedded cluster`},
		{"cluster: {external: {bootstrap: k:9092}}\nmatrix: {partitions: [2xbrokers]}", `s.yaml:3: matrix.partitions[0]: partitions per broker need the broker count`},
	} {
		_, err := Parse("s.yaml", []byte("name: s\n"+tc.body+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.body, err, tc.err)
		}
	}
}

// TestShapeEstimate counts one cluster start, warm-up and stop per shape.
func TestShapeEstimate(t *testing.T) {
	const body = `name: s
repeats: 2
warmup: 1s
cooldown: 1s
defaults: {producers: {duration: 3s}}
matrix: {brokers: [1, 3], acks: ["1", all]}
`
	plan, err := Parse("s.yaml", []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	// Each repeat: 3 s topic setup + 1 s warm-up + 3 s window + 1 s cool-down = 8 s;
	// 4 scenarios x 2 repeats = 64 s. Two clusters: 2 x (20 s start + 60 s warm-up at most,
	// the default jit_warmup) + 1 stop of 5 s = 165 s. Total 229 s.
	if got := plan.EstimatedDuration(); got != 229*time.Second {
		t.Errorf("estimate %s, want 3m49s", got)
	}
	// One group: 80 s of cluster + 2 scenarios x 2 repeats x 8 s = 112 s.
	g := plan.ShapeGroups()
	if len(g) != 2 || plan.GroupDuration(g[0]) != 112*time.Second {
		t.Errorf("groups %+v, first %s, want 1m52s", g, plan.GroupDuration(g[0]))
	}
	var b strings.Builder
	if err := plan.Describe(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"2 cluster groups",
		"group 1: 1 broker, Kafka 4.4.0, heap 1g; scenarios 1 2; estimate 1m52s",
		"group 2: 3 brokers, Kafka 4.4.0, heap 1g; scenarios 3 4; estimate 1m52s",
		"estimated duration: 3m49s (8 scenario runs, 2 clusters started, warmed and stopped 2m45s)",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("describe lacks %q:\n%s", want, b.String())
		}
	}
}

// TestShapeBrokerConfigs: cluster.broker_configs.<name> set by a parameter is part of the
// scenario's cluster shape (a cluster of its own), on top of the cluster section's configs.
func TestShapeBrokerConfigs(t *testing.T) {
	for _, tc := range []struct {
		name, study string
		want        []string // each scenario's Shape.BrokerConfigs
		groups      int
		err         string
	}{
		{name: "a disk class with its flush", study: `cluster: {broker_configs: {num.io.threads: 4}}
parameters:
  disk:
    plain: {}
    high-io: {cluster.disk.write_mib_per_sec: 6, cluster.broker_configs.log.flush.interval.messages: 1, cluster.broker_configs.log.flush.interval.ms: 1000}
matrix: {disk: [plain, high-io]}`,
			// sorted by name: log.flush.interval.messages before log.flush.interval.ms
			want: []string{"", "log.flush.interval.messages=1\nlog.flush.interval.ms=1000"}, groups: 2},
		{name: "a field path as the parameter", study: "matrix: {cluster.broker_configs.num.io.threads: [4, 8]}",
			want: []string{"num.io.threads=4", "num.io.threads=8"}, groups: 2},
		{name: "not a config name", study: "matrix: {cluster.broker_configs.Num.IO: [4]}",
			err: "\"Num.IO\" is not a Kafka config name"},
		{name: "a secret", study: "matrix: {cluster.broker_configs.ssl.keystore.password: [x]}",
			err: "holds a secret"},
		{name: "external", study: "cluster: {external: {bootstrap: k:9092}}\nmatrix: {cluster.broker_configs.num.io.threads: [4]}",
			err: "applies only to the embedded cluster"},
	} {
		plan, err := Parse("f.yaml", []byte("name: f\n"+tc.study+"\n"))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		for i, sc := range plan.Scenarios {
			if sc.Cluster.BrokerConfigs != tc.want[i] {
				t.Errorf("%s: scenario %s: broker configs %q, want %q", tc.name, sc.ID, sc.Cluster.BrokerConfigs, tc.want[i])
			}
		}
		if n := len(plan.ShapeGroups()); n != tc.groups {
			t.Errorf("%s: %d shape groups, want %d", tc.name, n, tc.groups)
		}
	}
	s := Shape{Brokers: 3, BrokerConfigs: "log.flush.interval.messages=1\nnum.io.threads=4"}
	if got, want := s.String(), "3 brokers, broker configs log.flush.interval.messages=1, num.io.threads=4"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if m := s.BrokerConfigMap(); len(m) != 2 || m["num.io.threads"] != "4" || m["log.flush.interval.messages"] != "1" {
		t.Errorf("BrokerConfigMap() = %v", m)
	}
}
