package capacity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/kbench/kbench/internal/stats"
)

// search is the state of one Search: every trial, and per rate what each SLO's goals read
// of its trials.
type search struct {
	cfg    Config
	trials []Trial
	loads  map[float64]*rateEvidence
	// max is the unthrottled trials' best achieved rate, where the search starts.
	max float64
	// opening counts the unthrottled trials the search opened with.
	opening int
	// spent is the time used so far: trials (warm-up and drain included) and settles.
	spent time.Duration
	// lastSettle is the last settle's wait, longestSettle the longest so far: the estimates
	// of the next one's after a trial that passed and one that did not.
	lastSettle, longestSettle time.Duration
	// stopped says why the search ended early.
	stopped string
	// disturbed counts the trials set aside as disturbed (Trial.Disturbed), stalls those
	// set aside as stalled (Trial.Stalled).
	disturbed, stalls int
}

// rateEvidence is the evidence at one rate: per SLO, its trials' durations and loss ratios.
type rateEvidence struct {
	results [][]trialResult
}

// Search finds, for every SLO of cfg, the bracket [relevant lower bound, relevant upper
// bound], running trials through run. It always returns a result; the error is that of a
// trial that could not run, or of a cancelled ctx, with what was measured until then.
func Search(ctx context.Context, cfg Config, run TrialFunc) (*Result, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s := &search{cfg: cfg, loads: map[float64]*rateEvidence{}}
	if err := s.trial(ctx, run, 0, cfg.Short, PhaseBound); err != nil {
		return s.result(), fmt.Errorf("unthrottled trial: %w", err)
	}
	s.max = s.trials[0].Achieved
	if s.max <= 0 {
		return s.result(), errors.New("the unthrottled trial acknowledged no record: there is no rate to search from")
	}
	for s.opening = 1; s.opening < maxOpeningBounds && s.climbing(); s.opening++ {
		if !s.affords(cfg.Short, PhaseBound) {
			break
		}
		if err := s.trial(ctx, run, 0, cfg.Short, PhaseBound); err != nil {
			return s.result(), fmt.Errorf("unthrottled trial: %w", err)
		}
	}
	for {
		if cfg.MaxTrials > 0 && len(s.trials) >= cfg.MaxTrials {
			s.stopped = fmt.Sprintf("stopped at the limit of %d trials", cfg.MaxTrials)
			break
		}
		rate, d, phase, ok := s.next()
		if !ok {
			s.stopped = "the bracket cannot narrow further at whole records/s"
			break
		}
		if !s.affords(d, phase) {
			// The budget cannot hold this trial and the confirmation after it: confirm
			// what there is, if that still fits, and stop.
			s.stopped = fmt.Sprintf("the budget of %v ended after %d trials", cfg.MaxDuration, len(s.trials))
			if rate, d, phase, ok = s.lastConfirmation(); !ok || !s.affords(d, phase) {
				break
			}
		}
		if err := s.trial(ctx, run, rate, d, phase); err != nil {
			return s.result(), err
		}
	}
	return s.result(), nil
}

