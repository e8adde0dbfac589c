package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/kbench/kbench/internal/capacity"
	"github.com/kbench/kbench/internal/results"
)

// printSearches ends kbench capacity's output: with --json the search (one) or the searches
// and how far their answers agree (several); as text, after several searches, a line per SLO
// on how far their answers lie apart (results.CapacityAgreement).
func printSearches(w io.Writer, searches []*capacity.Result, precision float64, cf capacityFlags) {
	if len(searches) == 0 {
		return
	}
	var all results.CapacitySearches
	for _, s := range searches {
		all.Searches = append(all.Searches, s.Record())
	}
	all.Agreement = results.Agree(all.Searches, precision)
	if cf.jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if cf.searches == 1 {
			_ = enc.Encode(all.Searches[0])
			return
		}
		_ = enc.Encode(all)
		return
	}
	if cf.searches > 1 {
		for _, a := range all.Agreement {
			fmt.Fprintln(w, a.Text(precision))
		}
	}
}
