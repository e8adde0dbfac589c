package report

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/kbench/kbench/internal/results"
)

// effects computes, for each parameter the study varies, the change between consecutive
// values among scenarios that differ in that parameter only.
func effects(rd *results.RunDir, rows []Row) []Effect {
	names := paramNames(rd.Run.Scenarios)
	var ref map[string]map[string]float64
	if rd.Run.Reference != nil {
		ref = rd.Run.Reference.Figures
	}
	var out []Effect
	for di, dim := range names {
		if len(distinct(rows, di)) < 2 {
			continue
		}
		groups := map[string][]Row{}
		var order []string
		for _, r := range rows {
			if r.Params[di] == "" || r.Valid == 0 {
				continue
			}
			key := paramContext(r, names, dim)
			if _, ok := groups[key]; !ok {
				order = append(order, key)
			}
			groups[key] = append(groups[key], r)
		}
		for _, key := range order {
			g := groups[key]
			sortByValue(g, di)
			for i := 1; i < len(g); i++ {
				out = append(out, effect(dim, key, g[i-1], g[i], di, ref))
			}
		}
	}
	return out
}

func effect(dim, context string, a, b Row, di int, ref map[string]map[string]float64) Effect {
	e := Effect{Dimension: dim, From: a.Params[di], To: b.Params[di], Context: context}
	e.RateRatio, e.RateSpread = ratioStat(b.RecordsPerSec, a.RecordsPerSec)
	pa, pb, label := effectP99(a, b)
	e.P99Change = change(pa.Median, pb.Median)
	e.CPUChange = change(a.BrokerCores.Median, b.BrokerCores.Median)
	if ra, rb := ref[a.ID]["records_per_sec"], ref[b.ID]["records_per_sec"]; ra > 0 && rb > 0 {
		e.SourceRatio = rb / ra
		agrees := direction(e.SourceRatio) == direction(e.RateRatio)
		e.Agrees = &agrees
	}
	var s strings.Builder
	fmt.Fprintf(&s, "%s %s → %s: records/s x%.2f", dim, e.From, e.To, e.RateRatio)
	if e.RateSpread > 0 {
		fmt.Fprintf(&s, " (±%.0f%%)", e.RateSpread*100)
	}
	if pa.N > 0 && pb.N > 0 {
		fmt.Fprintf(&s, ", %s %s", label, pct(e.P99Change))
	}
	if a.BrokerCores.N > 0 && b.BrokerCores.N > 0 {
		fmt.Fprintf(&s, ", broker CPU %s", pct(e.CPUChange))
	}
	if context != "" {
		fmt.Fprintf(&s, " (at %s)", context)
	}
	if e.Agrees != nil {
		verb := "agrees with"
		if !*e.Agrees {
			verb = "contradicts"
		}
		fmt.Fprintf(&s, "; %s the source (x%.2f)", verb, e.SourceRatio)
	}
	e.Text = s.String()
	return e
}

// effectP99 picks the p99 an effect compares, and names it: send time when a throttle was
// not reached on either side (due time there measures the backlog), and says when the
// latency is buffer-bound on both.
func effectP99(a, b Row) (pa, pb Stat, label string) {
	backlog := a.LatencyBasis == LatencyBacklog || b.LatencyBasis == LatencyBacklog
	switch {
	case backlog && a.SendP99 != nil && b.SendP99 != nil:
		return *a.SendP99, *b.SendP99, "send-time p99"
	case backlog:
		return Stat{}, Stat{}, ""
	case a.LatencyBasis == LatencyBufferBound && b.LatencyBasis == LatencyBufferBound:
		return a.P99, b.P99, "p99 latency (buffer-bound)"
	}
	return a.P99, b.P99, "p99 latency"
}

// direction classifies a ratio as up (1), down (-1) or flat (0, within 5%).
func direction(ratio float64) int {
	switch {
	case ratio > 1.05:
		return 1
	case ratio < 1/1.05:
		return -1
	}
	return 0
}

func distinct(rows []Row, di int) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range rows {
		if v := r.Params[di]; v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// sortByValue orders rows by the value of parameter di: numerically when every value is a
// number (sizes such as 16KiB included), else in study order (a stable sort keeps it).
func sortByValue(rows []Row, di int) {
	for _, r := range rows {
		if _, ok := parseNumber(r.Params[di]); !ok {
			return
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, _ := parseNumber(rows[i].Params[di])
		b, _ := parseNumber(rows[j].Params[di])
		return a < b
	})
}

// parseNumber reads a parameter value as a number: "3", "0.5", "16KiB", "1MB", "4k".
func parseNumber(s string) (float64, bool) {
	t := strings.TrimSpace(s)
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30},
		{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30},
		{"k", 1000}, {"K", 1 << 10}, {"m", 1e6}, {"M", 1 << 20},
	} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, false
	}
	return v * mult, true
}
