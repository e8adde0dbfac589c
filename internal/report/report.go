// Package report turns a run directory into the white paper: a typed view model (Model)
// built from results.RunDir alone, no Kafka needed, rendered to Markdown, self-contained HTML
// with inline SVG charts, CSV (one row per scenario) and JSON. It computes the conclusions:
// the effect of each varied parameter with its spread, the resource that limited each
// scenario, a verdict for each hypothesis, and the source study's figures beside ours. It
// also compares two runs (Compare).
//
// The report is a pure function of the run directory and Options: nothing is read from the
// clock, so the same run directory gives the same report on any machine.
package report

import (
	"fmt"
	"time"

	"github.com/kbench/kbench/internal/results"
)

// FormatVersion is the version of the report.json format.
const FormatVersion = 1

// Options adjust a report.
type Options struct {
	// Generated, when set, is printed as the time the report was written. Left zero, the
	// report shows only the run's own times and is reproducible byte for byte.
	Generated time.Time
	// SpreadLimit is the spread (half the range of the repeats over the median) above which
	// a result is flagged as unstable, overriding the default 0.10.
	SpreadLimit float64
}

func (o Options) spreadLimit() float64 {
	if o.SpreadLimit > 0 {
		return o.SpreadLimit
	}
	return 0.10
}

// Build computes the report's view model from a run directory.
func Build(rd *results.RunDir, opts Options) (*Model, error) {
	if rd == nil {
		return nil, fmt.Errorf("unable to build report: no run")
	}
	run := rd.Run
	m := &Model{
		Version:    FormatVersion,
		Generated:  opts.Generated,
		Title:      run.Study.Title,
		Study:      run.Study.Name,
		Notes:      run.Study.Notes,
		Status:     run.Status,
		Started:    run.Started,
		Finished:   run.Finished,
		Kbench:     run.KbenchVersion,
		Dir:        rd.Dir,
		ParamNames: paramNames(run.Scenarios),
		Order:      orderText(run.Order),
	}
	if m.Title == "" {
		m.Title = run.Study.Name
	}
	m.Environment = runEnvironmentRows(&run)
	m.BrokerConfig = sortedKV(run.Environment.BrokerConfig)
	m.BrokerIDs, m.MissingBrokers = brokerColumns(rd)
	m.Rows = resultRows(rd, m.ParamNames, m.BrokerIDs, run.Environment, opts.spreadLimit())
	m.Scenarios = scenarioViews(rd, m.Rows)
	m.Effects = effects(rd, m.Rows)
	m.Capacity = capacityRows(rd)
	m.CapacityAgreement = capacityAgreement(rd)
	m.Durability = durabilityRows(rd)
	m.Rebalances = rebalanceRows(rd)
	m.Transactions = transactionRows(rd, m.Rows)
	m.Agents = agentRows(rd)
	m.CatchUp = catchUpRows(rd)
	m.Share = shareRows(rd)
	m.Verdicts = verdicts(run.Hypotheses, m.Rows, verdictAlpha(&run))
	m.Noise = noiseFloor(m.Rows, verdictAlpha(&run))
	m.References, m.ReferenceSource, m.ReferenceNotes = references(run.Reference, m.Rows)
	m.Warnings = warnings(rd, m, opts.spreadLimit())
	charts, err := buildCharts(rd, m)
	if err != nil {
		return nil, err
	}
	m.Charts = charts
	return m, nil
}
