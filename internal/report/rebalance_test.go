package report

import (
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/rebalance"
	"github.com/kbench/kbench/internal/results"
)

func secondsPtr(v float64) *float64 { return &v }

// Three repeats of one scenario with a join and a kill; the third is invalid and left out.
// The medians and ranges are read off by hand.
func TestRebalanceRows(t *testing.T) {
	rep := func(valid bool, joinStable, killPause float64, killStable *float64, redelivered int64) results.Repeat {
		return results.Repeat{Validity: results.Validity{Valid: valid}, Rebalance: &results.Rebalance{Protocol: "classic",
			Events: []rebalance.Figures{
				{Event: "join@8s", Kind: rebalance.Join, StableS: secondsPtr(joinStable), PauseS: 0.5, RecordsBefore: 10, P99BeforeMs: 20, RecordsAfter: 10, P99AfterMs: 600},
				{Event: "kill@28s", Kind: rebalance.Kill, StableS: killStable, PauseS: killPause, Redelivered: redelivered, RecordsBefore: 10, P99BeforeMs: 30},
			}}}
	}
	rd := &results.RunDir{
		Run: results.Run{Scenarios: []results.Scenario{{ID: "protocol=classic"}}},
		Repeats: map[string][]results.Repeat{"protocol=classic": {
			rep(true, 2, 9, secondsPtr(10), 4000),
			rep(true, 4, 11, nil, 6000),
			rep(false, 100, 100, secondsPtr(100), 1),
		}},
	}
	rows := rebalanceRows(rd)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	join, kill := rows[0], rows[1]
	if join.Event != "join@8s" || join.StableS != (Stat{N: 2, Median: 3, Min: 2, Max: 4}) || join.P99AfterMs != (Stat{N: 2, Median: 600, Min: 600, Max: 600}) {
		t.Errorf("join row %+v", join)
	}
	if kill.NeverStable != 1 || kill.StableS != (Stat{N: 1, Median: 10, Min: 10, Max: 10}) ||
		kill.PauseS != (Stat{N: 2, Median: 10, Min: 9, Max: 11}) || kill.Redelivered != (Stat{N: 2, Median: 5000, Min: 4000, Max: 6000}) ||
		kill.P99AfterMs.N != 0 {
		t.Errorf("kill row %+v", kill)
	}
	m := &Model{Rebalances: rows}
	table := rebalanceTable(m)
	if got := strings.Join(table.Rows[1], " | "); got != "protocol=classic | classic | kill@28s | 10.0, never in 1 | 10.0 ±10% | 5,000 ±20% | 30.0 | -" {
		t.Errorf("kill line %q", got)
	}
	if !strings.Contains(m.heading("rebalances"), "Rebalances") {
		t.Errorf("heading %q", m.heading("rebalances"))
	}
	// The hypothesis metrics: the longest pause, the longest time to stable (none when an
	// event never saw one), the re-deliveries of all events.
	r := rd.Repeats["protocol=classic"]
	for _, c := range []struct {
		rep    results.Repeat
		metric string
		want   float64
		ok     bool
	}{{r[0], "pause", 9, true}, {r[0], "time_to_stable", 10, true}, {r[1], "time_to_stable", 0, false}, {r[1], "redelivered", 6000, true},
		{r[0], "pause_join", 0.5, true}, {r[1], "pause_kill", 11, true}, {r[0], "pause_leave", 0, false}} {
		if v, ok := metric(c.rep, c.metric); v != c.want || ok != c.ok {
			t.Errorf("%s = %v, %v; want %v, %v", c.metric, v, ok, c.want, c.ok)
		}
	}
}

// The coordinators' view sits beside the client figures when the broker rows had it: the
// median over the repeats that have it, read off by hand, and no column when none has.
func TestRebalanceCoordinatorColumn(t *testing.T) {
	rep := func(spans ...results.CoordinatorSpan) results.Repeat {
		return results.Repeat{Validity: results.Validity{Valid: true}, Rebalance: &results.Rebalance{Protocol: "consumer",
			Events:      []rebalance.Figures{{Event: "join@8s", Kind: rebalance.Join, StableS: secondsPtr(1), PauseS: 0.2}},
			Coordinator: spans}}
	}
	rd := &results.RunDir{
		Run: results.Run{Scenarios: []results.Scenario{{ID: "protocol=consumer"}}},
		Repeats: map[string][]results.Repeat{"protocol=consumer": {
			rep(results.CoordinatorSpan{Rebalances: secondsPtr(2)}),
			rep(results.CoordinatorSpan{Rebalances: secondsPtr(4)}),
			rep(), // no broker rows: does not count
		}},
	}
	rows := rebalanceRows(rd)
	if got := rows[0].CoordinatorRebalances; got != (Stat{N: 2, Median: 3, Min: 2, Max: 4}) {
		t.Errorf("coordinator rebalances %+v", got)
	}
	table := rebalanceTable(&Model{Rebalances: rows})
	if n := len(table.Head); n != 9 || table.Head[8] != "coordinator rebalances" || table.Rows[0][8] != "3.00 ±33%" {
		t.Errorf("head %v, row %v: want the coordinator column reading 3.00 ±33%%", table.Head, table.Rows[0])
	}
	rows[0].CoordinatorRebalances = Stat{}
	if table := rebalanceTable(&Model{Rebalances: rows}); len(table.Head) != 8 {
		t.Errorf("head %v: want no coordinator column without the metric", table.Head)
	}
}
