package capacity

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// noisyCluster is a synthetic cluster of known capacity whose trials are noisy the way the
// embedded 3-broker cluster's are on a busy 2-core host. Recorded there (kbench capacity,
// 1 KiB records, p99 <= 50 ms): p99 16 ms at 77,670 records/s, 39-76 ms at 81,109 and
// 73-151 ms at 84,700 in 20 s trials; the unthrottled first trial reached 54,921 records/s
// while paced trials sustained 77,670. So: p99 is limit*(r/knee)^slope near the knee (the
// slope drawn from 15 to 30; 26 recorded), never under base; a lognormal factor of sigma 0.35
// for a 20 s window (growing as the window shortens); saturation 10 % above the knee, where
// latency is 10 s; the unthrottled trial reaching the rate where the producers' buffer
// fills, 1/0.85 to 1/0.35 of the knee (recorded in 49 searches of the embedded clusters:
// lower ends at 0.13-0.86 of the best unthrottled rate, median 0.54), the first one only
// 60-100 % of that (a cold start); a slow start (a cold JVM: latency up to 3x in the first
// slowFor); stalls (2 % of trials have 10 s latency:
// a GC pause, a segment roll); short trials that flatter (a 5 s trial's latency times 0.6:
// recorded, 5 s trials passed at 163,025 and 125,709 records/s where 20 s trials failed with
// p99 3.7 s and 193 ms, having missed the segment rolls and write-back those paid); and debt:
// a trial at or above saturation leaves the cluster slow (latency times debtFactor) for
// debtFor after it, unless the search waits that out.
// With rollEvery set, the cluster also has segment rolls: a trial of d contains one with
// probability d/rollEvery (at most 1), and a trial that does has its latency times
// rollFactor. Measured on a 1-broker embedded cluster at 40,000 records/s of 1 KiB: a 1 GiB
// segment rolled every 25-26 s, each roll's flush of the old segment stalled the producer
// 90-244 ms (1 s windows' max latency), and between rolls the windows' max was 3-20 ms; so
// a 20 s trial may miss the roll that every 60 s one pays, and the capacity a long run
// sustains is the knee with a roll in every trial (rollKnee).
// It keeps its own clock: trials, their warm-ups and settle probes advance it.
type noisyCluster struct {
	rng                *rand.Rand
	knee, slope, c     float64
	limit, base        time.Duration
	sigma, stall, cold float64
	slowFor, debtFor   time.Duration
	debtFactor         float64
	shortFlatters      float64
	rollEvery          time.Duration
	rollFactor         float64
	// unthrottled is the rate the unthrottled trial reaches once warm; bounds counts the
	// unthrottled trials run.
	unthrottled float64
	bounds      int
	// With stallEvery set, the cluster also stalls every stallEvery, from stallPhase on: the
	// page cache's write-back of what is 30 s old, a segment roll's flush. Records due in a
	// stall wait it out, then the backlog drains at the headroom left, so one stall makes
	// stallLate / (1 - rate/saturation) seconds of records late (stallLate is the stall's
	// length less the limit). Measured on a 3-broker embedded cluster at 62,000 records/s of
	// 1 KiB: the 1 s windows' max latency was 115-142 ms at the write-back (33-36 s into the
	// run), 305 and 535 ms at the segment rolls (53-54 s), 64 ms or less in 35 of the other 49
	// windows. So a 20 s trial holds one stall or none by when it starts, a 60 s one one or
	// two, and the capacity a long run sustains is where the stalls alone make the loss
	// ratio late (stallKnee): there, 60 s trials failed up to a fifth under rates that
	// 20 s trials passed.
	stallEvery, stallPhase, stallLate time.Duration
	warmup                            time.Duration
	now, debtTo                       time.Duration
	// From disturbedFrom for disturbedFor the cluster has disturbedShare of its capacity
	// (knee and saturation): the host's neighbours took its CPU (measured: 19 % of the
	// host's time stolen, a 1-broker cluster failing at a third of the rate it passed
	// before and after).
	disturbedFrom, disturbedFor time.Duration
	disturbedShare              float64
	// stealSeen, when set, has each trial read the host's steal: stealWhileDisturbed
	// percent during the disturbance, 0.3 otherwise.
	stealSeen           bool
	stealWhileDisturbed float64
}

// rollKnee is the rate whose median trial with a segment roll in it has p99 at the limit:
// the capacity when every confirmation holds a roll.
func (n *noisyCluster) rollKnee() float64 {
	if n.rollEvery == 0 {
		return n.knee
	}
	return n.knee / math.Pow(n.rollFactor, 1/n.slope)
}

