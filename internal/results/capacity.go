package results

// Capacity is a repeat's capacity search: the highest offered rate at which due-time latency
// met each SLO, bracketed, and every trial that found it. It has the shape kbench capacity
// --json prints, with the search's settings beside it.
type Capacity struct {
	// Precision is the widest final bracket asked for, as a share of its lower end; TrialS
	// a full-length trial and WarmupS each trial's warm-up, in seconds; MaxTrials the limit.
	Precision float64 `json:"precision"`
	TrialS    float64 `json:"trial_s"`
	WarmupS   float64 `json:"warmup_s"`
	MaxTrials int     `json:"max_trials"`
	// Brackets has one entry per SLO, in increasing order of percentile.
	Brackets []CapacityBracket `json:"brackets"`
	Trials   []CapacityTrial   `json:"trials"`
	// Error says why the search stopped early (a trial could not run); what it measured
	// until then is kept.
	Error string `json:"error,omitempty"`
}

// CapacitySLO is one latency bound: the Percentile (99, 99.9) of due-time latency must be
// at most LimitMs.
type CapacitySLO struct {
	Percentile float64 `json:"percentile"`
	LimitMs    float64 `json:"limit_ms"`
}

// CapacityBracket is the search's answer for one SLO.
type CapacityBracket struct {
	SLO CapacitySLO `json:"slo"`
	// Lower is the highest offered rate that passed, Upper the lowest that failed, in
	// records/s (0 when none did); LowerMiB and UpperMiB in MiB/s.
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	LowerMiB float64 `json:"lower_mib_per_sec"`
	UpperMiB float64 `json:"upper_mib_per_sec"`
	// Converged is true when Upper/Lower - 1 is within the precision, the lower end passed
	// two full-length trials and the upper end was measured at full length; Note says why
	// not otherwise.
	Converged bool   `json:"converged"`
	Note      string `json:"note,omitempty"`
	// AtLower* are the due-time percentiles of the trials at Lower merged, in ms; SpreadMs
	// the lowest and highest of the SLO's percentile across those trials.
	AtLowerP50Ms  float64    `json:"at_lower_p50_ms"`
	AtLowerP99Ms  float64    `json:"at_lower_p99_ms"`
	AtLowerP999Ms float64    `json:"at_lower_p999_ms"`
	SpreadMs      [2]float64 `json:"spread_ms"`
}

// CapacityTrial is one trial: an open-loop run at one offered rate after its warm-up.
type CapacityTrial struct {
	N int `json:"n"`
	// Offered is the rate in records/s, 0 for the unthrottled trial that bounds the search.
	Offered   float64 `json:"offered"`
	DurationS float64 `json:"duration_s"`
	Achieved  float64 `json:"achieved"`
	MiBPerSec float64 `json:"mib_per_sec"`
	// P50Ms, P99Ms and P999Ms are due-time latency; Send* send-time latency.
	P50Ms      float64 `json:"p50_ms"`
	P99Ms      float64 `json:"p99_ms"`
	P999Ms     float64 `json:"p999_ms"`
	SendP50Ms  float64 `json:"send_p50_ms"`
	SendP99Ms  float64 `json:"send_p99_ms"`
	SendP999Ms float64 `json:"send_p999_ms"`
	// Pass says, per bracket in order, whether the trial met that SLO; Reasons why not.
	Pass    []bool     `json:"pass"`
	Reasons [][]string `json:"reasons"`
}

// LowerFor returns the bracket of the SLO on percentile p, if the search had one.
func (c *Capacity) LowerFor(p float64) (CapacityBracket, bool) {
	if c == nil {
		return CapacityBracket{}, false
	}
	for _, b := range c.Brackets {
		if b.SLO.Percentile == p {
			return b, true
		}
	}
	return CapacityBracket{}, false
}
