package study

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestCapacitySection decodes a capacity search in defaults and overrides it for one listed
// scenario, and checks the time it adds to the estimate by hand.
func TestCapacitySection(t *testing.T) {
	src := `name: cap
repeats: 2
warmup: 2s
cluster: {brokers: 1}
defaults:
  producers: {duration: 5s}
  capacity: {slo: {p99: 50ms, p999: 200ms}, precision: 2%, trial: 8s, max_trials: 10}
scenarios:
  - {acks: "1"}
  - {acks: all, set: {capacity.trial: 4s}}
`
	plan, err := Parse("cap.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c := plan.Scenarios[0].Capacity
	if !c.Enabled() || c.SLO["p99"] != 50*time.Millisecond || c.SLO["p999"] != 200*time.Millisecond ||
		c.Precision != 0.02 || c.Trial != 8*time.Second || c.MaxTrials != 10 {
		t.Errorf("capacity = %+v", c)
	}
	if got := c.SLOString(); got != "p99=50ms,p999=200ms" {
		t.Errorf("SLOString = %q", got)
	}
	if got := plan.Scenarios[1].Capacity.Trial; got != 4*time.Second {
		t.Errorf("listed scenario's trial = %v, want 4s", got)
	}
	// Scenario 0, one repeat: 3s topic + 2s warm-up + 5s window + the typical search (6
	// short trials of 2s, 4 of 8s, the 60s confirmation, 11 x (2s warm-up + 1s settle) =
	// 137s) + 2s cool-down = 149s.
	if got := plan.ScenarioDuration(plan.Scenarios[0]); got != 149*time.Second {
		t.Errorf("ScenarioDuration = %v, want 149s", got)
	}
}

// TestCapacityDefaults: a capacity section with only an SLO searches as kbench capacity does
// by default (docs/study-format.md): 5% precision, 40 s trials, 50% exceed ratio, a 60 s
// confirmation, a 10-minute budget.
func TestCapacityDefaults(t *testing.T) {
	plan, err := Parse("cap.yaml", []byte("name: cap\ncluster: {brokers: 1}\ndefaults:\n  capacity: {slo: {p99: 50ms}}\nscenarios:\n  - {acks: \"1\"}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := plan.Scenarios[0].Capacity
	if c.Precision != 0.05 || c.Trial != 40*time.Second || c.ExceedRatio != 0.5 || c.Confirm != 60*time.Second || c.MaxDuration != 10*time.Minute || c.DurationSum != 0 {
		t.Errorf("capacity defaults = %+v, want precision 0.05, trial 40s, exceed ratio 0.5, confirm 1m, max duration 10m, duration sum 0 (the search's)", c)
	}
}

// TestCapacityErrors checks that a bad capacity section is refused at its line.
func TestCapacityErrors(t *testing.T) {
	head := "name: cap\ncluster: {brokers: 1}\ndefaults:\n"
	tests := []struct {
		body, field, msg string
		line             int
	}{
		{"  capacity: {slo: {p100: 50ms}}\n", "defaults.capacity.slo.p100", `"p100" is not a percentile`, 4},
		{"  capacity: {slo: {p99: fast}}\n", "defaults.capacity.slo.p99", `"fast" is not a latency`, 4},
		{"  capacity: {slo: {p99: 5ms}, precision: 150%}\n", "defaults.capacity.precision", "not a precision between 0 and 1", 4},
		{"  capacity: {slo: {p99: 5ms}, trial: 1s}\n", "defaults.capacity.trial", "shorter than 4s", 4},
		{"  capacity:\n    slos: {p99: 5ms}\n", "defaults.capacity.slos", `unknown key "slos" (did you mean "slo"?)`, 5},
		{"  producers: {count: 0}\n  consumers: {count: 1, records: 10}\n  capacity: {slo: {p99: 5ms}}\n", "defaults.producers.count", "capacity search offers rates to producers", 4},
	}
	for _, tt := range tests {
		_, err := Parse("cap.yaml", []byte(head+tt.body))
		var se *Error
		if !errors.As(err, &se) || se.Field != tt.field || se.Line != tt.line || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("%q: error %v, want line %d field %s containing %q", tt.body, err, tt.line, tt.field, tt.msg)
		}
	}
}
