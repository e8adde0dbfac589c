package report

import (
	"fmt"
	"strings"

	"github.com/kbench/kbench/internal/results"
)

// RebalanceRow is one membership event of one scenario over its valid repeats: medians
// and ranges of what the application felt (results.Rebalance).
type RebalanceRow struct {
	ID       string `json:"id"`
	Protocol string `json:"group_protocol"`
	// Event is the event as the schedule wrote it ("kill@20s").
	Event string `json:"event"`
	// StableS is the time to a stable owner of every partition, over the repeats that got
	// one; NeverStable counts those that did not before the next event.
	StableS     Stat `json:"time_to_stable_s"`
	NeverStable int  `json:"never_stable,omitempty"`
	PauseS      Stat `json:"longest_pause_s"`
	Redelivered Stat `json:"redelivered"`
	P99BeforeMs Stat `json:"e2e_p99_before_ms"`
	P99AfterMs  Stat `json:"e2e_p99_after_ms"`
	// Skipped counts repeats in which the event found no member to act on.
	Skipped int `json:"skipped,omitempty"`
	// CoordinatorRebalances is the brokers' own view over the event's span: the rebalances
	// their group coordinators counted (results.CoordinatorSpan); N 0 without the metric.
	CoordinatorRebalances Stat `json:"coordinator_rebalances"`
}

// rebalanceRows lists every scenario's events, in scenario and schedule order.
func rebalanceRows(rd *results.RunDir) []RebalanceRow {
	var out []RebalanceRow
	for _, sc := range rd.Run.Scenarios {
		var rows []RebalanceRow
		values := map[int]*[6][]float64{}
		for _, rep := range rd.Repeats[sc.ID] {
			rb := rep.Rebalance
			if rb == nil || !rep.Validity.Valid {
				continue
			}
			for i, f := range rb.Events {
				if i == len(rows) {
					rows = append(rows, RebalanceRow{ID: sc.ID, Protocol: rb.Protocol, Event: f.Event})
					values[i] = &[6][]float64{}
				}
				if f.Skipped != "" {
					rows[i].Skipped++
					continue
				}
				v := values[i]
				if i < len(rb.Coordinator) && rb.Coordinator[i].Rebalances != nil {
					v[5] = append(v[5], *rb.Coordinator[i].Rebalances)
				}
				if f.StableS == nil {
					rows[i].NeverStable++
				} else {
					v[0] = append(v[0], *f.StableS)
				}
				v[1] = append(v[1], f.PauseS)
				v[2] = append(v[2], float64(f.Redelivered))
				if f.RecordsBefore > 0 {
					v[3] = append(v[3], f.P99BeforeMs)
				}
				if f.RecordsAfter > 0 {
					v[4] = append(v[4], f.P99AfterMs)
				}
			}
		}
		for i := range rows {
			v := values[i]
			rows[i].StableS, rows[i].PauseS, rows[i].Redelivered = statOf(v[0]), statOf(v[1]), statOf(v[2])
			rows[i].P99BeforeMs, rows[i].P99AfterMs = statOf(v[3]), statOf(v[4])
			rows[i].CoordinatorRebalances = statOf(v[5])
		}
		out = append(out, rows...)
	}
	return out
}

// rebalanceIntro explains the rebalance table.
const rebalanceIntro = "Consumers joined, left (gracefully), were killed (their connections dropped without leaving the group, as a " +
	"crashed process's) or stalled at the times the schedule gives, in the measured window, while the producers kept writing. " +
	"Per event, over its span until the next event: the time until every partition had exactly one owner again and kept it " +
	"(from the members' assignment callbacks; \"never\" when the group was not stable before the next event), the longest " +
	"pause of any partition with a record waiting (between two deliveries of new records, from the later of the earlier " +
	"delivery and the production of the first record delivered next), the records delivered a second time, and the " +
	"end-to-end p99 of the records consumed in the 5 s before the event and the 5 s after it. Where the brokers' metrics " +
	"have the group coordinator's (Kafka 4.x), the brokers' own view of the same span beside it: the rebalances their " +
	"coordinators counted (classic groups: completed rebalances; consumer protocol: epoch bumps from members' " +
	"heartbeats, so a join counts and, on Kafka 4.4.0, a leave or a kill does not; every group on the cluster counts). " +
	"Medians over the valid " +
	"repeats, with their spread; the client figures can be computed again from the scenario's rebalance-<n>.json.gz " +
	"logs, the coordinator figures from the repeat's broker rows."

// rebalanceTable is the rebalance section's table.
func rebalanceTable(m *Model) textTable {
	t := textTable{Head: []string{"Scenario", "protocol", "event", "time to stable s", "longest pause s", "re-delivered", "e2e p99 before ms", "e2e p99 after ms"},
		Numeric: []bool{false, false, false, true, true, true, true, true}}
	coordinator := false
	for _, r := range m.Rebalances {
		coordinator = coordinator || r.CoordinatorRebalances.N > 0
	}
	if coordinator {
		t.Head = append(t.Head, "coordinator rebalances")
		t.Numeric = append(t.Numeric, true)
	}
	for _, r := range m.Rebalances {
		stable := statText(r.StableS)
		if r.NeverStable > 0 {
			stable = strings.TrimPrefix(fmt.Sprintf("%s, never in %d", stable, r.NeverStable), "-, ")
		}
		event := r.Event
		if r.Skipped > 0 {
			event += fmt.Sprintf(" (no member to act on in %d)", r.Skipped)
		}
		row := []string{r.ID, r.Protocol, event, stable, statText(r.PauseS), statText(r.Redelivered),
			statText(r.P99BeforeMs), statText(r.P99AfterMs)}
		if coordinator {
			row = append(row, statText(r.CoordinatorRebalances))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// rebalanceMetric is a repeat's figure for a hypothesis: the longest pause or time to
// stable of any of its events, the longest pause at the events of one kind (pause_join), or
// all its re-deliveries. A repeat with an event that never saw a stable group has no time
// to stable; one without an event of the kind has no pause of it.
func rebalanceMetric(rb *results.Rebalance, name string) (float64, bool) {
	if rb == nil || len(rb.Events) == 0 {
		return 0, false
	}
	if kind, ok := strings.CutPrefix(name, "pause_"); ok {
		v, found := 0.0, false
		for _, f := range rb.Events {
			if string(f.Kind) == kind && f.Skipped == "" {
				v, found = max(v, f.PauseS), true
			}
		}
		return v, found
	}
	var v float64
	for _, f := range rb.Events {
		switch name {
		case "pause":
			v = max(v, f.PauseS)
		case "time_to_stable":
			if f.StableS == nil && f.Skipped == "" {
				return 0, false
			}
			if f.StableS != nil {
				v = max(v, *f.StableS)
			}
		case "redelivered":
			v += float64(f.Redelivered)
		}
	}
	return v, true
}