// stallKnee is the rate at which the stalls alone make a long run's loss ratio the SLO's
// (1 %): stallLate / ((1 - r/c) stallEvery) = 0.01; the knee when that is above it.
func (n *noisyCluster) stallKnee() float64 {
	if n.stallEvery == 0 {
		return n.rollKnee()
	}
	return min(n.rollKnee(), n.c*(1-n.stallLate.Seconds()/(0.01*n.stallEvery.Seconds())))
}

// stalls counts the stalls in the trial window [from, to).
func (n *noisyCluster) stalls(from, to time.Duration) int {
	at := func(t time.Duration) float64 {
		return math.Floor(float64(t-n.stallPhase) / float64(n.stallEvery))
	}
	return int(at(to) - at(from))
}

// newNoisyCluster is the cluster of a seed: its knee between 20,000 and 80,000 records/s,
// drawn from the seed, so that the true capacity falls anywhere against the search's rates.
func newNoisyCluster(seed uint64) *noisyCluster {
	rng := rand.New(rand.NewPCG(seed, 0x6b62656e6368))
	knee := 20000 + 60000*rng.Float64()
	return &noisyCluster{rng: rng, knee: knee, slope: 15 + 15*rng.Float64(), c: 1.1 * knee,
		limit: 50 * time.Millisecond, base: 3 * time.Millisecond, sigma: 0.35, stall: 0.02, cold: 0.6 + 0.4*rng.Float64(),
		slowFor: time.Minute, debtFor: 20 * time.Second, debtFactor: 4, shortFlatters: 0.6, warmup: 2 * time.Second,
		unthrottled: knee / (0.35 + 0.5*rng.Float64())}
}

// slowdown is the latency factor of the state at the model's clock: slow start and debt.
func (n *noisyCluster) slowdown() float64 {
	f := 1.0
	if n.now < n.slowFor {
		f *= 1 + 2*float64(n.slowFor-n.now)/float64(n.slowFor)
	}
	if n.now < n.debtTo {
		f *= n.debtFactor
	}
	return f
}

// share is the capacity the cluster has at its clock's time: all of it but while disturbed.
func (n *noisyCluster) share() float64 {
	if n.disturbedFor > 0 && n.now >= n.disturbedFrom && n.now < n.disturbedFrom+n.disturbedFor {
		return n.disturbedShare
	}
	return 1
}

func (n *noisyCluster) run(_ context.Context, rate float64, d time.Duration) (Outcome, error) {
	f := n.slowdown()
	share := n.share()
	knee, c := n.knee*share, n.c*share
	n.now += n.warmup + d
	achieved, p99 := c, 10*time.Second
	switch {
	case rate == 0:
		achieved = n.unthrottled * share
		if n.bounds == 0 {
			achieved *= n.cold
		}
		n.bounds++
		n.debtTo = n.now + n.debtFor
	case rate < c:
		achieved = rate
		window := math.Sqrt(float64(20*time.Second) / float64(d))
		noise := math.Exp(n.sigma * window * n.rng.NormFloat64())
		if d < 20*time.Second {
			noise *= n.shortFlatters
		}
		if n.rollEvery > 0 && n.rng.Float64() < float64(d)/float64(n.rollEvery) {
			noise *= n.rollFactor
		}
		p99 = max(n.base, time.Duration(f*noise*float64(n.limit)*math.Pow(rate/knee, n.slope)))
	default:
		n.debtTo = n.now + n.debtFor
	}
	if n.rng.Float64() < n.stall {
		p99 = 10 * time.Second
	}
	o := outcome(achieved, d, n.base/2, p99)
	if n.stallEvery > 0 && rate > 0 && rate < c {
		late := float64(n.stalls(n.now-d, n.now)) * n.stallLate.Seconds() / ((1 - rate/c) * d.Seconds())
		late = min(late, 0.99)
		// The late records, as a share of all, at four times the limit.
		for range int(math.Round(float64(o.Latency.Count()) * late / (1 - late))) {
			o.Latency.Record(4 * n.limit)
		}
	}
	o.Elapsed = n.warmup + d
	if n.stealSeen {
		o.HostStealRead, o.HostStealPct = true, 0.3
		if share < 1 {
			o.HostStealPct = n.stealWhileDisturbed
		}
	}
	return o, nil
}

// probe is the settle probe: 1 s, its median the base's half times the slowdown.
func (n *noisyCluster) probe(context.Context) (Probe, error) {
	p50 := time.Duration(n.slowdown() * float64(n.base/2))
	n.now += time.Second
	return Probe{P50: p50, Elapsed: time.Second, Acked: 200}, nil
}

