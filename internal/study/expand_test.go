package study

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

const matrixStudy = `
name: grid
parameters:
  replication:
    async: {producers.properties.acks: "1"}
    sync: {producers.properties.acks: all, topic.configs.min.insync.replicas: 2}
defaults:
  topic: {configs: {retention.ms: 60000}}
  producers: {properties: {linger.ms: 5}}
matrix:
  batch: [1KiB, 16KiB]
  replicas: [1, 3]
  replication: [async, sync]
scenarios:
  - {batch: 64KiB, set: {producers.count: 4}}
`

func TestExpand(t *testing.T) {
	// sync with 1 replica is impossible (min.insync.replicas 2 > 1 replica), so the grid
	// study must be rejected; take it without that value first.
	_, err := Parse("grid.yaml", []byte(matrixStudy))
	if err == nil || !strings.Contains(err.Error(), "grid.yaml:6: parameters.replication.sync.topic.configs.min.insync.replicas: scenario batch=1KiB,replicas=1,replication=sync: min.insync.replicas 2 is more than the topic's 1 replicas") {
		t.Fatalf("error = %v", err)
	}
	plan, err := Parse("grid.yaml", []byte(strings.Replace(matrixStudy, "replicas: [1, 3]", "replicas: [2, 3]", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"batch", "replicas", "replication"}; !slices.Equal(plan.Parameters, want) {
		t.Errorf("Parameters = %v, want %v", plan.Parameters, want)
	}
	var ids []string
	for _, s := range plan.Scenarios {
		ids = append(ids, s.ID)
	}
	// first parameter varies slowest; listed scenarios come after the matrix
	want := []string{
		"batch=1KiB,replicas=2,replication=async",
		"batch=1KiB,replicas=2,replication=sync",
		"batch=1KiB,replicas=3,replication=async",
		"batch=1KiB,replicas=3,replication=sync",
		"batch=16KiB,replicas=2,replication=async",
		"batch=16KiB,replicas=2,replication=sync",
		"batch=16KiB,replicas=3,replication=async",
		"batch=16KiB,replicas=3,replication=sync",
		"batch=64KiB",
	}
	if !slices.Equal(ids, want) {
		t.Errorf("IDs:\n got %v\nwant %v", ids, want)
	}
	tests := []struct {
		i          int
		replicas   int
		producers  int
		properties map[string]string
		configs    map[string]string
	}{
		{0, 2, 1, map[string]string{"acks": "1", "batch.size": "1024", "linger.ms": "5"}, map[string]string{"retention.ms": "60000"}},
		{7, 3, 1, map[string]string{"acks": "all", "batch.size": "16384", "linger.ms": "5"}, map[string]string{"retention.ms": "60000", "min.insync.replicas": "2"}},
		// the listed scenario keeps the defaults for what it does not set
		{8, 3, 4, map[string]string{"batch.size": "65536", "linger.ms": "5"}, map[string]string{"retention.ms": "60000"}},
	}
	for _, tt := range tests {
		s := plan.Scenarios[tt.i]
		if s.Topic.Replicas != tt.replicas || s.Producers.Count != tt.producers ||
			!maps.Equal(s.Producers.Properties, tt.properties) || !maps.Equal(s.Topic.Configs, tt.configs) {
			t.Errorf("%s: replicas %d producers %d properties %v configs %v", s.ID, s.Topic.Replicas, s.Producers.Count, s.Producers.Properties, s.Topic.Configs)
		}
	}
	if p := plan.Scenarios[0].Params; !maps.Equal(p, map[string]string{"batch": "1KiB", "replicas": "2", "replication": "async"}) {
		t.Errorf("Params = %v", p)
	}
}
