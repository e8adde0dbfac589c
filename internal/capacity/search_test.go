package capacity

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/metrics"
)

// model is a cluster with a knee: at rate r below its capacity c, due-time p99 is
// base/(1 - r/c) (an M/M/1 queue's shape), p99.9 twice that; at c and above (and
// unthrottled) latency is 10 s, the buffer-bound regime, and the achieved rate is c.
// noise multiplies trial n's latency by noise[(n-1) % len], and slow[n] trial n's;
// hiccup[n] makes trial n's latency 10 s whatever its rate.
type model struct {
	c float64
	// unthrottled, when set, is what the first unthrottled trials achieve, one each (a cold
	// start); later ones achieve c.
	unthrottled []float64
	base        time.Duration
	noise       []float64
	slow        map[int]float64
	hiccup      map[int]bool
	calls       []call
}

type call struct {
	rate float64
	d    time.Duration
}

func (m *model) run(_ context.Context, rate float64, d time.Duration) (Outcome, error) {
	m.calls = append(m.calls, call{rate, d})
	n := len(m.calls)
	achieved := m.c
	if rate == 0 {
		if k := m.unthrottledTrials() - 1; k < len(m.unthrottled) {
			achieved = m.unthrottled[k]
		}
	}
	p99 := 10 * time.Second
	if rate > 0 && rate < m.c {
		achieved = rate
		p99 = time.Duration(float64(m.base) / (1 - rate/m.c))
	}
	if len(m.noise) > 0 {
		p99 = time.Duration(float64(p99) * m.noise[(n-1)%len(m.noise)])
	}
	if f, ok := m.slow[n]; ok {
		p99 = time.Duration(float64(p99) * f)
	}
	if m.hiccup[n] {
		p99 = 10 * time.Second
	}
	return outcome(achieved, d, m.base/2, p99), nil
}

// outcome is a trial that acknowledged achieved records/s for d with 10,000 latencies:
// 9,800 at p50, 185 at p99, 15 at 2*p99, so that the 99th percentile (the 9,900th sample)
// is p99, the 99.9th (the 9,990th) is 2*p99, and a limit between p99 and 2*p99 has 0.15 %
// of the records late.
func outcome(achieved float64, d, p50, p99 time.Duration) Outcome {
	h := metrics.NewHistogram()
	for range 9800 {
		h.Record(p50)
	}
	for range 185 {
		h.Record(p99)
	}
	for range 15 {
		h.Record(2 * p99)
	}
	acked := int64(achieved * d.Seconds())
	return Outcome{Achieved: achieved, Acked: acked, Bytes: 1024 * acked, Sent: acked, Latency: h}
}

// unthrottledTrials counts the unthrottled trials run so far, the current one included.
func (m *model) unthrottledTrials() int {
	n := 0
	for _, c := range m.calls {
		if c.rate == 0 {
			n++
		}
	}
	return n
}

func (m *model) rates() []float64 {
	var r []float64
	for _, c := range m.calls {
		r = append(r, c.rate)
	}
	return r
}

// p99At50 is the search most tests run: p99 <= 50 ms, 20 s final trials, the defaults.
func p99At50() Config {
	return Config{SLOs: []SLO{{99, 50 * time.Millisecond}}, Trial: 20 * time.Second, ExceedRatio: DefaultExceedRatio}
}

