package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kbench/kbench/internal/results"
)

// CapacityRow is one SLO's capacity bracket in one repeat of a scenario.
type CapacityRow struct {
	ID     string `json:"id"`
	Repeat int    `json:"repeat"`
	// SLO is "p99 <= 50 ms"; Percentile and LimitMs the same as numbers.
	SLO        string  `json:"slo"`
	Percentile float64 `json:"percentile"`
	LimitMs    float64 `json:"limit_ms"`
	// Lower is the highest offered rate that passed and Upper the lowest that failed, in
	// records/s (0 when none did), and in MiB/s.
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	LowerMiB float64 `json:"lower_mib_per_sec"`
	UpperMiB float64 `json:"upper_mib_per_sec"`
	// AtLower* are the due-time percentiles at Lower, in ms.
	AtLowerP50Ms  float64 `json:"at_lower_p50_ms"`
	AtLowerP99Ms  float64 `json:"at_lower_p99_ms"`
	AtLowerP999Ms float64 `json:"at_lower_p999_ms"`
	Trials        int     `json:"trials"`
	// Goal is the SLO as an RFC 9971 search goal (20f40d1l50e); Converged and Confirmed
	// say whether the bracket reached the precision and its lower end passed confirmation.
	Goal      string `json:"goal,omitempty"`
	Converged bool   `json:"converged"`
	Confirmed bool   `json:"confirmed"`
	// Note says why the search did not converge, or why it stopped.
	Note string `json:"note,omitempty"`
	// Overlap is where the trials disagree (results.CapacityBracket.Overlap).
	Overlap [2]float64 `json:"overlap"`
	// Text is the conclusion: "max sustainable rate 41,200-43,100 records/s ... at p99 <= 50 ms".
	Text string `json:"text"`
}

// capacityRows lists every capacity bracket of the run, in scenario then repeat order.
func capacityRows(rd *results.RunDir) []CapacityRow {
	var out []CapacityRow
	for _, sc := range rd.Run.Scenarios {
		reps := rd.Repeats[sc.ID]
		multi := len(reps) > 1
		for _, rep := range reps {
			c := rep.Capacity
			if c == nil {
				continue
			}
			for _, b := range c.Brackets {
				row := CapacityRow{ID: sc.ID, Repeat: rep.Repeat, SLO: b.SLO.String(), Percentile: b.SLO.Percentile,
					LimitMs: b.SLO.LimitMs, Lower: b.Lower, Upper: b.Upper, LowerMiB: b.LowerMiB, UpperMiB: b.UpperMiB,
					AtLowerP50Ms: b.AtLowerP50Ms, AtLowerP99Ms: b.AtLowerP99Ms, AtLowerP999Ms: b.AtLowerP999Ms,
					Trials: len(c.Trials), Goal: b.Goal, Converged: b.Converged, Confirmed: b.Confirmed, Note: b.Note, Overlap: b.Overlap}
				if c.Error != "" {
					row.Note = strings.TrimSpace(row.Note + "; " + c.Error)
					row.Note = strings.TrimPrefix(row.Note, "; ")
				}
				row.Text = capacitySentence(row, multi)
				out = append(out, row)
			}
		}
	}
	return out
}

// CapacityAgreementRow is how far one scenario's repeats' searches agree on one SLO.
type CapacityAgreementRow struct {
	ID string `json:"id"`
	results.CapacityAgreement
	// Text is "acks=1: 2 searches at p99 <= 50 ms: lower ends ... (median ...), 1.2% apart: ...".
	Text string `json:"text"`
}

// capacityAgreement states, for each scenario that searched in more than one repeat, how far
// the repeats' lower ends lie apart against the precision each search was asked for.
func capacityAgreement(rd *results.RunDir) []CapacityAgreementRow {
	var out []CapacityAgreementRow
	for _, sc := range rd.Run.Scenarios {
		var searches []*results.Capacity
		for _, rep := range rd.Repeats[sc.ID] {
			if rep.Capacity != nil && len(rep.Capacity.Brackets) > 0 {
				searches = append(searches, rep.Capacity)
			}
		}
		if len(searches) < 2 {
			continue
		}
		precision := searches[0].Precision
		for _, a := range results.Agree(searches, precision) {
			out = append(out, CapacityAgreementRow{ID: sc.ID, CapacityAgreement: a, Text: sc.ID + ": " + a.Text(precision)})
		}
	}
	return out
}