func (c Config) validate() error {
	var errs []error
	if len(c.SLOs) == 0 {
		errs = append(errs, errors.New("at least one slo is required"))
	}
	if c.Precision <= 0 || c.Precision >= 1 {
		errs = append(errs, fmt.Errorf("precision %v is not between 0 and 1", c.Precision))
	}
	if c.Trial <= 0 || c.Short <= 0 || c.Short > c.Trial {
		errs = append(errs, fmt.Errorf("trial %v and short trial %v must be above zero, the short one not longer", c.Trial, c.Short))
	}
	if c.MinRate <= 0 || c.MaxTrials < 0 || c.MaxDuration <= 0 || c.Confirm < c.Trial {
		errs = append(errs, fmt.Errorf("min rate %v and max duration %v must be above zero, max trials %d not negative, confirmation %v at least a trial", c.MinRate, c.MaxDuration, c.MaxTrials, c.Confirm))
	}
	for _, slo := range c.SLOs {
		if err := c.goal(slo).validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// goal is the final goal of slo: full-length trials, the duration sum and exceed ratio.
func (c Config) goal(slo SLO) Goal {
	return Goal{FinalTrial: c.Trial, DurationSum: c.DurationSum, LossRatio: slo.LossRatio(), ExceedRatio: c.ExceedRatio}
}

// coarse is the goal the short trials bisect with: one trial of Short decides a rate.
func (c Config) coarse(slo SLO) Goal {
	return Goal{FinalTrial: c.Short, DurationSum: c.Short, LossRatio: slo.LossRatio(), ExceedRatio: 0.5}
}

// confirmGoal is the goal a lower end's confirmation trial must meet: one that passes
// confirms it, one that fails makes it an upper bound. A second try was worth less than
// its minute: on the embedded clusters, 9 of 11 rates whose first confirmation failed
// failed the second too (their 20 s trials pass about half the time; 60 s ones pay for
// what 20 s can miss), and those retries were most of what sent searches past their budget
// unconfirmed.
func (c Config) confirmGoal(slo SLO) Goal {
	return Goal{FinalTrial: c.Confirm, DurationSum: c.Confirm, LossRatio: slo.LossRatio(), ExceedRatio: 0}
}

// cost is what a trial of d takes from the budget: its warm-up, d and the settle before it.
// After a trial that failed an SLO or ran unthrottled the settle is taken as the longest
// yet: such a trial can leave the debt a settle waits out (in the simulation a budget
// estimated from the last, short settle was overrun by 15-18 s).
func (s *search) cost(d time.Duration) time.Duration {
	if d == 0 {
		return 0
	}
	settle := s.lastSettle
	if n := len(s.trials); n > 0 && (s.trials[n-1].Offered == 0 || slices.Contains(s.trials[n-1].Pass, false)) {
		settle = s.longestSettle
	}
	return s.cfg.Warmup + d + settle
}

// affords says whether the budget holds a trial of d in phase: a coarse trial on its own
// (a coarse bracket is still an answer when the budget is short), a final trial with the
// confirmation after it.
func (s *search) affords(d time.Duration, phase Phase) bool {
	need := s.cost(d)
	if phase == PhaseFinal {
		need += s.cost(s.cfg.Confirm)
	}
	return s.spent+need <= s.cfg.MaxDuration
}

// trial settles the cluster (after the first trial), runs one trial and records it.
func (s *search) trial(ctx context.Context, run TrialFunc, rate float64, d time.Duration, phase Phase) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var st Settle
	if len(s.trials) > 0 && s.cfg.Settle != nil {
		var err error
		if st, err = s.cfg.Settle(ctx); err != nil {
			return fmt.Errorf("settling before the trial at %.0f records/s: %w", rate, err)
		}
		s.spent += st.Waited
		s.lastSettle = st.Waited
		s.longestSettle = max(s.longestSettle, st.Waited)
	}
	o, err := run(ctx, rate, d)
	if err != nil {
		if rate == 0 {
			return err
		}
		return fmt.Errorf("trial at %.0f records/s: %w", rate, err)
	}
	if o.Elapsed > 0 {
		s.spent += o.Elapsed
	} else {
		s.spent += s.cfg.Warmup + d
	}
	s.record(rate, d, phase, st, o)
	return nil
}

// record judges o against every SLO and adds it to the trials and to its rate's evidence.
func (s *search) record(rate float64, d time.Duration, phase Phase, st Settle, o Outcome) {
	t := Trial{N: len(s.trials) + 1, Phase: phase, Offered: rate, Duration: d, Achieved: o.Achieved, Records: o.Records, Settle: st,
		HostStealPct: o.HostStealPct, HostStealRead: o.HostStealRead,
		HostDiskWriteWaitMs: o.HostDiskWriteWaitMs, HostDiskWritten: o.HostDiskWritten, HostDiskRead: o.HostDiskRead,
		HostDirtyAtStart: o.HostDirtyAtStart, HostDirtyRead: o.HostDirtyRead, CPU: o.CPU, outcome: o}
	if o.Acked > 0 && o.Achieved > 0 {
		t.MiBPerSec = o.Achieved * float64(o.Bytes) / float64(o.Acked) / (1 << 20)
	}
	if o.Latency != nil {
		t.P50, t.P99, t.P999 = o.Latency.Quantile(0.50), o.Latency.Quantile(0.99), o.Latency.Quantile(0.999)
	}
	if h := o.SendLatency; h != nil && h.Count() > 0 {
		t.SendP50, t.SendP99, t.SendP999 = h.Quantile(0.50), h.Quantile(0.99), h.Quantile(0.999)
	}
	var common []string
	if rate > 0 {
		common = judgeCommon(o, rate)
	} else {
		common = []string{"unthrottled: buffer-bound, bounds the search only"}
	}
	var judged []trialResult
	for _, slo := range s.cfg.SLOs {
		loss, why := judgeSLO(o, slo)
		why = append(append([]string(nil), common...), why...)
		if len(common) > 0 {
			loss = 1 // a rate not sustained is high-loss whatever its latency
		}
		t.LossRatio = append(t.LossRatio, loss)
		t.Pass = append(t.Pass, len(why) == 0)
		t.Reasons = append(t.Reasons, why)
		var q time.Duration
		if o.Latency != nil && o.Latency.Count() > 0 {
			q = o.Latency.Quantile(slo.Percentile / 100)
		}
		judged = append(judged, trialResult{duration: d, lossRatio: loss, phase: phase, latency: q})
	}
	t.Disturbed = rate > 0 && o.HostStealRead && o.HostStealPct >= DisturbedStealPct &&
		slices.Contains(t.Pass, false) && s.disturbed < MaxDisturbed
	if t.Disturbed {
		s.disturbed++
	}
	t.Stalled = !t.Disturbed && len(common) == 0 && s.stalled(rate, phase, judged)
	if t.Stalled {
		s.stalls++
	}
	if ld := s.loads[rate]; rate > 0 && !t.setAside() {
		if ld == nil {
			ld = &rateEvidence{results: make([][]trialResult, len(s.cfg.SLOs))}
			s.loads[rate] = ld
		}
		for i, r := range judged {
			ld.results[i] = append(ld.results[i], r)
		}
	}
	if phase == PhaseBound && len(s.trials) > 0 {
		// Measured again on a warm cluster: the first fell short.
		s.max = max(s.max, o.Achieved)
	}
	s.trials = append(s.trials, t)
	if s.cfg.Progress != nil {
		s.cfg.Progress(t)
	}
}

// stalled says whether a full-length trial (final or confirmation) at rate that measured
// judged froze rather than found the rate too high: for every SLO it failed, its percentile
// was stallShare times the limit or more while a counted full-length trial at this rate or
// above had stayed under that (the cluster carried as much without freezing). Such a trial
// is set aside and its rate tried again (Trial.Stalled), once per rate and at most
// maxStalled times a search, so a second stall decides. A rate that is too high fails a
// full-length trial by a little: recorded on the embedded clusters, failed confirmations
// had p99 at 1.5-3.3 times the limit (73-165 ms against 50 ms), and 9 of 11 second tries
// failed too; failures at the edge reached 448 ms at most. A cluster that held a rate and
// then froze for seconds at it or below met a pause, a flush or its host.
func (s *search) stalled(rate float64, phase Phase, judged []trialResult) bool {
	if rate <= 0 || (phase != PhaseFinal && phase != PhaseConfirm) || s.stalls >= maxStalled {
		return false
	}
	for _, t := range s.trials {
		if t.Offered == rate && t.Stalled {
			return false
		}
	}
	failed := false
	for i, r := range judged {
		slo := s.cfg.SLOs[i]
		if r.lossRatio <= slo.LossRatio() {
			continue
		}
		failed = true
		if float64(r.latency) < stallShare*float64(slo.Limit) || !s.heldAtOrAbove(i, rate) {
			return false
		}
	}
	return failed
}

// heldAtOrAbove says whether a counted full-length trial at rate or above kept SLO i's
// percentile under stallShare times its limit.
func (s *search) heldAtOrAbove(i int, rate float64) bool {
	limit := stallShare * float64(s.cfg.SLOs[i].Limit)
	for r := range s.loads {
		if r < rate {
			continue
		}
		for _, t := range s.evidence(i, r, PhaseFinal) {
			if t.latency > 0 && float64(t.latency) < limit {
				return true
			}
		}
	}
	return false
}

// stallShare is how far above its limit a full-length trial's percentile must be for its
// failure to count as a stall (see stalled); maxStalled bounds the trials a search sets
// aside so.
const (
	stallShare = 10
	maxStalled = 2
)

// class is rate's classification for SLO i against g, from the trials of phase (every
// trial for ""); a failed confirmation makes it an upper bound whatever else it showed.
func (s *search) class(g Goal, i int, rate float64, phase Phase) Class {
	if s.confirmation(i, rate) == UpperBound {
		return UpperBound
	}
	return g.Classify(s.evidence(i, rate, phase))
}

// evidence is SLO i's trials at rate of phase, or all of them for "". A confirmation trial
// is a full-length trial too: PhaseFinal includes it (one of 60 s passing makes its rate a
// lower bound, one failing an upper bound, with a duration sum of 60 s or less).
func (s *search) evidence(i int, rate float64, phase Phase) []trialResult {
	if phase == "" {
		return s.loads[rate].results[i]
	}
	var out []trialResult
	for _, t := range s.loads[rate].results[i] {
		if t.phase == phase || (phase == PhaseFinal && t.phase == PhaseConfirm) {
			out = append(out, t)
		}
	}
	return out
}

// confirmFailed says whether a confirmation trial of SLO i has failed: the cluster has
// shown that its full-length trials flatter it against a confirmation's length.
func (s *search) confirmFailed(i int) bool {
	for r := range s.loads {
		if s.confirmation(i, r) == UpperBound {
			return true
		}
	}
	return false
}

// confirmation is rate's classification for SLO i by its confirmation trials alone against
// the confirmation goal: a lower bound is confirmed, an upper bound failed its
// confirmation, undecided needs another (or has none).
func (s *search) confirmation(i int, rate float64) Class {
	confirms := s.evidence(i, rate, PhaseConfirm)
	if len(confirms) == 0 {
		return Undecided
	}
	return s.cfg.confirmGoal(s.cfg.SLOs[i]).Classify(confirms)
}

// bounds are a goal's relevant bounds and the rates around them.
type bounds struct {
	lower, upper float64
	// undecided are the undecided rates between lower and upper; irregular the lower
	// bounds above upper.
	undecided, irregular []float64
}

// bounds classifies every rate tried for SLO i against g, from the trials of phase: the
// relevant upper bound is the lowest upper bound, the relevant lower bound the highest
// lower bound below it.
func (s *search) bounds(g Goal, i int, phase Phase) bounds {
	var b bounds
	rates := make([]float64, 0, len(s.loads))
	for r := range s.loads {
		rates = append(rates, r)
	}
	slices.Sort(rates)
	classes := make([]Class, len(rates))
	for k, r := range rates {
		classes[k] = s.class(g, i, r, phase)
		if classes[k] == UpperBound && b.upper == 0 {
			b.upper = r
		}
	}
	for k, r := range rates {
		above := b.upper > 0 && r > b.upper
		switch {
		case classes[k] == LowerBound && above:
			b.irregular = append(b.irregular, r)
		case classes[k] == LowerBound:
			b.lower = r
		}
	}
	for k, r := range rates {
		if classes[k] == Undecided && r > b.lower && (b.upper == 0 || r < b.upper) {
			b.undecided = append(b.undecided, r)
		}
	}
	return b
}

// next returns the next trial: the first SLO whose answer is not done decides it.
func (s *search) next() (rate float64, d time.Duration, phase Phase, ok bool) {
	for i := range s.cfg.SLOs {
		if rate, d, phase, ok := s.step(i); ok {
			return rate, d, phase, true
		}
	}
	return 0, 0, "", false
}

// step returns SLO i's next trial, or !ok when its answer is done (or cannot narrow).
func (s *search) step(i int) (rate float64, d time.Duration, phase Phase, ok bool) {
	c, slo := s.cfg, s.cfg.SLOs[i]
	fin := s.bounds(c.goal(slo), i, PhaseFinal)
	if s.stale(i, fin) {
		full, fullPhase := s.fullTrial(i)
		return fin.upper, full, fullPhase, true
	}
	if fin.lower > 0 && fin.upper > 0 && narrow(fin.lower, fin.upper, 1+c.Precision) && len(fin.undecided) == 0 {
		if s.confirmation(i, fin.lower) != LowerBound {
			return fin.lower, c.Confirm, PhaseConfirm, true
		}
		return 0, 0, "", false
	}
	// Coarse: short trials bisect until the bracket is within coarseWidth. Once a
	// full-length trial has run, they are done: on a real cluster short trials are
	// optimistic (a 5 s trial can miss the segment roll or the page cache's write-back that a
	// 20 s one pays), and going back to them after a full-length trial overturned one only
	// repeats the mistake.
	co := s.bounds(c.coarse(slo), i, "")
	if !s.finalStarted() {
		unthrottled := co.upper == 0 && co.lower > 0 && co.lower < roundRate(s.max)
		if unthrottled {
			// The unthrottled rate bounds the bisection until a paced trial reaches it: it
			// is usually where the producers' buffer fills, but a cold first trial can fall
			// short.
			co.upper = roundRate(s.max)
		}
		switch {
		case co.upper == 0 && co.lower == 0:
			// At the unthrottled rate itself the producers' buffer fills by definition:
			// start under it, where the recorded answers lie (coarseStep).
			return roundRate(coarseStep * s.max), c.Short, PhaseCoarse, true
		case co.upper == 0 && s.boundTrials() <= s.opening:
			// A paced trial passed at the unthrottled rate: that trial fell short (a cold
			// start). Measured again, it bounds the bisection better than a doubling.
			return 0, c.Short, PhaseBound, true
		case co.upper == 0:
			return roundRate(2 * co.lower), c.Short, PhaseCoarse, true
		case co.lower == 0:
			r := max(roundRate(coarseStep*co.upper), c.MinRate)
			return r, c.Short, PhaseCoarse, r < co.upper
		case !narrow(co.lower, co.upper, coarseWidth(c.Precision)):
			mid := roundRate(math.Sqrt(co.lower * co.upper))
			return mid, c.Short, PhaseCoarse, mid > co.lower && mid < co.upper
		case unthrottled:
			return co.upper, c.Short, PhaseCoarse, true
		}
	}
	// Final: full-length trials classify the coarse bracket's ends, re-test undecided rates
	// inside, and bisect to the precision.
	full, fullPhase := s.fullTrial(i)
	lo, hi := fin.lower, fin.upper
	if lo == 0 && (hi == 0 || co.lower < hi) {
		lo = co.lower
	}
	if hi == 0 && co.upper > lo {
		hi = co.upper
	}
	// A rate whose full-length trials have all failed but are too few to make it an upper
	// bound (one, with 20 s trials and the default duration sum; none with 40 s, where one
	// decides) bounds the bisection provisionally: the search goes
	// on below it and tries it again only when the bracket has narrowed to it. Had it been
	// tried again at once, every step down from far above would cost two trials; a fluke
	// failure costs the same either way, as the rate is tried again before it is an end.
	if p := s.provisional(i, fin, lo); p > 0 && (hi == 0 || p <= hi) {
		// lo is the full-length lower bound, or the coarse one while there is none.
		if lo > 0 && narrow(lo, p, 1+c.Precision) {
			if und := within(fin.undecided, lo, p); len(und) > 0 {
				return nearestMiddle(und, lo, p), full, fullPhase, true
			}
		}
		if fin.lower > 0 && s.farBelow(i, fin.lower) {
			// The lower bound passed far under the limit, so a failure just above it says
			// more about when it ran than about the rate (the host's neighbours took its
			// CPU for a while): try that rate again now rather than creep up to it.
			return p, full, fullPhase, true
		}
		hi = p
		if fin.lower == 0 {
			r := max(roundRate(hi/s.expansion(i, hi, false)), c.MinRate)
			if lo > 0 && lo < hi && lo > r {
				r = lo // the coarse bracket's lower end, not yet classified by a full-length trial
			}
			return r, full, fullPhase, r < hi
		}
		mid := roundRate(math.Sqrt(fin.lower * hi))
		return mid, full, fullPhase, mid > fin.lower && mid < hi
	}
	if und := within(fin.undecided, lo, hi); len(und) > 0 {
		if fin.lower > 0 {
			return nearestMiddle(und, lo, hi), full, fullPhase, true
		}
		return inside(und, lo, hi, c.Precision), full, fullPhase, true
	}
	// A missing end is looked for beyond the other in growing steps, (1+precision)^2, then
	// its square, and so on (MLRsearch's expansion): the first step, if it holds, ends the
	// search; a long way off is reached in a few. Going up, the steps stop short of the
	// unthrottled rate, where the producers' buffer fills; a lower bound at or above that
	// means the unthrottled trial fell short (a cold start), and it is measured again.
	switch {
	case fin.upper == 0:
		r := roundRate(fin.lower * s.expansion(i, fin.lower, true))
		ceiling := roundRate(ceilingShare * s.max)
		switch {
		case fin.lower < ceiling && ceiling/fin.lower > farCeiling:
			// Far below where the buffer fills (the unthrottled trial measured again on a
			// warm cluster): bisect towards it rather than creep up in small steps.
			r = roundRate(math.Sqrt(fin.lower * ceiling))
		case fin.lower < ceiling:
			r = min(r, ceiling)
		case s.boundTrials() <= s.opening:
			return 0, c.Short, PhaseBound, true
		}
		return r, full, fullPhase, true
	case fin.lower == 0:
		r := max(roundRate(fin.upper/s.expansion(i, fin.upper, false)), c.MinRate)
		return r, full, fullPhase, r < fin.upper
	}
	mid := roundRate(math.Sqrt(fin.lower * fin.upper))
	return mid, full, fullPhase, mid > fin.lower && mid < fin.upper
}

// fullTrial is the length and phase of SLO i's next full-length trial. Once a confirmation
// has failed, they run as long as a confirmation, and each is one: the cluster has shown
// that a rate its full-length trials pass can fail a confirmation's length (on the embedded
// clusters a 20 s trial sees a segment roll's flush or none, a 60 s one sees two or three),
// so a shorter pass below would be weak evidence again, and its confirmation a second trial.
func (s *search) fullTrial(i int) (time.Duration, Phase) {
	if s.confirmFailed(i) {
		return s.cfg.Confirm, PhaseConfirm
	}
	return s.cfg.Trial, PhaseFinal
}

// provisional is SLO i's lowest undecided rate above lo whose full-length trials all
// failed, or 0.
func (s *search) provisional(i int, fin bounds, lo float64) float64 {
	for _, r := range fin.undecided { // ascending
		if r <= lo {
			continue
		}
		failed := true
		for _, t := range s.evidence(i, r, PhaseFinal) {
			if t.lossRatio <= s.cfg.SLOs[i].LossRatio() {
				failed = false
			}
		}
		if failed && len(s.evidence(i, r, PhaseFinal)) > 0 {
			return r
		}
	}
	return 0
}

// stale says whether SLO i's relevant upper bound should be tried again before it ends the
// search: a full-length trial at the lower end, run after the upper end's last, passed far
// under the limit (farBelow), and one more pass at the upper end would no longer make it an
// upper bound (with one 40 s trial deciding a rate, one failure against one pass makes a
// lower bound). The failure then says more about when it ran than about the rate. Recorded
// on a 3-broker embedded cluster: 57,755, 52,385 and 43,097 records/s failed 40 s trials
// in a row (p99 448, 294, 95 ms), the search passed 41,045 and confirmed it at p99 5.5 ms,
// and ended at 41,045-43,097 where the search before it had found 89,089. The rule
// generalises the provisional one in step, which a failure that decides a rate never meets.
// Each retry follows a new far-below pass, so it cannot repeat without new evidence.
func (s *search) stale(i int, fin bounds) bool {
	if fin.lower == 0 || fin.upper == 0 || !s.farBelow(i, fin.lower) || s.confirmation(i, fin.upper) == UpperBound {
		return false
	}
	if s.lastFull(fin.upper) > s.lastFull(fin.lower) {
		return false
	}
	g := s.cfg.goal(s.cfg.SLOs[i])
	pass := trialResult{duration: g.FinalTrial, phase: PhaseFinal}
	return g.Classify(append(slices.Clone(s.evidence(i, fin.upper, PhaseFinal)), pass)) != UpperBound
}

// lastFull is the number of the last full-length trial at rate that the final goal reads,
// or 0.
func (s *search) lastFull(rate float64) int {
	n := 0
	for _, t := range s.trials {
		if t.Offered == rate && t.countsInFinal() {
			n = t.N
		}
	}
	return n
}

// farBelow says whether the last full-length trial at rate passed SLO i with its
// percentile at most farBelowShare of the limit.
func (s *search) farBelow(i int, rate float64) bool {
	ev := s.evidence(i, rate, PhaseFinal)
	if len(ev) == 0 {
		return false
	}
	last, slo := ev[len(ev)-1], s.cfg.SLOs[i]
	return last.lossRatio <= slo.LossRatio() && last.latency > 0 && float64(last.latency) <= farBelowShare*float64(slo.Limit)
}

// farBelowShare is how far under its limit a lower bound's latency must be for a failure
// just above it to be tried again at once. With the knee slopes recorded on the embedded
// clusters (p99 growing as the rate's 15th to 30th power near the edge), 0.15 of the limit
// lies 6 to 12 % below the edge. Recorded on one broker while the hypervisor took up to 19 %
// of the host: rates failed at 20,558-64,869 records/s, then passed at p99 2-6 ms, and the
// search crept back up through each failed rate in 12 trials. In the simulation's disturbed
// searches (a third to two thirds of the capacity for 1-3 minutes) this found the capacity
// again in 70 of 74 that outlasted the disturbance by 4 minutes (74 of 105 without), and
// 156 of 200 converged and confirmed (128 without); the undisturbed ones moved by 0-4 of 200.
const farBelowShare = 0.15

// boundTrials counts the unthrottled trials run.
func (s *search) boundTrials() int {
	n := 0
	for _, t := range s.trials {
		if t.Phase == PhaseBound {
			n++
		}
	}
	return n
}

// A search opens with the unthrottled trial twice, and again while it climbs by more than
// openingClimb over the best before it, up to maxOpeningBounds: a cluster just started or
// long idle speeds up under load for a while (its JIT compiling the hot paths; on two
// cores the compiler competes with the load). Measured here on a 3-broker embedded cluster
// that `kbench cluster up` had warmed for 15 s, 5 s unthrottled runs in a row reached
// 17,270, 28,180, 36,124, 59,577 and 53,392 records/s; a search that took the first as its
// bound spent 17 trials below the cluster's edge before a later rule measured it again.
// Later, one more unthrottled trial is run when a paced trial passes beyond the bound.
const (
	maxOpeningBounds = 5
	openingClimb     = 0.10
)

// climbing says whether the opening should measure the unthrottled rate again: after the
// first, always; then while the last climbed by more than openingClimb (patience 1: a
// later rule measures again if the opening stopped short).
func (s *search) climbing() bool {
	var rates []float64
	for _, t := range s.trials {
		if t.Phase == PhaseBound {
			rates = append(rates, t.Achieved)
		}
	}
	return stats.Warming(rates, openingClimb, 1)
}

// finalStarted says whether a full-length trial (final or confirmation) has run.
func (s *search) finalStarted() bool {
	for _, t := range s.trials {
		if t.Phase == PhaseFinal || t.Phase == PhaseConfirm {
			return true
		}
	}
	return false
}

// expansion is the factor of the next step beyond the bound b of SLO i: (1+precision)^2
// for the first, squared for each earlier step of the same expansion that held, at most
// four times. A step is a full-length trial at a rate beyond every rate tried before it
// (above, going up; below, going down) that passed (failed, going down); any other
// full-length trial ends the expansion, so a search that bisected starts over with small
// steps (MLRsearch widens its step only while the steps keep holding).
func (s *search) expansion(i int, b float64, up bool) float64 {
	held := 0
	var lowest, highest float64
	for _, t := range s.trials {
		if t.Phase != PhaseFinal || t.setAside() {
			continue
		}
		beyond := (up && t.Offered > highest) || (!up && (lowest == 0 || t.Offered < lowest))
		if beyond && t.Pass[i] == up {
			held++
		} else {
			held = 0
		}
		if lowest == 0 || t.Offered < lowest {
			lowest = t.Offered
		}
		highest = max(highest, t.Offered)
	}
	step := (1 + s.cfg.Precision) * (1 + s.cfg.Precision)
	for range min(max(held-1, 0), 4) {
		step *= step
	}
	return step
}

// coarsePower sets where the coarse phase stops: at a bracket within coarseWidth,
// (1+precision)^coarsePower, 1.22 at the default precision. The coarse bracket only points
// the full-length trials: they classify its rates again and bisect it to the precision, so
// each coarse step below that width is a trial the final phase repeats. On the embedded
// clusters the 10 s edge often lay off the full-length one (18 searches of three bench
// runs: the answer's lower end lay inside the (1+precision)^2 coarse bracket in 8; in the
// others from 1.16 to 1.55 times below its lower end, or 1.10 to 1.33 times above it). In
// the simulation (TestSearchUnderNoise, 40 s trials, 1,000 searches), with inside and
// narrow: a median of 10 trials rather than 11 (90th percentile 12 rather than 13), 989
// converged and confirmed rather than 983, within 1 % of the capacity in 968 rather than
// 963.
const coarsePower = 4

// coarseWidth is the width at which the coarse phase hands over to full-length trials.
func coarseWidth(precision float64) float64 { return math.Pow(1+precision, coarsePower) }

// inside is the next full-length rate in [lo, hi] while no full-length trial has made a
// lower bound, where und are the undecided rates: the one nearest the middle, or the
// middle itself when the bracket is wider than (1+precision)^2 and none lies within a step
// of it (und then holds the coarse bracket's ends): a trial at the middle halves the
// bracket whatever it shows, where one at an end may only repeat what the coarse trial
// there said. Once a full-length lower bound stands, the undecided rate above it is tried
// itself: recorded on a disturbed 3-broker cluster, a coarse failure at 55,041 records/s
// (p99 58.5 ms) passed at 40 s (20.5 ms), and the middle below it, tried first, was a trial
// the search then went past. In the simulation the two ways are alike (40 s trials:
// median 10 trials either way, 989 and 995 of 1,000 converged and confirmed).
func inside(und []float64, lo, hi, precision float64) float64 {
	r := nearestMiddle(und, lo, hi)
	step := 1 + precision
	mid := roundRate(math.Sqrt(lo * hi))
	if lo > 0 && hi/lo > step*step && math.Abs(math.Log(r/mid)) > math.Log(step) && mid > lo && mid < hi {
		return mid
	}
	return r
}

// narrow says whether [lo, hi] is at most width wide, give or take a record/s: every rate
// is rounded to whole records/s, so the middle of a bracket (1+precision)^2 wide can lie a
// fraction of a record/s more than 1+precision above its lower end, and one more trial for
// that fraction tells nothing (recorded: 61,013-64,064 records/s, 1.0500057 wide, cost a
// trial at 62,520). The record/s counts only while it is at most a hundredth of the width
// asked (from about 2,000 records/s at 5 %): at 20 records/s it would be a width of its own.
func narrow(lo, hi, width float64) bool { return hi <= lo*width+min(1, lo*(width-1)/100) }

// within returns the rates of rs in [lo, hi].
func within(rs []float64, lo, hi float64) []float64 {
	var out []float64
	for _, r := range rs {
		if r >= lo && r <= hi {
			out = append(out, r)
		}
	}
	return out
}

// nearestMiddle is the rate of rs nearest the middle of [lo, hi] in log-rate, the one
// whose classification narrows the bracket most.
func nearestMiddle(rs []float64, lo, hi float64) float64 {
	mid := math.Sqrt(lo * hi)
	best := rs[0]
	for _, r := range rs[1:] {
		// The ends of a bracket are equally far from its middle: the lower is tried first.
		if d, bd := math.Abs(math.Log(r/mid)), math.Abs(math.Log(best/mid)); d < bd-1e-9 || (d < bd+1e-9 && r < best) {
			best = r
		}
	}
	return best
}

// lastConfirmation is the confirmation of the first lower bound not yet confirmed, run
// when the budget has room for it and nothing else.
func (s *search) lastConfirmation() (rate float64, d time.Duration, phase Phase, ok bool) {
	for i, slo := range s.cfg.SLOs {
		fin := s.bounds(s.cfg.goal(slo), i, PhaseFinal)
		if fin.lower > 0 && s.confirmation(i, fin.lower) != LowerBound {
			return fin.lower, s.cfg.Confirm, PhaseConfirm, true
		}
	}
	return 0, 0, "", false
}

// ceilingShare is how far up a search goes, as a share of the unthrottled rate: at that
// rate itself the producers' buffer fills by definition.
const ceilingShare = 0.9

// coarseStep is where the first paced trial goes, as a share of the unthrottled rate, and
// the factor of each step down while every paced trial failed. Recorded in the searches of
// the embedded 1- and 3-broker clusters on this 2-core host, the first paced trial, then at
// 0.9 of the unthrottled rate A, failed in 44 of 45, and the lower ends of all 49 lay at
// 0.13-0.86 A (median 0.54): that trial told the search almost nothing. From 0.68 A a pass leaves
// [0.68 A, A], and a failure then a pass at 0.68^2 = 0.46 A leaves [0.46 A, 0.68 A]: either
// is 1/0.68 = 1.47 wide, within one bisection of the coarse goal at the default precision
// (1.47^(1/2) = 1.21 <= 1.05^4; two of the (1+precision)^2 goal before coarseWidth), where
// from [0.45 A, 0.9 A] it took three and the trial at 0.9 A one more.
const coarseStep = 0.68

// farCeiling is how far below 0.9 of the unthrottled rate a lower bound must be for the
// search to bisect towards it instead of expanding: the unthrottled rate is usually within
// 2x of what the SLO allows (recorded: 149,088 against about 83,000), so from half of it
// or less a bisection is the shorter way.
const farCeiling = 1.5

// roundRate rounds to a whole record/s, at least 1.
func roundRate(r float64) float64 { return max(1, math.Round(r)) }