func TestSearchFollowsTheBisectionByHand(t *testing.T) {
	// Capacity 50,000/s, base 6 ms: p99 = 50 ms at 6/(1 - r/50000) = 50, r = 44,000. The
	// goal is 20f40d1l50e on the final trials: one that passes makes a lower bound (20 s of
	// 40 s low-loss is within the 50 % exceed ratio whatever the missing 20 s show); an upper
	// bound needs more than 20 s high-loss: two that fail.
	m := &model{c: 50000, base: 6 * time.Millisecond}
	res, err := Search(context.Background(), p99At50(), m.run)
	if err != nil {
		t.Fatal(err)
	}
	// 1, 2: unthrottled, achieves 50,000 twice: not climbing.                (bound, 5 s)
	// 3: 0.68 * 50,000 = 34,000: 6/(1-0.68) = 18.8 ms passes.  coarse [34000, -], bounded
	//    by the unthrottled rate: [34000, 50000], ratio 1.471
	// 4: sqrt(34000*50000) = 41231: 34.2 ms passes.    ratio 1.2127 <= 1.05^4 = 1.2155
	// 5: the bracket's top is still the unthrottled rate: 50000 paced fails (at capacity).
	//    [41231, 50000]: the coarse phase is done.
	// 6: the final goal has no trial yet; its undecided rates are the bracket's ends, each
	//    1.101 from its middle, more than a step: the middle, sqrt(41231*50000) = 45404, at
	//    20 s fails (65.3 ms): one trial (20 s high-loss of the 40 s sum) is not yet more
	//    than half, so it is undecided; it bounds the bisection provisionally.
	// 7: [41231, 45404] is within 1.05^2: 41231 at 20 s passes, a lower bound.
	// 8: sqrt(41231*45404) = 43267 at 20 s: 44.6 ms passes.     [43267, 45404] 1.0494
	// 9: the bracket has narrowed to 45404: re-tested, it fails again: an upper bound.
	// 10: 43267 confirmed: 60 s, passes.
	want := []float64{0, 0, 34000, 41231, 50000, 45404, 41231, 43267, 45404, 43267}
	if got := m.rates(); !slices.Equal(got, want) {
		t.Fatalf("rates tried %v, want %v", got, want)
	}
	wantD := []time.Duration{5, 5, 5, 5, 5, 20, 20, 20, 20, 60} // seconds
	wantPhase := []Phase{PhaseBound, PhaseBound, PhaseCoarse, PhaseCoarse, PhaseCoarse,
		PhaseFinal, PhaseFinal, PhaseFinal, PhaseFinal, PhaseConfirm}
	for i, c := range m.calls {
		if c.d != wantD[i]*time.Second || res.Trials[i].Phase != wantPhase[i] {
			t.Errorf("trial %d: %v %s, want %vs %s", i+1, c.d, res.Trials[i].Phase, wantD[i], wantPhase[i])
		}
	}
	b := res.Brackets[0]
	if b.Lower != 43267 || b.Upper != 45404 || !b.Converged || !b.Confirmed || b.Note != "" || !res.Done() {
		t.Errorf("bracket %v-%v converged %v confirmed %v (%s), want 43267-45404 converged and confirmed", b.Lower, b.Upper, b.Converged, b.Confirmed, b.Note)
	}
	if b.Goal.Code() != "20f40d1l50e" {
		t.Errorf("goal %s, want 20f40d1l50e", b.Goal.Code())
	}
	// 43,267 records/s of 1,024 bytes = 43267/1024 MiB/s = 42.253 MiB/s.
	if b.LowerMiB < 42.25 || b.LowerMiB > 42.26 {
		t.Errorf("lower end %v MiB/s, want 42.253", b.LowerMiB)
	}
	// The trials at 43,267 (no noise): p99 6/(1-0.86534) = 44.56 ms; p50 base/2 = 3 ms; 0.15 %
	// of the records late (the 15 at 89.1 ms), so the conditional throughput is 43267 * 0.9985.
	if b.AtLowerP99 < 44500*time.Microsecond || b.AtLowerP99 > 44600*time.Microsecond || b.AtLowerP50 != 3001*time.Microsecond {
		t.Errorf("at lower end p50 %v p99 %v, want 3.0 ms and 44.6 ms", b.AtLowerP50, b.AtLowerP99)
	}
	if want := 43267 * 0.9985; b.ConditionalThroughput < want-0.01 || b.ConditionalThroughput > want+0.01 {
		t.Errorf("conditional throughput %v, want %v", b.ConditionalThroughput, want)
	}
	// 65.27 ms in the model reads 65.3 from the histogram; 200 of 10,000 records are late: 2 %.
	if tr := res.Trials[5]; tr.Pass[0] || tr.Reasons[0][0] != "p99 65.3 ms > 50.0 ms" || tr.LossRatio[0] != 0.02 {
		t.Errorf("trial 6 reasons %q loss %v, want the p99 named and 2%% lost", tr.Reasons[0], tr.LossRatio[0])
	}
}

// TestSearchOpensUntilTheBoundStopsClimbing: the unthrottled trials of a cluster warming
// up, as recorded on a 3-broker embedded cluster (5 s each, in a row): the search measures
// again while the rate climbs by more than 10 %, up to five, and bounds itself by the best.
func TestSearchOpensUntilTheBoundStopsClimbing(t *testing.T) {
	for _, tt := range []struct {
		name        string
		unthrottled []float64
		opening     int
		max         float64
	}{
		// 28,180 > 1.1 x 17,270; 36,124 > 1.1 x 28,180; 59,577 > 1.1 x 36,124: a fifth,
		// the last the opening runs.
		{"recorded climb", []float64{17270, 28180, 36124, 59577, 53392}, 5, 59577},
		// 52,000 is within 10 % of 50,000: the climb is over.
		{"warm", []float64{50000, 52000}, 2, 52000},
		// 20,000, then the cluster's 60,000 (climbing), 60,000 again: done at three.
		{"one cold trial", []float64{20000}, 3, 60000},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := &model{c: 60000, base: 6 * time.Millisecond, unthrottled: tt.unthrottled}
			res, err := Search(context.Background(), p99At50(), m.run)
			if err != nil {
				t.Fatal(err)
			}
			opening := 0
			for opening < len(res.Trials) && res.Trials[opening].Phase == PhaseBound {
				opening++
			}
			if opening != tt.opening || res.Trials[opening].Offered != roundRate(0.68*tt.max) {
				t.Errorf("opened with %d unthrottled trials, then %v records/s; want %d, then 0.68 x %v", opening, res.Trials[opening].Offered, tt.opening, tt.max)
			}
		})
	}
}