// TestSearchUnderNoise runs 1,000 searches a set, each on its own seeded noisy cluster, with the
// CLI's defaults but for 20 s final trials (20f40d1l50e: the simulation's stalls fall at
// random in a trial, so it cannot show why the clusters want 40 s), at two noise levels:
// the recorded one (sigma 0.35 for a 20 s window) and a quieter host's (0.2). It counts how often the answer holds the true
// capacity (the knee, where the median trial's p99 is the limit): the relevant bracket
// [Lower, Upper], and the range the trials are consistent with (Bracket.Consistent, wider
// where rates near the answer gave mixed results). The rules it checks, at the stated
// rates: every search ends within its budget with an answer; at least 95 % of them
// converged and confirmed; the consistent range holds the capacity in at least 95 % of the
// quieter searches and 90 % of the recorded-noise ones; and the bracket is not optimistic
// beyond the consistent range's misses. A fourth set is disturbed: once in each search the
// cluster loses one to two thirds of its capacity for 1 to 3 minutes (the host's
// neighbours, as measured here). What a search measured while disturbed it cannot tell
// from the cluster, so those are held only to end within the budget, with a lower end in
// all but 0.5 % (a disturbance can cover a search's last minutes), and
// those whose disturbance ended at least 4 minutes before them to find the capacity again
// (within 1 %) in at least 85 %. A fifth set is the fourth with the host's steal read in
// each trial (2.3-18.9 % while disturbed, as recorded, 0.3 % otherwise), so that the search
// sets aside the failures it caused: at least 85 % of all its searches within 1 %. A sixth
// set stalls every 30 to 60 s, as measured on the embedded cluster (noisyCluster.stallEvery),
// so that a long run sustains 75 to 95 % of what a trial without a stall passes: held only to
// the budget, its figures say how far the search is from that cluster's answer. The last
// two sets are the second and the sixth with the CLI's 40 s final trials: the quiet one is
// held to 95 % within 1 % and 90 % converged and confirmed. It prints the figures (the
// closing numbers of docs/capacity.md come from here), and how many searches ended
// converged and confirmed yet missed the capacity by more than 1 %: a sure answer, wrong.
// A set has 1,000 searches, not 200: a search that holds the capacity in 96.8 % (the
// recorded-noise sets here) falls under 190 of 200 in one draw of 17, so a change that only
// reshuffles the seeds' noise could fail a 200-search set; under 950 of 1,000 in one of
// 1,000.
func TestSearchUnderNoise(t *testing.T) {
	// nearMiss is the resolution a 20 s trial has in rate at the recorded noise: sigma over
	// the knee's slope, 0.35/30 to 0.35/15 (1.2 % to 2.3 %). A capacity that close to an end
	// is decided by a coin flip whatever the trial count (the misses of the quiet sets are
	// mostly of this kind: within 1 to 3 % of an end), so the bracket is also judged with it.
	const nearMiss = 0.01
	// minRecovered is the fewest searches a disturbed set must have that outlasted their
	// disturbance by 4 minutes, for their 85 % to be read (a shorter search outlasts fewer).
	const minRecovered = 100
	const searches = 1000
	for _, tt := range []struct {
		sigma      float64
		rolls      bool
		disturbed  bool
		stealSeen  bool
		stalls     bool
		consistent int // at least, of 1,000
		// trial is the final trial when not 20 s; done, when set, the converged and
		// confirmed searches asked for instead of 95 %.
		trial time.Duration
		done  int
	}{
		{sigma: 0.2, consistent: 950},
		{sigma: 0.35, consistent: 900},
		{sigma: 0.35, rolls: true, consistent: 900},
		{sigma: 0.35, disturbed: true},
		{sigma: 0.35, disturbed: true, stealSeen: true},
		{sigma: 0.35, stalls: true},
		// The CLI's default, 40f40d1l50e: a 40 s trial's noise is smaller (sigma over the
		// square root of its length), but one decides a rate and each costs twice as much of
		// the budget, so fewer searches converge within it.
		{sigma: 0.35, consistent: 875, trial: 40 * time.Second, done: 900},
		{sigma: 0.35, stalls: true, trial: 40 * time.Second},
	} {
		// doneMissed counts the searches that ended converged and confirmed with the
		// capacity more than nearMiss outside their bracket: an answer stated as sure and wrong.
		var bracket, near, consistent, done, doneMissed, recovered, nearRecovered, optimistic, noLower int
		// overlaps count the searches whose trials disagreed over more than the bracket
		// (Bracket.Overlap, as the answer line states it), and of
		// those, the ones whose bracket missed the capacity by more than nearMiss and whose
		// overlap held it within nearMiss: how often the stated noise covers a wrong answer.
		var overlaps, overlapMissed, missedCovered, missed int
		var trials, minutes []float64
		for seed := range uint64(searches) {
			n := newNoisyCluster(seed)
			n.sigma = tt.sigma
			if tt.rolls {
				// A roll every 10 to 50 s at the knee (so every 60 s trial holds one),
				// costing the trial that holds it 1.5 to 3 times the latency.
				n.rollEvery = time.Duration((10 + 40*n.rng.Float64()) * float64(time.Second))
				n.rollFactor = 1.5 + 1.5*n.rng.Float64()
			}
			if tt.disturbed {
				// Once in the search, for 1 to 3 minutes from its second to its fifth,
				// the cluster has a third to two thirds of its capacity.
				n.disturbedFrom = time.Duration((1 + 3*n.rng.Float64()) * float64(time.Minute))
				n.disturbedFor = time.Duration((1 + 2*n.rng.Float64()) * float64(time.Minute))
				n.disturbedShare = 1.0/3 + n.rng.Float64()/3
				// The steal recorded during such spells: 2.3 to 18.9 %.
				n.stealSeen, n.stealWhileDisturbed = tt.stealSeen, 2.3+16.6*n.rng.Float64()
			}
			if tt.stalls {
				// A stall every 30 to 60 s, long enough that a long run sustains 75 to 95 %
				// of the knee.
				n.stallEvery = time.Duration((30 + 30*n.rng.Float64()) * float64(time.Second))
				n.stallPhase = time.Duration(n.rng.Float64() * float64(n.stallEvery))
				share := 0.75 + 0.2*n.rng.Float64()
				n.stallLate = time.Duration(0.01 * float64(n.stallEvery) * (1 - share*n.knee/n.c))
			}
			truth := n.stallKnee()
			cfg := p99At50()
			if tt.trial > 0 {
				cfg.Trial = tt.trial
			}
			// The baseline is measured on the idle cluster, cold, as the CLI does.
			base, _, _ := MeasureBaseline(context.Background(), n.probe, 3)
			cfg.Warmup, cfg.Settle = n.warmup, (&Settler{Probe: n.probe, Baseline: base}).Settle
			res, err := Search(context.Background(), cfg, n.run)
			if err != nil {
				t.Fatal(err)
			}
			b := res.Brackets[0]
			if b.Lower <= truth && truth <= b.Upper {
				bracket++
			}
			isNear := b.Lower*(1-nearMiss) <= truth && truth <= b.Upper*(1+nearMiss)
			if b.Lower*(1-nearMiss) > truth {
				optimistic++
			}
			if isNear {
				near++
			}
			if tt.disturbed && res.Spent-(n.disturbedFrom+n.disturbedFor) >= 4*time.Minute {
				recovered++
				if isNear {
					nearRecovered++
				}
			}
			if !isNear {
				missed++
			}
			if o := b.Overlap; o[0] > 0 && b.Lower > 0 && b.Upper > 0 && o[1]/o[0] > b.Upper/b.Lower {
				overlaps++
				if !isNear {
					overlapMissed++
				}
				if !isNear && o[0]*(1-nearMiss) <= truth && truth <= o[1]*(1+nearMiss) {
					missedCovered++
				}
			}
			if c := b.Consistent; c[0] <= truth && (c[1] == 0 || truth <= c[1]) {
				consistent++
			}
			if res.Done() {
				done++
				if !isNear {
					doneMissed++
				}
			}
			if b.Lower == 0 {
				noLower++
			}
			if res.Spent > DefaultMaxDuration || (b.Lower == 0 && !tt.stalls && !tt.disturbed) {
				t.Errorf("sigma %v, seed %d: spent %v of %v, bracket %v-%v", tt.sigma, seed, res.Spent, DefaultMaxDuration, b.Lower, b.Upper)
			}
			trials = append(trials, float64(len(res.Trials)))
			minutes = append(minutes, res.Spent.Minutes())
		}
		slices.Sort(trials)
		slices.Sort(minutes)
		t.Logf("sigma %v, rolls %v, disturbed %v, steal seen %v, stalls %v, trial %v: the bracket holds the capacity in %d of %d searches, within %.0f%% in %d, the consistent range in %d; %d converged and confirmed (%d of them missing it by more than %.0f%%); trials median %v, 90th %v, max %v; minutes median %.1f, 90th %.1f, max %.1f",
			tt.sigma, tt.rolls, tt.disturbed, tt.stealSeen, tt.stalls, cmp.Or(tt.trial, p99At50().Trial), bracket, searches, 100*nearMiss, near, consistent, done, doneMissed, 100*nearMiss, trials[searches/2], trials[searches*9/10], trials[searches-1],
			minutes[searches/2], minutes[searches*9/10], minutes[searches-1])
		t.Logf("overlap: the trials disagreed over more than the bracket in %d of %d searches, %d of them missing the capacity by more than %.0f%%; of the %d that missed it, the overlap held it in %d",
			overlaps, searches, overlapMissed, 100*nearMiss, missed, missedCovered)
		if tt.stalls {
			// Not met, and recorded as such: trials pass or fail by whether they held a
			// stall, so no trial length up to a minute reads the long run's loss ratio
			// (docs/capacity.md gives the figures of other goals on this set).
			t.Logf("stalls: the lower end above the capacity by more than %.0f%% in %d of %d; no lower end in %d", 100*nearMiss, optimistic, searches, noLower)
			continue
		}
		if tt.disturbed {
			t.Logf("disturbed: %d searches outlasted their disturbance by 4 minutes or more; the bracket holds the capacity within %.0f%% in %d of them", recovered, 100*nearMiss, nearRecovered)
			if nearRecovered < recovered*85/100 || recovered < minRecovered {
				t.Errorf("disturbed: within %.0f%% in %d of %d searches that outlasted their disturbance, want at least 85%% of at least %d", 100*nearMiss, nearRecovered, recovered, minRecovered)
			}
			if noLower > searches/200 {
				t.Errorf("disturbed: no lower end in %d of %d searches, want at most 0.5%%", noLower, searches)
			}
			// Where the trials read the steal, the failures it caused are set aside, so
			// most searches find the capacity whenever the disturbance came.
			if tt.stealSeen && near < searches*85/100 {
				t.Errorf("disturbed, steal seen: within %.0f%% in %d of %d searches, want at least 85%%", 100*nearMiss, near, searches)
			}
			continue
		}
		if near < searches*95/100 {
			t.Errorf("sigma %v: the bracket holds the capacity within %.0f%% in %d of %d searches, want at least 95%%", tt.sigma, 100*nearMiss, near, searches)
		}
		if consistent < tt.consistent {
			t.Errorf("sigma %v: the consistent range holds the capacity in %d of %d searches, want at least %d", tt.sigma, consistent, searches, tt.consistent)
		}
		if want := cmp.Or(tt.done, searches*95/100); done < want {
			t.Errorf("sigma %v: %d of %d searches converged and confirmed, want at least %d", tt.sigma, done, searches, want)
		}
	}
}

