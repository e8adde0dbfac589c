package runner

import (
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/study"
)

func TestRefuseAgents(t *testing.T) {
	plan := func(producers, consumers, partitions int) *study.Plan {
		sc := study.Scenario{ID: "s"}
		sc.Producers.Count, sc.Consumers.Count, sc.Topic.Partitions = producers, consumers, partitions
		return &study.Plan{Name: "p", Scenarios: []study.Scenario{sc}}
	}
	tests := []struct {
		name   string
		plan   *study.Plan
		agents int
		want   string
	}{
		{"no agents", plan(1, 0, 1), 0, ""},
		{"enough producers", plan(3, 0, 1), 3, ""},
		{"too few producers", plan(2, 0, 6), 3, "its 2 producers cannot be split between --agents 3"},
		{"consumers with a partition each", plan(3, 1, 3), 3, ""},
		{"consumers, too few partitions", plan(6, 1, 2), 3, "its topic's 2 partitions cannot be split between --agents 3"},
		{"consume-only runs here", plan(0, 1, 1), 3, ""},
		{"negative", plan(1, 0, 1), -1, "--agents -1 is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := refuseAgents(Options{Plan: tt.plan, Agents: tt.agents})
			if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("refuseAgents = %v, want %q", err, tt.want)
			}
		})
	}
}