// TestSearchRecoversFromAColdBound: the opening's unthrottled trials both reach a fifth of
// what the cluster carries (recorded: 8,629 records/s on a new topic where paced trials
// later held 30,445). A paced trial that passes at that rate has it measured again, rather
// than the search doubling its way up from there; and a rate that fails once bounds the
// bisection at once rather than being tried again first (each step down from an overshoot
// would otherwise cost two trials).
func TestSearchRecoversFromAColdBound(t *testing.T) {
	m := &model{c: 50000, base: 6 * time.Millisecond, unthrottled: []float64{10000, 10000}}
	res, err := Search(context.Background(), p99At50(), m.run)
	if err != nil {
		t.Fatal(err)
	}
	// p99 = 6/(1 - r/50000) ms; 50 ms at 44,000.
	// 1, 2: unthrottled: 10,000 twice (cold, not climbing).          (bound)
	// 3, 4: 0.68 * 10000 = 6800, sqrt(6800*10000) = 8246: both pass (6.9-7.2 ms);
	// [8246, 10000] is within 1.05^4, so 5 tries 10000 itself: passes (7.5 ms).
	// 6: a paced trial passed at the unthrottled rate: measured again, 50,000.
	// 7-9: bisect [10000, 50000]: 22361, 33437, 40888 pass (10.9, 18.1, 32.9 ms).
	// 10: [40888, 50000] is 1.223 wide: sqrt(40888*50000) = 45215 fails (62.7 ms): coarse
	// done at [40888, 45215], 1.106 wide: more than 1.05^2.
	// 11: both ends lie 1.052 from the middle, more than a step: the middle, 42997, at 20 s
	// passes (42.8 ms); 12: 45215 at 20 s fails once: undecided, the bisection's top.
	// 13: sqrt(42997*45215) = 44092 fails (50.8 ms): the new top, 2.5 % above 42997;
	// 14: 44092 again fails: an upper bound. 15: 42997 confirmed.
	want := []float64{0, 0, 6800, 8246, 10000, 0, 22361, 33437, 40888, 45215, 42997, 45215, 44092, 44092, 42997}
	if got := m.rates(); !slices.Equal(got, want) {
		t.Fatalf("rates tried %v, want %v", got, want)
	}
	if b := res.Brackets[0]; b.Lower != 42997 || b.Upper != 44092 || !res.Done() {
		t.Errorf("bracket %v-%v done %v, want 42997-44092 converged and confirmed", b.Lower, b.Upper, res.Done())
	}
}

// TestSearchBisectsTowardsAWarmBound: as above, but the coarse trial at the cold bound
// stalls, so the coarse phase ends below it and full-length trials pass at it (recorded: a
// first unthrottled trial of 26,633 records/s, 20 s trials passing at 26,633, 149,088 once
// measured again). Far below 0.9 of the new bound, the search bisects towards it instead of
// creeping up in small steps.
func TestSearchBisectsTowardsAWarmBound(t *testing.T) {
	m := &model{c: 50000, base: 6 * time.Millisecond, unthrottled: []float64{10000, 10000}, hiccup: map[int]bool{5: true}}
	res, err := Search(context.Background(), p99At50(), m.run)
	if err != nil {
		t.Fatal(err)
	}
	// 1, 2: 10,000 twice (cold). 3, 4: 6800 and 8246 pass; [8246, 10000] is within 1.05^4,
	// so 5 tries 10000 itself, and stalls: the coarse bracket is [8246, 10000]. 6: its ends
	// lie 1.101 from the middle: 9081 at 20 s passes; 7: 10000 at 20 s passes: a lower
	// bound above 0.9 of the unthrottled rate, so 8 measures it again: 50,000, and 0.9 of
	// it, 45,000, is 4.5x the lower end. 9: sqrt(10000*45000) = 21213 passes; 10:
	// sqrt(21213*45000) = 30896 passes; 45000 is now 1.46x away, under 1.5x: the expansion
	// (four steps held in a row: 1.1025^8) reaches past it, so 11 tries 45000 itself: 60 ms
	// fails once, the bisection's top. 12-14: 37287, 40962, 42934 pass (23.7, 33.0, 42.5
	// ms); 45000 is 4.8% above: 15 re-tests it, fails: an upper bound. 16 confirms 42934.
	want := []float64{0, 0, 6800, 8246, 10000, 9081, 10000, 0, 21213, 30896, 45000, 37287, 40962, 42934, 45000, 42934}
	if got := m.rates(); !slices.Equal(got, want) {
		t.Fatalf("rates tried %v, want %v", got, want)
	}
	if b := res.Brackets[0]; b.Lower != 42934 || b.Upper != 45000 || !res.Done() {
		t.Errorf("bracket %v-%v done %v, want 42934-45000 converged and confirmed", b.Lower, b.Upper, res.Done())
	}
}

