package results

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// AgentsDir is the directory, beside a scenario's repeat files, that holds each agent's own
// result of a repeat run on agents (kbench run --agents N): agents/repeat-<n>-<agent>.json.
const AgentsDir = "agents"

// Agents describes a repeat whose load ran on remote agents: the repeat's figures are the
// agents' merged exactly (counts added, histograms merged), and each agent's own are kept.
type Agents struct {
	// StartSkewMs is the spread of the agents' actual starts (latest minus earliest), as
	// their clocks tell it.
	StartSkewMs float64 `json:"start_skew_ms"`
	// ControlBytes is the control topic's traffic during the repeat: load on the cluster
	// that is not the scenario's, so it is left out of the repeat's client bytes.
	ControlBytes int64      `json:"control_bytes"`
	Rows         []AgentRow `json:"rows"`
}

// AgentRow is one agent's part of a repeat.
type AgentRow struct {
	Agent     string `json:"agent"`
	Host      string `json:"host"`
	Producers int    `json:"producers"`
	// ShareRecords and ShareRate are what the plan gave it (0: by duration, unlimited).
	ShareRecords  int64   `json:"share_records,omitempty"`
	ShareRate     float64 `json:"share_rate,omitempty"`
	Sent          int64   `json:"sent"`
	Acked         int64   `json:"acked"`
	Failed        int64   `json:"failed"`
	Unsent        int64   `json:"unsent,omitempty"`
	RecordsPerSec float64 `json:"records_per_sec"`
	P99Us         int64   `json:"p99_us"`
	// StartOffsetMs is how far its start was from the start the coordinator set.
	StartOffsetMs float64 `json:"start_offset_ms"`
	// File is the agent's whole result (its histograms included), relative to the run
	// directory.
	File string `json:"file"`
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._=,+-]`)

// AgentPath returns the path, relative to the run directory, of agent's result of repeat n
// of scenario id.
func AgentPath(id string, n int, agent string) string {
	return filepath.Join(ScenariosDir, id, AgentsDir, fmt.Sprintf("repeat-%d-%s.json", n, unsafeName.ReplaceAllString(agent, "_")))
}

// WriteAgent writes one agent's result of a repeat (v: its whole accounting) and returns
// its path relative to dir.
func WriteAgent(dir, id string, n int, agent string, v any) (string, error) {
	rel := AgentPath(id, n, agent)
	path := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", fmt.Errorf("unable to write agent %s's results of scenario %s: %w", agent, id, err)
	}
	return rel, writeJSON(path, v)
}
