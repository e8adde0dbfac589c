package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/results"
)

// durabilityRun is a run of two scenarios with a durability check each: one clean under
// three leader kills, one (acks=1) that lost records.
func durabilityRun() *results.RunDir {
	return &results.RunDir{
		Run: results.Run{Scenarios: []results.Scenario{{ID: "acks=all"}, {ID: "acks=1"}}},
		Repeats: map[string][]results.Repeat{
			"acks=all": {{Repeat: 1, Durability: &results.Durability{Replicas: 3,
				TopicConfigs:  map[string]string{"min.insync.replicas": "2"},
				ProducerProps: map[string]string{"acks": "all"},
				Applied:       []string{"leader-kill", "leader-kill", "leader-kill"},
				Acknowledged:  40000}}, {Repeat: 2}},
			"acks=1": {{Repeat: 1, Durability: &results.Durability{Replicas: 3,
				// min.insync.replicas not set by the study: the value read back is stated.
				EffectiveTopicConfigs: map[string]string{"min.insync.replicas": "1", "unclean.leader.election.enable": "false"},
				ProducerProps:         map[string]string{"acks": "1"},
				Applied:               []string{"leader-kill", "pause"},
				Acknowledged:          74998, VerifyCounts: results.VerifyCounts{Lost: 35, Inconsistent: 70}}}},
		},
	}
}

func TestDurabilityRows(t *testing.T) {
	rows := durabilityRows(durabilityRun())
	want := []string{
		"acks=all: 0 of 40,000 acknowledged records lost under 3 leader kills (acks=all, min.insync.replicas=2, 3 replicas); no other anomaly (one check: no anomaly under these faults here, not a proof that none can occur)",
		"acks=1: 35 of 74,998 acknowledged records lost under 1 leader kill and 1 pause (acks=1, min.insync.replicas=1 (broker default), 3 replicas); inconsistent 70",
	}
	if len(rows) != len(want) {
		t.Fatalf("rows = %+v, want %d", rows, len(want))
	}
	for i, r := range rows {
		if r.Text != want[i] {
			t.Errorf("row %d text\n got %q\nwant %q", i, r.Text, want[i])
		}
	}
	if !rows[0].Clean || rows[1].Clean {
		t.Errorf("clean = %v, %v; want true, false", rows[0].Clean, rows[1].Clean)
	}
}

// The section and the verdicts appear in both renderings.
func TestDurabilitySection(t *testing.T) {
	m := &Model{Title: "t", Durability: durabilityRows(durabilityRun())}
	var md, html bytes.Buffer
	if err := WriteMarkdown(&md, m); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&html, m); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"markdown": md.String(), "html": html.String()} {
		for _, s := range []string{"4.3 Durability", "Durability: acks=all: 0 of 40,000 acknowledged records lost under 3 leader kills"} {
			if !strings.Contains(out, s) {
				t.Errorf("%s lacks %q", name, s)
			}
		}
	}
}