// byHand are the rates of TestSearchFollowsTheBisectionByHand up to its 7th trial.
var byHand = []float64{0, 0, 34000, 41231, 50000, 45404, 41231}

func TestSearchHiccups(t *testing.T) {
	tests := []struct {
		name    string
		hiccups []int
		slow    map[int]float64
		after   []float64
		lower   float64
		upper   float64
		note    string
		stalled int // the trial set aside as stalled, if any
	}{
		// Trial 8 (43267 at 20 s) is slow by half (66.8 ms): 20 s high-loss of the 40 s sum is neither more
		// than half (an upper bound) nor, with 20 s missing, surely within it: undecided,
		// and the lowest failed rate. [41231, 43267] is within 5 %: 9 re-tests it and
		// passes (20 s of each: a lower bound); 10 re-tests 45404 (fails: an upper bound);
		// 11 confirms 43267.
		{name: "undecided re-tested", slow: map[int]float64{8: 1.5}, after: []float64{43267, 43267, 45404, 43267}, lower: 43267, upper: 45404},
		// The confirmation (10) is slow by half: p99 44.6 * 1.5 = 66.8 ms, a failure by a
		// little, which makes 43267 an upper bound; [41231, 43267] is 4.9 % wide and 41231
		// has a final pass: 11 confirms it (34.2 ms).
		{name: "one failed confirmation", slow: map[int]float64{10: 1.5}, after: []float64{43267, 45404, 43267, 41231}, lower: 41231, upper: 43267,
			note: "confirmation failed at 43,267 records/s"},
		// Both confirmations fail by a little (66.8 and 51.3 ms): 43267 and 41231 are upper
		// bounds. Since the first failed, full-length trials run 60 s, each a confirmation.
		// Below 41231 only the coarse 34000 passed; [34000, 41231] is 21 % wide and 34000
		// 1.101 from its middle, so 12 bisects at sqrt(34000 * 41231) = 37441 (23.9 ms:
		// confirmed) and 13 at sqrt(37441 * 41231) = 39290 (28.0 ms), which passes 4.9 %
		// below 41231: confirmed by its own trial, with no 20 s trial before it.
		{name: "two failed confirmations", slow: map[int]float64{10: 1.5, 11: 1.5}, after: []float64{43267, 45404, 43267, 41231, 37441, 39290},
			lower: 39290, upper: 41231, note: "confirmation failed at 41,231, 43,267 records/s"},
		// The confirmation (10) stalls: 10 s, where 43267 held 44.6 ms for 20 s and 45404
		// failed at 65.3 ms: a stall, not the rate. It is set aside, and 11 confirms 43267.
		{name: "a stalled confirmation", hiccups: []int{10}, after: []float64{43267, 45404, 43267, 43267}, lower: 43267, upper: 45404, stalled: 10},
		// A second stall at the same rate decides: 43267 fails its confirmation, and 12
		// confirms 41231.
		{name: "two stalled confirmations", hiccups: []int{10, 11}, after: []float64{43267, 45404, 43267, 43267, 41231}, lower: 41231, upper: 43267,
			note: "confirmation failed at 43,267 records/s", stalled: 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &model{c: 50000, base: 6 * time.Millisecond, hiccup: map[int]bool{}, slow: tt.slow}
			for _, n := range tt.hiccups {
				m.hiccup[n] = true
			}
			res, err := Search(context.Background(), p99At50(), m.run)
			if err != nil {
				t.Fatal(err)
			}
			want := append(append([]float64{}, byHand...), tt.after...)
			if got := m.rates(); !slices.Equal(got, want) {
				t.Fatalf("rates tried %v, want %v", got, want)
			}
			// Every trial after the first failed confirmation is a confirmation's length.
			failedAt := 0
			for _, tr := range res.Trials {
				if failedAt > 0 && tr.N > failedAt && (tr.Duration != DefaultConfirm || tr.Phase != PhaseConfirm) {
					t.Errorf("trial %d after the failed confirmation %d: %s, %v, want a confirmation of %v", tr.N, failedAt, tr.Phase, tr.Duration, DefaultConfirm)
				}
				if failedAt == 0 && tr.Phase == PhaseConfirm && !tr.Pass[0] {
					failedAt = tr.N
				}
			}
			b := res.Brackets[0]
			if b.Lower != tt.lower || b.Upper != tt.upper || !b.Converged || !b.Confirmed || b.Note != tt.note {
				t.Errorf("bracket %v-%v converged %v confirmed %v (%q), want %v-%v both (%q)", b.Lower, b.Upper, b.Converged, b.Confirmed, b.Note, tt.lower, tt.upper, tt.note)
			}
			for _, tr := range res.Trials {
				if tr.Stalled != (tr.N == tt.stalled) {
					t.Errorf("trial %d stalled %v, want %v", tr.N, tr.Stalled, tr.N == tt.stalled)
				}
			}
		})
	}
}

