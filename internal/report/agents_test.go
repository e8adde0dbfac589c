package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

func TestAgentRowsInMarkdown(t *testing.T) {
	rd := &results.RunDir{
		Run: results.Run{Scenarios: []results.Scenario{{ID: "s1"}, {ID: "local"}}},
		Repeats: map[string][]results.Repeat{
			"s1": {{Repeat: 2, Agents: &results.Agents{StartSkewMs: 1.5, ControlBytes: 4096, Rows: []results.AgentRow{
				{Agent: "a", Host: "h1", Producers: 2, ShareRecords: 400, Acked: 400, RecordsPerSec: 200, P99Us: 2500, StartOffsetMs: 0.5, File: "scenarios/s1/agents/repeat-2-a.json"},
				{Agent: "b", Host: "h2", Producers: 1, Acked: 150, Unsent: 3, RecordsPerSec: 75, P99Us: 12000, StartOffsetMs: 2, File: "scenarios/s1/agents/repeat-2-b.json"},
			}}}},
			"local": {{Repeat: 1}},
		},
	}
	m := &Model{Agents: agentRows(rd)}
	if len(m.Agents) != 2 || m.Agents[1].ID != "s1" || m.Agents[1].Repeat != 2 || m.Agents[1].StartSkewMs != 1.5 {
		t.Fatalf("rows %+v", m.Agents)
	}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, m); err != nil {
		t.Fatal(err)
	}
	// p99 2500 us = 2.50 ms; b's 12000 us = 12.00 ms; b ran by duration (no record share).
	var h bytes.Buffer
	if err := WriteHTML(&h, m); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.String(), "<h3>4.3 Load from agents</h3>") || !strings.Contains(h.String(), "<td>scenarios/s1/agents/repeat-2-b.json</td>") {
		t.Errorf("HTML lacks the agents table")
	}
	for _, want := range []string{
		"### 4.3 Load from agents",
		"| `s1` | 2 | a | h1 | 2 | 400 | 400 | 0 | 0 | 200.0 | 2.50 | +0.5 | 1.5 | 4096 | scenarios/s1/agents/repeat-2-a.json |",
		"| `s1` | 2 | b | h2 | 1 | by duration | 150 | 0 | 3 | 75.0 | 12.00 | +2.0 | 1.5 | 4096 |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}
