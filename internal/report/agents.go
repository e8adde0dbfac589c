package report

import (
	"fmt"

	"github.com/kbench/kbench/internal/results"
)

// AgentRow is one agent's part of one repeat run on remote agents (kbench run --agents N):
// an agent that lagged its share shows here, beside the repeat's merged figures.
type AgentRow struct {
	ID     string `json:"scenario"`
	Repeat int    `json:"repeat"`
	results.AgentRow
	// StartSkewMs and ControlBytes are the repeat's (the same on each of its rows).
	StartSkewMs  float64 `json:"start_skew_ms"`
	ControlBytes int64   `json:"control_bytes"`
}

// agentRows lists every agent of every repeat run on agents, in scenario then repeat order.
func agentRows(rd *results.RunDir) []AgentRow {
	var out []AgentRow
	for _, sc := range rd.Run.Scenarios {
		for _, rep := range rd.Repeats[sc.ID] {
			if rep.Agents == nil {
				continue
			}
			for _, a := range rep.Agents.Rows {
				out = append(out, AgentRow{ID: sc.ID, Repeat: rep.Repeat, AgentRow: a,
					StartSkewMs: rep.Agents.StartSkewMs, ControlBytes: rep.Agents.ControlBytes})
			}
		}
	}
	return out
}

// agentsIntro explains the agents table.
const agentsIntro = "The load ran on remote agents (`kbench agent`), coordinated through a control topic on the cluster itself; the measured producers (and their scenarios' consumers) ran on the agents, none on the coordinator's host. " +
	"Each repeat's figures above are the agents' merged exactly: counts added and latency histograms merged, never percentiles averaged. " +
	"Each agent's row is its own result (its whole accounting, histograms included, is in the file named). " +
	"The start skew is the spread of the agents' actual starts after the coordinator's start barrier, by their own clocks; " +
	"the control topic's bytes are the coordination's own load on the cluster, not counted in the repeat's bytes."

// agentsHTML is the per-agent table for the HTML template.
type agentsHTML struct {
	Head []string
	Rows [][]string
}

func agentTableHTML(m *Model) agentsHTML {
	h, r := agentTable(m)
	return agentsHTML{h, r}
}

// agentTable is the per-agent table (scenario IDs plain; the Markdown writer marks them).
func agentTable(m *Model) ([]string, [][]string) {
	head := []string{"Scenario", "Repeat", "Agent", "Host", "Producers", "Share (records)", "Acked", "Failed", "Unsent", "Records/s", "p99 ms", "Start offset ms", "Start skew ms", "Control bytes", "File"}
	var rows [][]string
	for _, a := range m.Agents {
		share := "by duration"
		if a.ShareRecords > 0 {
			share = fmt.Sprint(a.ShareRecords)
		}
		rows = append(rows, []string{a.ID, fmt.Sprint(a.Repeat), a.Agent, a.Host, fmt.Sprint(a.Producers), share,
			fmt.Sprint(a.Acked), fmt.Sprint(a.Failed), fmt.Sprint(a.Unsent), fmt.Sprintf("%.1f", a.RecordsPerSec),
			fmt.Sprintf("%.2f", float64(a.P99Us)/1000), fmt.Sprintf("%+.1f", a.StartOffsetMs), fmt.Sprintf("%.1f", a.StartSkewMs),
			fmt.Sprint(a.ControlBytes), a.File})
	}
	return head, rows
}
