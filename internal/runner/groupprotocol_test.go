package runner

import "testing"

// run.json records each scenario's group protocol: the consumers' group.protocol, classic
// when they set none, nothing for a scenario without consumers.
func TestRunRecordsGroupProtocol(t *testing.T) {
	plan := parseStudy(t, `name: t-protocol
repeats: 1
defaults:
  topic: {partitions: 2, replicas: 1}
  producers: {record_size: 10, records: 20}
  consumers: {count: 1}
parameters:
  protocol: consumers.properties.group.protocol
matrix:
  protocol: [classic, consumer]
`)
	want := map[string]string{}
	for _, sc := range plan.Scenarios {
		want[sc.ID] = sc.Params["protocol"]
	}
	run := newRun(plan, "test")
	if len(run.Scenarios) != 2 {
		t.Fatalf("%d scenarios, want 2", len(run.Scenarios))
	}
	for _, sc := range run.Scenarios {
		if sc.GroupProtocol != want[sc.ID] {
			t.Errorf("%s: group protocol %q, want %q", sc.ID, sc.GroupProtocol, want[sc.ID])
		}
	}
}
