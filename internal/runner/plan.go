package runner

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/claim"
	"github.com/kbench/kbench/internal/results"
	"github.com/kbench/kbench/internal/settings"
	"github.com/kbench/kbench/internal/stats"
	"github.com/kbench/kbench/internal/study"
)

// newRun describes the plan in run.json form, before anything ran.
func newRun(plan *study.Plan, version string) *results.Run {
	run := &results.Run{
		Version:       results.FormatVersion,
		KbenchVersion: version,
		Study: results.Study{Name: plan.Name, Title: plan.Title, Notes: strings.Join(plan.Notes, "\n"),
			File: results.StudyFile, Source: plan.File},
		Status:  results.Status{State: results.Incomplete, Reason: "running"},
		Started: time.Now().UTC(),
	}
	for _, sc := range plan.Scenarios {
		rs := results.Scenario{ID: sc.ID, Params: orderedParams(plan, sc), Repeats: plan.Repeats}
		if sc.Consumers.Count > 0 {
			rs.GroupProtocol = settings.GroupProtocol(sc.Consumers.Properties)
		}
		run.Scenarios = append(run.Scenarios, rs)
	}
	for _, h := range plan.Hypotheses {
		run.Hypotheses = append(run.Hypotheses, h.Text)
	}
	if plan.MinRepeats > 0 {
		run.Looks = &results.Looks{MinRepeats: plan.MinRepeats, MaxRepeats: plan.Repeats,
			Alpha: stats.LookAlpha(claim.Alpha, plan.Looks())}
	}
	if len(plan.Reference.Scenarios) > 0 {
		ref := &results.Reference{Source: plan.Reference.Source, Figures: map[string]map[string]float64{}}
		for id, figs := range plan.Reference.Scenarios {
			ref.Figures[id] = referenceFigures(figs)
		}
		run.Reference = ref
	}
	return run
}

// referenceFigures flattens a source's figures: a metric with one value keeps its name; one
// with a value per broker (broker_cpu_percent, stored as broker_cpu_pct) becomes NAME_b1,
// NAME_b2, ... and NAME (the busiest broker, as the report's own figure is), so the report can show the source's per-broker column beside ours.
func referenceFigures(figs study.Figures) map[string]float64 {
	out := map[string]float64{}
	for metric, values := range figs {
		if metric == study.BrokerCPUPercent {
			metric = reportBrokerCPUPercent
		}
		switch len(values) {
		case 0:
		case 1:
			out[metric] = values[0]
		default:
			busiest := values[0]
			for i, v := range values {
				out[fmt.Sprintf("%s_b%d", metric, i+1)] = v
				busiest = max(busiest, v)
			}
			out[metric] = busiest
		}
	}
	return out
}

// reportBrokerCPUPercent is the report's name for a broker's CPU as % of its allotment.
const reportBrokerCPUPercent = "broker_cpu_pct"

// orderedParams lists a scenario's swept values in the study's parameter order.
func orderedParams(plan *study.Plan, sc study.Scenario) []results.Param {
	var out []results.Param
	seen := map[string]bool{}
	for _, name := range plan.Parameters {
		if v, ok := sc.Params[name]; ok {
			out = append(out, results.Param{Name: name, Value: v})
			seen[name] = true
		}
	}
	for name, v := range sc.Params {
		if !seen[name] {
			out = append(out, results.Param{Name: name, Value: v})
		}
	}
	return out
}

var topicUnsafe = regexp.MustCompile(`[^a-zA-Z0-9._-]+`)

// sanitizeTopic maps text to Kafka's topic alphabet [a-zA-Z0-9._-].
func sanitizeTopic(s string) string {
	return strings.Trim(topicUnsafe.ReplaceAllString(s, "_"), "_")
}

// topicName is the topic of one repeat: the run prefix, the scenario's position and ID
// (readable in a topic listing), and the repeat. Kafka allows 249 characters.
func topicName(prefix string, index int, id string, repeat int) string {
	name := fmt.Sprintf("%s-s%02d-%s-r%d", prefix, index+1, sanitizeTopic(id), repeat)
	if len(name) > 240 {
		name = fmt.Sprintf("%s-s%02d-r%d", prefix, index+1, repeat)
	}
	return name
}
