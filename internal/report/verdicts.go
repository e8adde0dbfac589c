package report

import (
	"github.com/kbench/kbench/internal/claim"
)

// verdicts tests every hypothesis against the valid repeats; a hypothesis that does not
// parse gets the outcome "invalid" and the parse error, so a typo never hides a claim.
func verdicts(hypotheses []string, rows []Row) []Verdict {
	if len(hypotheses) == 0 {
		return nil
	}
	var observed []claim.Observed
	for _, r := range rows {
		if r.Valid == 0 {
			continue
		}
		o := claim.Observed{Params: r.paramMap, Values: map[string][]float64{}}
		for _, name := range claim.Metrics() {
			for _, rep := range r.repeatsForPlot {
				if v, ok := metric(rep, name); ok {
					o.Values[name] = append(o.Values[name], v)
				}
			}
		}
		observed = append(observed, o)
	}
	lookup := claim.Table(observed)
	var out []Verdict
	for _, h := range hypotheses {
		c, err := claim.Parse(h)
		if err != nil {
			out = append(out, Verdict{Hypothesis: h, Outcome: "invalid", Sentence: err.Error()})
			continue
		}
		v := c.Evaluate(lookup)
		out = append(out, Verdict{Hypothesis: h, Note: c.Note, Outcome: string(v.Outcome), Sentence: v.Sentence})
	}
	return out
}