func TestSearchWithNoiseAndTwoSLOs(t *testing.T) {
	// p99 <= 50 ms holds up to 45,000/s (above); p99.9 = 2*p99 <= 40 ms means p99 <= 20 ms:
	// 5/(1 - r/50000) <= 20, r <= 37,500. Latency noise of +-3 % moves the p99 boundary to
	// 50000*(1 - 0.1*1.03) = 44,850 .. 50000*(1 - 0.1*0.97) = 45,150, and the p99.9 one to
	// 50000*(1 - 0.25*1.03) = 37,125 .. 50000*(1 - 0.25*0.97) = 37,875.
	m := &model{c: 50000, base: 5 * time.Millisecond, noise: []float64{1.03, 0.97, 1.01, 0.99, 1.02}}
	cfg := p99At50()
	cfg.SLOs = append(cfg.SLOs, SLO{99.9, 40 * time.Millisecond})
	res, err := Search(context.Background(), cfg, m.run)
	if err != nil {
		t.Fatal(err)
	}
	for i, knee := range [][2]float64{{44850, 45150}, {37125, 37875}} {
		b := res.Brackets[i]
		if !b.Converged || !b.Confirmed || b.Upper/b.Lower > 1.05 || b.Lower > knee[1] || b.Upper < knee[0] {
			t.Errorf("%s: bracket %v-%v (converged %v, confirmed %v: %s), want within 5%% around %v", b.SLO, b.Lower, b.Upper, b.Converged, b.Confirmed, b.Note, knee)
		}
	}
	// Two SLOs share the trials: one opening (two unthrottled trials) bounds both.
	if res.Trials[0].Phase != PhaseBound || res.Trials[1].Phase != PhaseBound || res.Trials[2].Phase == PhaseBound {
		t.Errorf("trials 1 to 3 are %s, %s and %s, want two bound trials", res.Trials[0].Phase, res.Trials[1].Phase, res.Trials[2].Phase)
	}
}

func TestSearchBudget(t *testing.T) {
	// A budget of 60 s with a 2 s warm-up: the two unthrottled 5 s trials (7 s each) and the
	// three coarse 5 s trials by hand (7 s each): 35 s. The first final trial (22 s) and the
	// confirmation after it (62 s) do not fit: stop with the coarse bracket [41231, 50000],
	// not converged, not confirmed, and the budget named.
	m := &model{c: 50000, base: 6 * time.Millisecond}
	cfg := p99At50()
	cfg.MaxDuration, cfg.Warmup = 60*time.Second, 2*time.Second
	res, err := Search(context.Background(), cfg, m.run)
	if err != nil {
		t.Fatal(err)
	}
	b := res.Brackets[0]
	if len(res.Trials) != 5 || res.Spent != 35*time.Second || res.Done() || b.Converged || b.Confirmed {
		t.Fatalf("%d trials in %v, converged %v confirmed %v: want 5 in 35s, neither", len(res.Trials), res.Spent, b.Converged, b.Confirmed)
	}
	if b.Lower != 41231 || b.Upper != 50000 || !strings.Contains(res.Stopped, "budget of 1m0s ended after 5 trials") ||
		!strings.Contains(b.Note, "short trials only") || !strings.Contains(b.Note, "not confirmed") {
		t.Errorf("bracket %v-%v, stopped %q, note %q: want a coarse bracket and why", b.Lower, b.Upper, res.Stopped, b.Note)
	}
}

func TestSearchEdges(t *testing.T) {
	tests := []struct {
		name     string
		m        *model
		slo      SLO
		wantNote string
		budget   time.Duration
	}{
		// Even the base latency (5 ms/(1-r/c) >= 5 ms) misses 1 ms: every rate fails down
		// to the minimum, 1 record/s, in short trials (2 s, a final trial's quarter being
		// under MinShort), which the final goal leaves undecided.
		{"nothing passes", &model{c: 1000, base: 5 * time.Millisecond}, SLO{99, time.Millisecond},
			"upper end from short trials only; no rate passed p99 <= 1 ms; undecided at 1 records/s", 0},
		// The budget holds the two unthrottled trials and one rate (2+1 s warm-up each, 9 s):
		// 680, 20/(1-0.68) = 62.5 ms, fails.
		{"stopped", &model{c: 1000, base: 20 * time.Millisecond}, SLO{99, 50 * time.Millisecond},
			"upper end from short trials only; no rate passed p99 <= 50 ms; undecided at 680 records/s", 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{SLOs: []SLO{tt.slo}, Trial: 4 * time.Second, Confirm: 4 * time.Second, MaxDuration: tt.budget,
				Warmup: time.Second, ExceedRatio: DefaultExceedRatio}
			res, err := Search(context.Background(), cfg, tt.m.run)
			if err != nil {
				t.Fatal(err)
			}
			if b := res.Brackets[0]; b.Converged || b.Note != tt.wantNote {
				t.Errorf("bracket %+v, want not converged: %q", b, tt.wantNote)
			}
		})
	}
}

