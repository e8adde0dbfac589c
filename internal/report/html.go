package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"strings"
)

//go:embed report.html.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"header":            func(m *Model) string { return strings.Trim(headerLine(m), "*") },
	"params":            rowParams,
	"throughputTable":   throughputTable,
	"latencyTable":      latencyTable,
	"recordTable":       recordTable,
	"capacityTable":     capacityTable,
	"agentTable":        agentTableHTML,
	"durabilityTable":   durabilityTable,
	"rebalanceTable":    rebalanceTable,
	"catchUpTable":      catchUpTable,
	"shareTable":        shareTable,
	"transactionsTable": transactionsTable,
	"hasRecords":        hasRecords,
	"intro":             intro,
	"heading":           func(m *Model, key string) string { return m.heading(key) },
	"svg":               func(b []byte) template.HTML { return template.HTML(b) }, // rendered by gonum/plot from numbers, not user text
	"mark":              verdictMark,
	"noiseIntro":        func() string { return noiseIntro },
	"noiseHead":         func() []string { return noiseHead },
	"noiseCells":        noiseCells,
	"num":               num,
	"ratio":             ratioText,
	"agree":             agreeText,
	"join":              strings.Join,
	"hasAgreeing":       hasAgreeing,
}).Parse(htmlSource))

// intro is one of the results section's explanations by name.
func intro(name string) string {
	switch name {
	case "results":
		return resultsIntro
	case "throughput":
		return throughputIntro
	case "records":
		return recordsIntro
	case "capacity":
		return capacityIntro
	case "agents":
		return agentsIntro
	case "durability":
		return durabilityIntro
	case "rebalances":
		return rebalanceIntro
	case "catchup":
		return catchUpIntro
	case "share":
		return shareIntro
	case "transactions":
		return transactionsIntro
	}
	return latencyIntro
}

func hasAgreeing(es []Effect) bool {
	for _, e := range es {
		if e.Agrees != nil {
			return true
		}
	}
	return false
}

// WriteHTML renders the model as one self-contained HTML page: styles inline, charts inline
// as SVG, nothing fetched from the network.
func WriteHTML(w io.Writer, m *Model) error {
	if err := htmlTemplate.Execute(w, m); err != nil {
		return fmt.Errorf("unable to render HTML report: %w", err)
	}
	return nil
}