// capacitySentence states a bracket: "`id`: max sustainable rate 41,200-43,100 records/s
// (40.2-42.1 MiB/s) at p99 <= 50 ms".
func capacitySentence(r CapacityRow, multi bool) string {
	who := r.ID
	if multi {
		who = fmt.Sprintf("%s (repeat %d)", r.ID, r.Repeat)
	}
	var s string
	switch {
	case r.Lower == 0:
		s = fmt.Sprintf("%s: no offered rate met %s", who, r.SLO)
	case r.Upper == 0:
		s = fmt.Sprintf("%s: max sustainable rate at least %s records/s (%s MiB/s) at %s; no rate tried failed it",
			who, num(r.Lower), num(r.LowerMiB), r.SLO)
	default:
		s = fmt.Sprintf("%s: max sustainable rate %s-%s records/s (%s-%s MiB/s) at %s",
			who, num(r.Lower), num(r.Upper), num(r.LowerMiB), num(r.UpperMiB), r.SLO)
	}
	if r.Goal != "" {
		s += ", goal " + r.Goal
	}
	switch {
	case !r.Converged && r.Note != "":
		s += " (not converged: " + r.Note + ")"
	case r.Goal != "" && !r.Confirmed:
		s += " (not confirmed: " + r.Note + ")"
	case r.Goal != "":
		s += " (converged, confirmed)"
	}
	if o := results.OverlapText(r.Overlap, r.Lower, r.Upper); o != "" {
		s += "; " + o
	}
	return s
}

// capacityIntro explains the capacity table.
const capacityIntro = "A capacity search ran after each repeat's measured window, on the same topic, as RFC 9971 (MLRsearch) describes: " +
	"trials at fixed offered rates, each after a warm-up and after the cluster was back at rest, until the bracket [relevant lower bound, relevant upper bound] " +
	"was within the asked precision, its lower end then confirmed by a longer trial. A trial's loss ratio is the share of its due records late (beyond the SLO's limit), " +
	"failed or unsent; the goal (its code: final trial seconds f, duration sum d, loss ratio % l, exceed ratio % e) says how much of a rate's trial time may exceed it. " +
	"A trial also fails when less than 99% of the offered rate is both due and acknowledged within its window or the consumers fall behind. " +
	"Percentiles are due-time latency over the trials at the lower end."

// capacityTable lays out the capacity rows.
func capacityTable(m *Model) textTable {
	t := textTable{Head: []string{"Scenario", "repeat", "SLO", "records/s", "MiB/s", "p50 / p99 / p99.9 ms at lower", "trials", "converged, confirmed"},
		Numeric: []bool{false, true, false, true, true, true, true, false}}
	yes := map[bool]string{true: "yes", false: "no"}
	for _, r := range m.Capacity {
		conv := yes[r.Converged]
		if r.Goal != "" {
			conv += ", " + yes[r.Confirmed]
		}
		t.Rows = append(t.Rows, []string{r.ID, strconv.Itoa(r.Repeat), r.SLO, bracketText(r.Lower, r.Upper), bracketText(r.LowerMiB, r.UpperMiB),
			fmt.Sprintf("%s / %s / %s", num(r.AtLowerP50Ms), num(r.AtLowerP99Ms), num(r.AtLowerP999Ms)), strconv.Itoa(r.Trials), conv})
	}
	return t
}

// bracketText is "41,200-43,100", "≥ 41,200" with no failing rate, "-" with no passing one.
func bracketText(lower, upper float64) string {
	switch {
	case lower == 0:
		return "-"
	case upper == 0:
		return "≥ " + num(lower)
	}
	return num(lower) + "-" + num(upper)
}