func TestSearchRefusesBadConfig(t *testing.T) {
	m := &model{c: 1000, base: time.Millisecond}
	slo := []SLO{{99, time.Millisecond}}
	for _, cfg := range []Config{
		{},
		{SLOs: slo, Precision: 1.5},
		{SLOs: slo, Trial: time.Second, Short: 2 * time.Second},
		{SLOs: slo, ExceedRatio: 1},
		{SLOs: slo, Trial: 20 * time.Second, DurationSum: 10 * time.Second},
		{SLOs: slo, Trial: 20 * time.Second, Confirm: 10 * time.Second},
	} {
		if _, err := Search(context.Background(), cfg, m.run); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
	if len(m.calls) != 0 {
		t.Errorf("%d trials ran for bad configs", len(m.calls))
	}
}

// TestSearchRetriesAFailureFarAboveItsLowerBound: a lower bound at 30,000 records/s and
// one failed 20 s trial at 33,000 (undecided, so it bounds the bisection provisionally).
// With the lower bound's p99 at most 0.15 of the 50 ms limit (7.5 ms), the failure is
// tried again at once; above that the search bisects towards it, at sqrt(30000*33000) =
// 31,464.
func TestSearchRetriesAFailureFarAboveItsLowerBound(t *testing.T) {
	for _, tt := range []struct {
		lowerP99 time.Duration
		next     float64
	}{
		{3 * time.Millisecond, 33000},
		{7300 * time.Microsecond, 33000},
		{7800 * time.Microsecond, 31464},
		{30 * time.Millisecond, 31464},
	} {
		cfg := p99At50().withDefaults()
		s := &search{cfg: cfg, loads: map[float64]*rateEvidence{}, max: 100000, opening: 2}
		s.record(30000, cfg.Trial, PhaseFinal, Settle{}, outcome(30000, cfg.Trial, time.Millisecond, tt.lowerP99))
		s.record(33000, cfg.Trial, PhaseFinal, Settle{}, outcome(33000, cfg.Trial, time.Millisecond, 10*time.Second))
		rate, d, phase, ok := s.next()
		if !ok || rate != tt.next || d != cfg.Trial || phase != PhaseFinal {
			t.Errorf("lower bound's p99 %v: next %v %v %s (%v), want %v at %v, final", tt.lowerP99, rate, d, phase, ok, tt.next, cfg.Trial)
		}
	}
}

// TestSearchRetriesAnUpperEndAfterAFarBelowPass: with 40 s trials one failure decides an
// upper bound. 43,097 records/s failed (trial 1), 41,045 passed (2) and its confirmation
// ran (3): [41,045, 43,097] is within 5 %. When a trial at the lower end after the
// upper end's last passed at 7.5 ms or less (0.15 of the 50 ms limit), 43,097 is tried once
// more; a second failure ends the search there, a pass makes it the lower bound (one
// failure and one pass of 40 s: 40 s high-loss of 80 s is within the 50 % exceed ratio)
// and the search goes on above it. With 20 s trials two failures decided 43,097, and a pass
// would leave 40 s high-loss of 60 s: no retry.
func TestSearchRetriesAnUpperEndAfterAFarBelowPass(t *testing.T) {
	const lower, upper = 41045, 43097
	fail, pass := 10*time.Second, 5*time.Millisecond
	for _, tt := range []struct {
		name       string
		trial      time.Duration
		finalP99   time.Duration // the lower end's 40 s (20 s) trial
		confirmP99 time.Duration
		after      []time.Duration // p99 of further trials at the upper end, after the confirmation
		next       float64         // 0: the search is done
	}{
		{"confirmation far below", 40 * time.Second, 24 * time.Millisecond, 5500 * time.Microsecond, nil, upper},
		{"just under the threshold", 40 * time.Second, 24 * time.Millisecond, 7300 * time.Microsecond, nil, upper},
		{"confirmation near the limit", 40 * time.Second, 24 * time.Millisecond, 24 * time.Millisecond, nil, 0},
		{"just over the threshold", 40 * time.Second, 24 * time.Millisecond, 7800 * time.Microsecond, nil, 0},
		{"retried and failed again", 40 * time.Second, 24 * time.Millisecond, 5500 * time.Microsecond, []time.Duration{fail}, 0},
		{"retried and passed", 40 * time.Second, 24 * time.Millisecond, 5500 * time.Microsecond, []time.Duration{pass}, -1},
		{"20 s trials", 20 * time.Second, 24 * time.Millisecond, 5500 * time.Microsecond, nil, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{SLOs: []SLO{{99, 50 * time.Millisecond}}, Trial: tt.trial, ExceedRatio: DefaultExceedRatio}.withDefaults()
			s := &search{cfg: cfg, loads: map[float64]*rateEvidence{}, max: 100000, opening: 2}
			add := func(rate float64, d time.Duration, phase Phase, p99 time.Duration) {
				s.record(rate, d, phase, Settle{}, outcome(rate, d, time.Millisecond, p99))
			}
			add(upper, cfg.Trial, PhaseFinal, fail)
			if tt.trial < 40*time.Second {
				add(upper, cfg.Trial, PhaseFinal, fail) // 40 s high-loss: an upper bound
			}
			add(lower, cfg.Trial, PhaseFinal, tt.finalP99)
			add(lower, cfg.Confirm, PhaseConfirm, tt.confirmP99)
			for _, p99 := range tt.after {
				add(upper, cfg.Trial, PhaseFinal, p99)
			}
			rate, d, phase, ok := s.next()
			switch {
			case tt.next == 0 && ok:
				t.Errorf("next %v %v %s, want the search done", rate, d, phase)
			case tt.next > 0 && (!ok || rate != tt.next || d != cfg.Trial || phase != PhaseFinal):
				t.Errorf("next %v %v %s (%v), want %v at %v, final", rate, d, phase, ok, tt.next, cfg.Trial)
			case tt.next < 0 && (!ok || rate <= upper):
				t.Errorf("next %v (%v), want a rate above %v, now the lower bound", rate, ok, upper)
			}
			// Were the budget to end here, the bracket says what the retry would have
			// checked, and is not converged.
			if tt.next == upper {
				b := s.result().Brackets[0]
				if b.Converged || !strings.Contains(b.Note, "upper end 43,097 records/s failed once") {
					t.Errorf("bracket converged %v, note %q: want not converged, the upper end in doubt", b.Converged, b.Note)
				}
			}
			if tt.next == 0 {
				if b := s.result().Brackets[0]; strings.Contains(b.Note, "failed once") {
					t.Errorf("note %q: the upper end is not in doubt", b.Note)
				}
			}
		})
	}
}

