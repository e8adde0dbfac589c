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
	head = append(head, "kind", "valid_repeats", "total_repeats", "target_rate", "target_share_pct",
		"records_per_sec", "records_per_sec_min", "records_per_sec_max", "records_per_sec_spread_pct",
		"mib_per_sec", "consumer_mib_per_sec",
		"latency_basis", "latency_avg_ms", "latency_p50_ms", "latency_p95_ms", "latency_p99_ms", "latency_p999_ms", "latency_max_ms",
		"send_latency_p99_ms", "e2e_latency_p99_ms", "broker_produce_mean_ms", "broker_produce_p50_ms", "broker_produce_p99_ms",
		"broker_cpu_cores", "broker_cpu_pct_max")
	for _, b := range m.BrokerIDs {
		head = append(head, "broker_"+b+"_cpu_pct")
	}
	head = append(head, "client_cpu_cores", "client_cpu_s_per_million", "producer_cpu_s_per_million", "consumer_cpu_s_per_million", "records_failed",
		"records_total_acked", "records_total_failed", "records_total_unsent", "records_total_acked_after_end", "records_total_consumed",
		"limit", "invalid")
	if err := cw.Write(head); err != nil {
		return fmt.Errorf("unable to write CSV: %w", err)
	}
	// Every figure is its median, or empty when nothing was measured: never a 0 that was not.
	f := csvNumber
	med := func(s Stat) string {
		if s.N == 0 {
			return ""
		}
		return f(s.Median)
	}
	opt := func(s *Stat) string {
		if s == nil {
			return ""
		}
		return med(*s)
	}
	rng := func(v float64, s Stat) string {
		if s.N == 0 {
			return ""
		}
		return f(v)
	}
	for _, r := range m.Rows {
		var pcts []string
		var pctMax float64
		var hasPct bool
		for _, b := range r.Brokers {
			pcts = append(pcts, med(b.Pct))
			if b.Pct.N > 0 {
				pctMax, hasPct = max(pctMax, b.Pct.Median), true
			}
		}
		maxText := ""
		if hasPct {
			maxText = f(pctMax)
		}
		share := ""
		if r.TargetShare != nil && r.TargetShare.N > 0 {
			share = strconv.FormatFloat(r.TargetShare.Median*100, 'f', 2, 64)
		}
		target := ""
		if r.TargetRate > 0 {
			target = f(r.TargetRate)
		}
		spread := ""
		if r.RecordsPerSec.N > 0 {
			spread = strconv.FormatFloat(r.RecordsPerSec.Spread()*100, 'f', 2, 64)
		}
		var invalid []string
		for _, iv := range r.Invalid {
			invalid = append(invalid, fmt.Sprintf("repeat %d: %s", iv.Repeat, strings.Join(iv.Reasons, "; ")))
		}
		rec := append([]string{r.ID}, r.Params...)
		rec = append(rec, r.Kind, strconv.Itoa(r.Valid), strconv.Itoa(r.Total), target, share,
			med(r.RecordsPerSec), rng(r.RecordsPerSec.Min, r.RecordsPerSec), rng(r.RecordsPerSec.Max, r.RecordsPerSec), spread,
			med(r.MiBPerSec), opt(r.ConsumerMiBPerSec),
			r.LatencyBasis, med(r.LatAvg), med(r.P50), med(r.P95), med(r.P99), med(r.P999), med(r.Max),
			opt(r.SendP99), opt(r.E2EP99), opt(r.BrokerProduceMean), opt(r.BrokerProduceP50), opt(r.BrokerProduceP99),
			med(r.BrokerCores), maxText)
		rec = append(rec, pcts...)
		rec = append(rec, med(r.ClientCores), med(r.ClientCPUPerM), opt(r.ProducerCPUPerM), opt(r.ConsumerCPUPerM), strconv.FormatInt(r.Failed, 10))
		rec = append(rec, recordCells(r.Records)...)
		rec = append(rec, r.Limit.Resource, strings.Join(invalid, " | "))
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

// recordCells are the record accounting sums, empty when no repeat kept them.
func recordCells(c *RecordCount) []string {
	if c == nil {
		return make([]string, 5)
	}
	i := func(n int64) string { return strconv.FormatInt(n, 10) }
	consumed := ""
	if c.Consumed != nil {
		consumed = i(*c.Consumed)
	}
	return []string{i(c.Acked), i(c.Failed), i(c.Unsent), i(c.AckedAfterEnd), consumed}
}

// csvNumber writes v plainly, rounded to 10 significant digits so that arithmetic noise
// (1.1/10 = 0.11000000000000001) does not reach a spreadsheet.
func csvNumber(v float64) string {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 10, 64), 64)
	if err != nil {
		r = v
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// WriteJSON writes the model as indented JSON (charts by name only).
func WriteJSON(w io.Writer, m *Model) error {
	enc := jsonEncoder(w)
	if err := enc.Encode(m); err != nil {
		return fmt.Errorf("unable to write JSON report: %w", err)
	}
	return nil
}