// TestClassificationIgnoresThePrecedingTrial: a rate 5 % under capacity, run right after
// an unthrottled trial and right after a light one, passes both times when the search
// settles first; without settling, the unthrottled trial's debt fails it. (No noise: the
// debt alone decides.)
func TestClassificationIgnoresThePrecedingTrial(t *testing.T) {
	rate := 0.95 * 45000.0
	for _, tt := range []struct {
		name   string
		before float64
		settle bool
		pass   bool
	}{
		{"after unthrottled, settled", 0, true, true},
		{"after light, settled", 10000, true, true},
		{"after light, not settled", 10000, false, true},
		{"after unthrottled, not settled", 0, false, false},
	} {
		n := newNoisyCluster(1)
		n.knee, n.slope, n.c, n.sigma, n.stall, n.slowFor = 45000, 20, 49500, 0, 0, 0
		cfg := p99At50().withDefaults()
		cfg.Warmup = n.warmup
		if tt.settle {
			cfg.Settle = (&Settler{Probe: n.probe, Baseline: n.base / 2}).Settle
		}
		s := &search{cfg: cfg, loads: map[float64]*rateEvidence{}}
		ctx := context.Background()
		if err := s.trial(ctx, n.run, tt.before, cfg.Short, PhaseBound); err != nil {
			t.Fatal(err)
		}
		if err := s.trial(ctx, n.run, rate, cfg.Trial, PhaseFinal); err != nil {
			t.Fatal(err)
		}
		tr := s.trials[1]
		if tr.Pass[0] != tt.pass || (s.class(cfg.goal(cfg.SLOs[0]), 0, rate, PhaseFinal) == LowerBound) != tt.pass {
			t.Errorf("%s: pass %v (p99 %v), want %v", tt.name, tr.Pass[0], tr.P99, tt.pass)
		}
		if tt.settle && tt.before == 0 && (!tr.Settle.Settled || tr.Settle.Waited < n.debtFor) {
			t.Errorf("%s: settle %+v, want it to wait out the %v of debt", tt.name, tr.Settle, n.debtFor)
		}
	}
}