// TestSearchCostsTheLongestSettleAfterAFailure: a trial's expected cost is its warm-up
// (2 s), its length (20 s) and the settle before it: the last one (1 s) after a trial that
// passed, the longest so far (21 s) after one that failed or ran unthrottled.
func TestSearchCostsTheLongestSettleAfterAFailure(t *testing.T) {
	cfg := p99At50().withDefaults()
	cfg.Warmup = 2 * time.Second
	for _, tt := range []struct {
		name string
		rate float64
		p99  time.Duration
		want time.Duration
	}{
		{"after a pass", 30000, 10 * time.Millisecond, 23 * time.Second},
		{"after a failure", 30000, time.Second, 43 * time.Second},
		{"after an unthrottled trial", 0, time.Second, 43 * time.Second},
	} {
		s := &search{cfg: cfg, loads: map[float64]*rateEvidence{}, lastSettle: time.Second, longestSettle: 21 * time.Second}
		s.record(tt.rate, cfg.Trial, PhaseFinal, Settle{}, outcome(30000, cfg.Trial, time.Millisecond, tt.p99))
		if got := s.cost(cfg.Trial); got != tt.want {
			t.Errorf("%s: cost %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSearchSetsAsideDisturbedFailures: a lower bound at 30,000 records/s, nothing above
// it yet, the unthrottled bound 100,000: the search bisects towards 0.9 of the bound, at
// sqrt(30000 * 90000) = 51,962. A failure there while the hypervisor took 2% or more of the
// host is set aside and the same rate is tried again; a failure under 2%, a pass at any
// steal, or a failure once MaxDisturbed trials were set aside counts (one failure leaves
// 51,962 undecided, bounding the bisection below it: next sqrt(30000 * 51962) = 39,482; a
// pass makes it the lower bound, and the search bisects on towards 90,000: 68,386).
func TestSearchSetsAsideDisturbedFailures(t *testing.T) {
	for _, tt := range []struct {
		name      string
		p99       time.Duration
		steal     float64
		read      bool
		before    int // trials already set aside
		disturbed bool
		next      float64
	}{
		{"failed, 9% stolen", time.Second, 9, true, 0, true, 51962},
		{"failed, 2% stolen", time.Second, 2, true, 0, true, 51962},
		{"failed, 1.9% stolen", time.Second, 1.9, true, 0, false, 39482},
		{"failed, steal not read", time.Second, 9, false, 0, false, 39482},
		{"passed, 9% stolen", 10 * time.Millisecond, 9, true, 0, false, 68386},
		{"failed, 9% stolen, the last set aside", time.Second, 9, true, MaxDisturbed - 1, true, 51962},
		{"failed, 9% stolen, none left to set aside", time.Second, 9, true, MaxDisturbed, false, 39482},
	} {
		cfg := p99At50().withDefaults()
		s := &search{cfg: cfg, loads: map[float64]*rateEvidence{}, max: 100000, opening: 2, disturbed: tt.before}
		s.record(30000, cfg.Trial, PhaseFinal, Settle{}, outcome(30000, cfg.Trial, time.Millisecond, 20*time.Millisecond))
		if rate, _, _, _ := s.next(); rate != 51962 {
			t.Fatalf("%s: first step to %v, want 51962", tt.name, rate)
		}
		o := outcome(51962, cfg.Trial, time.Millisecond, tt.p99)
		o.HostStealPct, o.HostStealRead = tt.steal, tt.read
		s.record(51962, cfg.Trial, PhaseFinal, Settle{}, o)
		tr := s.trials[1]
		if tr.Disturbed != tt.disturbed || (s.loads[51962] == nil) != tt.disturbed {
			t.Errorf("%s: disturbed %v, evidence at 51962 %v; want disturbed %v", tt.name, tr.Disturbed, s.loads[51962] != nil, tt.disturbed)
		}
		if rate, _, _, _ := s.next(); rate != tt.next {
			t.Errorf("%s: next %v, want %v", tt.name, rate, tt.next)
		}
	}
}

// TestOverlapByHand: the overlap runs from the lowest full-length or confirmation trial that
// failed to the highest that passed, when the first is not above the second; coarse trials
// and trials set aside as disturbed do not count.
func TestOverlapByHand(t *testing.T) {
	tr := func(phase Phase, rate float64, pass bool) Trial {
		return Trial{Phase: phase, Offered: rate, Pass: []bool{pass}}
	}
	disturbed := tr(PhaseConfirm, 50000, false)
	disturbed.Disturbed = true
	for _, tt := range []struct {
		name   string
		trials []Trial
		want   [2]float64
	}{
		{"every failure above every pass", []Trial{tr(PhaseFinal, 60000, true), tr(PhaseFinal, 66000, false), tr(PhaseConfirm, 60000, true)}, [2]float64{}},
		// A search of the embedded 3-broker cluster: 20 s trials passed up to 85,813, 60 s
		// ones failed from 72,160 down to it.
		{"confirmations failed under final passes", []Trial{tr(PhaseFinal, 69101, true), tr(PhaseFinal, 85813, true), tr(PhaseFinal, 89612, false),
			tr(PhaseConfirm, 85813, false), tr(PhaseConfirm, 72160, false), tr(PhaseConfirm, 69101, true)}, [2]float64{72160, 85813}},
		{"one rate both ways", []Trial{tr(PhaseFinal, 60000, false), tr(PhaseFinal, 60000, true)}, [2]float64{60000, 60000}},
		{"coarse and disturbed trials left out", []Trial{tr(PhaseCoarse, 40000, false), disturbed, tr(PhaseFinal, 60000, true), tr(PhaseFinal, 63000, false)}, [2]float64{}},
	} {
		s := &search{trials: tt.trials}
		if got := s.overlap(0); got != tt.want {
			t.Errorf("%s: overlap %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestNarrow(t *testing.T) {
	for _, tt := range []struct {
		lo, hi, width float64
		want          bool
	}{
		// The recorded case: 61,013 * 1.05 = 64,063.65, so 64,064 is 0.35 records/s over.
		{61013, 64064, 1.05, true},
		{61013, 64065, 1.05, false},
		{40000, 42000, 1.05, true},
		{40000, 42001, 1.05, true},
		{40000, 42002, 1.05, false},
		// The coarse width: 1.05^4 = 1.21550625; 41,231 * 1.21550625 = 50,116.5.
		{41231, 50000, 1.21550625, true},
		{41231, 50118, 1.21550625, false},
		// Low rates: the record/s would be 5 % of 20 (20 * 0.05 / 100 = 0.01 counts instead).
		{20, 21, 1.05, true},
		{20, 22, 1.05, false},
		{100, 105.05, 1.05, true},
		{100, 105.1, 1.05, false},
	} {
		if got := narrow(tt.lo, tt.hi, tt.width); got != tt.want {
			t.Errorf("narrow(%v, %v, %v) = %v, want %v", tt.lo, tt.hi, tt.width, got, tt.want)
		}
	}
}
