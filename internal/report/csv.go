package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteCSV writes one row per scenario: the parameters, then each figure's median and the
// records/s spread, in plain numbers (no thousands separators) for spreadsheets.
func WriteCSV(w io.Writer, m *Model) error {
	cw := csv.NewWriter(w)
	head := append([]string{"scenario"}, m.ParamNames...)
	head = append(head, "valid_repeats", "total_repeats", "target_rate",
		"records_per_sec", "records_per_sec_min", "records_per_sec_max", "records_per_sec_spread_pct",
		"mib_per_sec", "latency_avg_ms", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_p999_ms", "latency_max_ms",
		"broker_cpu_cores", "broker_cpu_pct_max", "client_cpu_cores", "client_cpu_s_per_million", "records_failed", "limit", "invalid")
	if err := cw.Write(head); err != nil {
		return fmt.Errorf("unable to write CSV: %w", err)
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	med := func(s Stat) string {
		if s.N == 0 {
			return ""
		}
		return f(s.Median)
	}
	for _, r := range m.Rows {
		var pctMax float64
		for _, b := range r.Brokers {
			pctMax = max(pctMax, b.Pct.Median)
		}
		var invalid []string
		for _, iv := range r.Invalid {
			invalid = append(invalid, fmt.Sprintf("repeat %d: %s", iv.Repeat, strings.Join(iv.Reasons, "; ")))
		}
		rec := append([]string{r.ID}, r.Params...)
		rec = append(rec, strconv.Itoa(r.Valid), strconv.Itoa(r.Total), f(r.TargetRate),
			med(r.RecordsPerSec), f(r.RecordsPerSec.Min), f(r.RecordsPerSec.Max), strconv.FormatFloat(r.RecordsPerSec.Spread()*100, 'f', 2, 64),
			med(r.MiBPerSec), med(r.LatAvg), med(r.P50), med(r.P95), med(r.P99), med(r.P999), med(r.Max),
			med(r.BrokerCores), f(pctMax), med(r.ClientCores), med(r.ClientCPUPerM), strconv.FormatInt(r.Failed, 10),
			r.Limit.Resource, strings.Join(invalid, " | "))
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("unable to write CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("unable to write CSV: %w", err)
	}
	return nil
}

// WriteJSON writes the model as indented JSON (charts by name only).
func WriteJSON(w io.Writer, m *Model) error {
	enc := jsonEncoder(w)
	if err := enc.Encode(m); err != nil {
		return fmt.Errorf("unable to write JSON report: %w", err)
	}
	return nil
}
