// Package capacity finds the highest rate a cluster sustains while due-time latency meets
// its SLOs (p99 <= 50 ms, say): the question a capacity plan asks, which an unthrottled run
// cannot answer (it measures the producer's buffer: seconds of "p99").
//
// The search runs trials, each an open-loop run at one fixed offered rate: one unthrottled
// trial bounds the rate, then bisection in log-rate narrows [highest passing, lowest
// failing] until it is within a precision (5 %). Its classification tolerates noise, after
// the IETF MLRsearch draft: every rate keeps the trial time it passed and failed, and is an
// upper bound only when the majority of its trial time failed; the bracket's upper end is
// re-tested at full length before the search ends, and its lower end must pass Confirm (2)
// full-length trials, every one, or it becomes an upper bound and the search goes on below. Trials are short while the bracket is
// wide and full-length near the end. Several SLOs are searched on the same trials.
//
// The package runs trials through a TrialFunc and reads no clock, so the search is tested
// with a latency model; the CLI gives it load.Producers' trials.
package capacity

import (
	"context"
	"time"
)

// TrialFunc runs one trial at rate records/s (0: unthrottled) for d after its warm-up.
type TrialFunc func(ctx context.Context, rate float64, d time.Duration) (Outcome, error)

// Config is a search. The zero value of each optional field is its documented default.
type Config struct {
	// SLOs are the latency bounds; each gets its own bracket from the same trials.
	SLOs []SLO
	// Precision is the widest final bracket, upper/lower - 1, overriding the default 0.05.
	Precision float64
	// Trial is a full-length trial, overriding the default 20 s; Short the trials while
	// the bracket is wide, overriding the default Trial/4 (at least MinShort, at most Trial).
	Trial, Short time.Duration
	// MinRate is the lowest rate tried, overriding the default 1 record/s.
	MinRate float64
	// MaxTrials stops a search that has not converged, overriding the default 20.
	MaxTrials int
	// Confirm is how many full-length trials the bracket's lower end must pass, every one
	// of them, overriding the default 2: p99 over one window at a fixed rate varies by 2-5x
	// between windows on a busy host, so one passing trial is weak evidence.
	Confirm int
	// Progress, if not nil, is called after every trial.
	Progress func(Trial)
}

// Defaults of Config.
const (
	DefaultPrecision = 0.05
	DefaultTrial     = 20 * time.Second
	DefaultMaxTrials = 20
	DefaultConfirm   = 2
	// MinShort is the shortest default short trial: below it a trial holds too few
	// acknowledgements for a p99 worth comparing, and the warm-up's backlog weighs on it.
	MinShort = 2 * time.Second
)

// Trial is one trial of a search, as judged against every SLO.
type Trial struct {
	// N numbers the trials from 1.
	N int `json:"n"`
	// Offered is the rate in records/s, 0 for the unthrottled trial.
	Offered  float64       `json:"offered"`
	Duration time.Duration `json:"duration"`
	Achieved float64       `json:"achieved"`
	// MiBPerSec is the achieved rate in MiB/s (key plus value bytes).
	MiBPerSec float64 `json:"mib_per_sec"`
	// P50, P99 and P999 are the due-time latency percentiles.
	P50, P99, P999 time.Duration `json:"-"`
	P50Ms          float64       `json:"p50_ms"`
	P99Ms          float64       `json:"p99_ms"`
	P999Ms         float64       `json:"p999_ms"`
	// SendP50Ms, SendP99Ms and SendP999Ms are send-time latency: from each record's
	// hand-over to the client, without the queueing behind its due time.
	SendP50Ms  float64 `json:"send_p50_ms"`
	SendP99Ms  float64 `json:"send_p99_ms"`
	SendP999Ms float64 `json:"send_p999_ms"`
	// Pass says, per SLO in order, whether the trial met it; Reasons why not.
	Pass    []bool     `json:"pass"`
	Reasons [][]string `json:"reasons"`

	outcome Outcome
}

// Bracket is the search's answer for one SLO.
type Bracket struct {
	SLO SLO `json:"slo"`
	// Lower is the highest rate that passed, Upper the lowest that failed (records/s); 0
	// when none did. LowerMiB and UpperMiB are the same in MiB/s.
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	LowerMiB float64 `json:"lower_mib_per_sec"`
	UpperMiB float64 `json:"upper_mib_per_sec"`
	// Converged is true when Upper/Lower - 1 is within the precision, the lower end passed
	// Confirm full-length trials and the upper end was measured at full length; Note says
	// why not otherwise.
	Converged bool   `json:"converged"`
	Note      string `json:"note,omitempty"`
	// AtLower are the due-time percentiles of every trial at Lower merged (ms), and
	// SpreadMs the lowest and highest of the SLO's percentile across those trials.
	AtLowerP50Ms  float64    `json:"at_lower_p50_ms"`
	AtLowerP99Ms  float64    `json:"at_lower_p99_ms"`
	AtLowerP999Ms float64    `json:"at_lower_p999_ms"`
	SpreadMs      [2]float64 `json:"spread_ms"`
}

// Result is a whole search.
type Result struct {
	Brackets []Bracket `json:"brackets"`
	Trials   []Trial   `json:"trials"`
}

func (c Config) withDefaults() Config {
	if c.Precision == 0 {
		c.Precision = DefaultPrecision
	}
	if c.Trial == 0 {
		c.Trial = DefaultTrial
	}
	if c.Short == 0 {
		c.Short = min(c.Trial, max(c.Trial/4, MinShort))
	}
	if c.MinRate == 0 {
		c.MinRate = 1
	}
	if c.MaxTrials == 0 {
		c.MaxTrials = DefaultMaxTrials
	}
	if c.Confirm == 0 {
		c.Confirm = DefaultConfirm
	}
	return c
}
