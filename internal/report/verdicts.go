package report

import (
	"github.com/kbench/kbench/internal/claim"
)

// verdicts tests every hypothesis against the valid repeats; a hypothesis that does not
// parse gets the outcome "invalid" and the parse error, so a typo never hides a claim.
// Every scenario of the run is passed, those without a valid repeat too, so that a claim
// naming one says so instead of comparing less than it names.
func verdicts(hypotheses []string, rows []Row) []Verdict {
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
		v := c.Evaluate(observed)
		out = append(out, Verdict{Hypothesis: h, Note: c.Note, Outcome: string(v.Outcome), Sentence: v.Sentence})
	}
	return out
}
