package report

import (
	"github.com/kbench/kbench/internal/claim"
	"github.com/kbench/kbench/internal/results"
)

// verdicts tests every hypothesis against the valid repeats; a hypothesis that does not
// parse gets the outcome "invalid" and the parse error, so a typo never hides a claim.
// Every scenario of the run is passed, those without a valid repeat too, so that a claim
// naming one says so instead of comparing less than it names.
func verdicts(hypotheses []string, rows []Row, alpha float64) []Verdict {
	if len(hypotheses) == 0 {
		return nil
	}
	observed := make([]claim.Observed, 0, len(rows))
	for _, r := range rows {
		o := claim.Observed{Scenario: claim.Scenario{ID: r.ID, Params: r.paramMap}}
		for _, rep := range r.repeatsForPlot {
			values := map[string]float64{}
			for _, name := range claim.Metrics() {
				if v, ok := metric(rep, name); ok {
					values[name] = v
				}
			}
			o.Repeats = append(o.Repeats, claim.Repeat{N: rep.Repeat, Values: values})
		}
		observed = append(observed, o)
	}
	var out []Verdict
	for _, h := range hypotheses {
		c, err := claim.Parse(h)
		if err != nil {
			out = append(out, Verdict{Hypothesis: h, Outcome: "invalid", Sentence: err.Error()})
			continue
		}
		v := c.EvaluateAt(observed, alpha)
		out = append(out, Verdict{Hypothesis: h, Note: c.Note, Outcome: string(v.Outcome), Sentence: v.Sentence,
			DetectablePct: detectablePct(v.Detectable), Alpha: alpha})
	}
	return out
}

// detectablePct is a noise floor ratio as a percentage (1.18: 18), 0 for none.
func detectablePct(r float64) float64 {
	if r == 0 {
		return 0
	}
	return 100 * (r - 1)
}

// verdictAlpha is the level of a run's verdicts: claim.Alpha, or the share of it each look
// of a run with a range of repeats was tested at.
func verdictAlpha(run *results.Run) float64 {
	if run.Looks != nil && run.Looks.Alpha > 0 {
		return run.Looks.Alpha
	}
	return claim.Alpha
}

// Verdicts evaluates the run's hypotheses at alpha on the repeats in rd: what a run with a
// range of repeats checks after each round, without building the whole report.
func Verdicts(rd *results.RunDir, alpha float64) []Verdict {
	run := rd.Run
	names := paramNames(run.Scenarios)
	ids, _ := brokerColumns(rd)
	return verdicts(run.Hypotheses, resultRows(rd, names, ids, run.Environment, Options{}.spreadLimit()), alpha)
}
