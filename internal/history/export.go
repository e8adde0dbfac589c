package history

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// csvHeader names the columns of WriteCSV, one row per run of each series.
var csvHeader = []string{"scenario", "metric", "cluster", "workload", "run", "started", "repeats",
	"median", "min", "max", "group", "group_level", "step"}

// WriteCSV writes every point of every series, one row each; step is the change into the
// point's group when the point is the first of a group after a step, else empty.
func WriteCSV(w io.Writer, series []*Series) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	for _, s := range series {
		steps := map[int]Step{}
		for _, st := range s.Steps {
			steps[st.Index] = st
		}
		for i, p := range s.Points {
			step := ""
			if st, ok := steps[i]; ok {
				step = f(st.Change)
			}
			row := []string{s.Scenario, s.Metric.Name, s.Cluster.ID, s.Workload.ID, p.Dir, p.Started.Format(time.RFC3339),
				strconv.Itoa(len(p.Values)), f(p.Median), f(p.Min), f(p.Max), strconv.Itoa(p.Group + 1),
				f(s.Groups[p.Group].Level), step}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("unable to write CSV: %w", err)
	}
	return nil
}

// Export is the whole history as JSON: the index and the series.
type Export struct {
	Runs   []Run     `json:"runs"`
	Series []*Series `json:"series,omitempty"`
}

// WriteJSON writes the runs and series as one indented JSON document.
func WriteJSON(w io.Writer, runs []Run, series []*Series) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(Export{Runs: runs, Series: series}); err != nil {
		return fmt.Errorf("unable to write JSON: %w", err)
	}
	return nil
}
