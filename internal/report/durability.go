package report

import (
	"fmt"
	"strings"

	"github.com/kbench/kbench/internal/numfmt"
	"github.com/kbench/kbench/internal/results"
)

// DurabilityRow is one scenario's durability check (kbench verify).
type DurabilityRow struct {
	ID string `json:"id"`
	// Settings are the ones the claim rests on: "acks=all, min.insync.replicas=2, 3 replicas".
	Settings string `json:"settings"`
	// Faults are the faults applied in words: "3 leader kills", "no faults".
	Faults       string `json:"faults"`
	Acknowledged int64  `json:"acknowledged"`
	Lost         int64  `json:"lost"`
	Duplicated   int64  `json:"duplicated"`
	Reordered    int64  `json:"reordered"`
	Inconsistent int64  `json:"inconsistent"`
	Unexpected   int64  `json:"unexpected"`
	// AbortedVisible counts records of aborted transactions a read_committed read returned
	// (checks of transactional producers).
	AbortedVisible int64 `json:"aborted_visible,omitempty"`
	Failed         int64 `json:"failed"`
	Unsent         int64 `json:"unsent"`
	// Clean is true when no anomaly was found and the check finished.
	Clean bool `json:"clean"`
	// Note holds why faults were fewer than planned, or why the check did not finish.
	Note string `json:"note,omitempty"`
	// Text is the verdict: "id: 0 of 40,000 acknowledged records lost under 3 leader
	// kills (acks=all, min.insync.replicas=2, 3 replicas); no other anomaly".
	Text string `json:"text"`
}

// durabilityRows lists the scenarios' durability checks, in scenario order.
func durabilityRows(rd *results.RunDir) []DurabilityRow {
	var out []DurabilityRow
	for _, sc := range rd.Run.Scenarios {
		for _, rep := range rd.Repeats[sc.ID] {
			d := rep.Durability
			if d == nil {
				continue
			}
			row := DurabilityRow{ID: sc.ID, Settings: durabilitySettings(d), Faults: faultWords(d.Applied),
				Acknowledged: d.Acknowledged, Lost: d.Lost, Duplicated: d.Duplicated, Reordered: d.Reordered,
				Inconsistent: d.Inconsistent, Unexpected: d.Unexpected, AbortedVisible: d.AbortedVisible, Failed: d.Failed, Unsent: d.Unsent,
				Clean: d.Anomalies() == 0 && d.Error == "", Note: strings.TrimSpace(d.FaultsNote + " " + d.Error)}
			row.Text = durabilitySentence(row, d.Error != "")
			out = append(out, row)
		}
	}
	return out
}

// durabilitySettings names the settings a durability claim rests on.
func durabilitySettings(d *results.Durability) string {
	acks := d.ProducerProps["acks"]
	if acks == "" {
		acks = "all (Java default)"
	}
	minISR := d.TopicConfigs["min.insync.replicas"]
	if minISR == "" {
		// Not set by the study: the value the cluster applied, when the check read it back.
		minISR = "broker default"
		if v := d.EffectiveTopicConfigs["min.insync.replicas"]; v != "" {
			minISR = v + " (broker default)"
		}
	}
	s := fmt.Sprintf("acks=%s, min.insync.replicas=%s, %d replicas", acks, minISR, d.Replicas)
	unclean := d.TopicConfigs["unclean.leader.election.enable"]
	if unclean == "" {
		unclean = d.EffectiveTopicConfigs["unclean.leader.election.enable"]
	}
	if unclean == "true" {
		s += ", unclean leader election"
	}
	return s
}

// faultWords counts the faults applied by kind, in order of first appearance: "3 leader
// kills and 1 pause"; "no faults" for none.
func faultWords(kinds []string) string {
	if len(kinds) == 0 {
		return "no faults"
	}
	var order []string
	count := map[string]int{}
	for _, k := range kinds {
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	var parts []string
	for _, k := range order {
		w := strings.ReplaceAll(k, "-", " ")
		if count[k] > 1 {
			w += "s"
		}
		parts = append(parts, fmt.Sprintf("%d %s", count[k], w))
	}
	return strings.Join(parts, " and ")
}

// durabilitySentence states the verdict with its counts.
func durabilitySentence(r DurabilityRow, unfinished bool) string {
	under := "under " + r.Faults
	if r.Faults == "no faults" {
		under = "without faults"
	}
	s := fmt.Sprintf("%s: %s of %s acknowledged records lost %s (%s)", r.ID, whole(r.Lost), whole(r.Acknowledged), under, r.Settings)
	var other []string
	for _, a := range []struct {
		name string
		n    int64
	}{{"duplicated", r.Duplicated}, {"reordered", r.Reordered}, {"inconsistent", r.Inconsistent}, {"unexpected", r.Unexpected}, {"aborted but visible", r.AbortedVisible}} {
		if a.n > 0 {
			other = append(other, fmt.Sprintf("%s %s", a.name, whole(a.n)))
		}
	}
	if len(other) == 0 {
		s += "; no other anomaly"
	} else {
		s += "; " + strings.Join(other, ", ")
	}
	switch {
	case unfinished:
		s += "; the check did not finish: " + r.Note
	case r.Clean:
		// One clean check is evidence, not proof: its confidence is stated with it, as a
		// hypothesis verdict's is. Lost records need no such clause: one is a counterexample.
		s += " (one check: no anomaly under these faults here, not a proof that none can occur)"
	}
	return s
}

func whole(n int64) string { return numfmt.Whole(float64(n)) }

// durabilityIntro explains the durability table.
const durabilityIntro = "A durability check (kbench verify) ran after the scenario's first repeat, on a topic of its own with the scenario's " +
	"topic and producer settings: sequenced records at a paced rate while the faults ran, then, once every replica was back in sync, " +
	"a fresh consumer read every partition from its earliest offset to a stable high watermark. Lost: acknowledged, never read; " +
	"duplicated: read more than once; reordered: read after a later record of its producer in its partition; inconsistent: " +
	"acknowledged at an offset holding another record; unexpected: read, never sent."

// durabilityTable is the durability section's table.
func durabilityTable(m *Model) textTable {
	t := textTable{Head: []string{"Scenario", "settings", "faults", "acknowledged", "lost", "duplicated", "reordered", "inconsistent", "unexpected", "failed / unsent"},
		Numeric: []bool{false, false, false, true, true, true, true, true, true, true}}
	for _, r := range m.Durability {
		t.Rows = append(t.Rows, []string{r.ID, r.Settings, r.Faults, whole(r.Acknowledged), whole(r.Lost), whole(r.Duplicated),
			whole(r.Reordered), whole(r.Inconsistent), whole(r.Unexpected), whole(r.Failed) + " / " + whole(r.Unsent)})
	}
	return t
}
