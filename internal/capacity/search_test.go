package capacity

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/kbench/kbench/internal/metrics"
)

// model is a cluster with a knee: at rate r below its capacity c, due-time p99 is
// base/(1 - r/c) (an M/M/1 queue's shape), p99.9 twice that; at c and above (and
// unthrottled) latency is 10 s, the buffer-bound regime, and the achieved rate is c.
// noise multiplies trial n's latency by noise[(n-1) % len]; hiccup[n] makes trial n's
// latency 10 s whatever its rate.
type model struct {
	c      float64
	base   time.Duration
	noise  []float64
	hiccup map[int]bool
	calls  []call
}

type call struct {
	rate float64
	d    time.Duration
}

func (m *model) run(_ context.Context, rate float64, d time.Duration) (Outcome, error) {
	m.calls = append(m.calls, call{rate, d})
	n := len(m.calls)
	achieved := m.c
	p99 := 10 * time.Second
	if rate > 0 && rate < m.c {
		achieved = rate
		p99 = time.Duration(float64(m.base) / (1 - rate/m.c))
	}
	if len(m.noise) > 0 {
		p99 = time.Duration(float64(p99) * m.noise[(n-1)%len(m.noise)])
	}
	if m.hiccup[n] {
		p99 = 10 * time.Second
	}
	// 10,000 samples: 9,800 at base/2, 185 at p99, 15 at 2*p99, so that the 99th
	// percentile (the 9,900th sample) is p99 and the 99.9th (the 9,990th) is 2*p99.
	h := metrics.NewHistogram()
	for range 9800 {
		h.Record(m.base / 2)
	}
	for range 185 {
		h.Record(p99)
	}
	for range 15 {
		h.Record(2 * p99)
	}
	acked := int64(achieved * d.Seconds())
	return Outcome{Achieved: achieved, Acked: acked, Bytes: 1024 * acked, Sent: acked, Latency: h}, nil
}

func (m *model) rates() []float64 {
	var r []float64
	for _, c := range m.calls {
		r = append(r, c.rate)
	}
	return r
}

func TestSearchFollowsTheBisectionByHand(t *testing.T) {
	// Capacity 50,000/s, base 5 ms: p99 = 50 ms at 5/(1 - r/50000) = 50, r = 45,000.
	m := &model{c: 50000, base: 5 * time.Millisecond}
	cfg := Config{SLOs: []SLO{{99, 50 * time.Millisecond}}, Trial: 20 * time.Second}
	res, err := Search(context.Background(), cfg, m.run)
	if err != nil {
		t.Fatal(err)
	}
	// 1: unthrottled, achieves 50,000.
	// 2: 50,000: at capacity, 10 s: fails.      bracket [-, 50000]
	// 3: 50,000/2 = 25,000: p99 5/(1-0.5) = 10 ms passes.        [25000, 50000], ratio 2
	// 4: sqrt(25000*50000) = 35355.3 -> 35355: 17.1 ms passes.   ratio 1.414
	// 5: sqrt(35355*50000) = 42044.6 -> 42045: 31.4 ms passes.   ratio 1.189 (> 1.05^2: short)
	// 6: sqrt(42045*50000) = 45850.3 -> 45850: 60.2 ms fails.    ratio 45850/42045 = 1.0905
	// 7: sqrt(42045*45850) = 43906.3 -> 43906, full (1.0905 <= 1.1025): 41.0 ms passes.
	//    ratio 45850/43906 = 1.0443 <= 1.05: the ends are confirmed at full length;
	// 8: 43906 has 1 full-length trial of the 2 a lower end needs: again at 20 s, passes;
	// 9: 45850 had a 5 s trial only: re-tested at 20 s, fails.
	want := []float64{0, 50000, 25000, 35355, 42045, 45850, 43906, 43906, 45850}
	if got := m.rates(); !slices.Equal(got, want) {
		t.Fatalf("rates tried %v, want %v", got, want)
	}
	wantD := []time.Duration{5, 5, 5, 5, 5, 5, 20, 20, 20} // seconds: Trial/4 while wide
	for i, c := range m.calls {
		if c.d != wantD[i]*time.Second {
			t.Errorf("trial %d lasted %v, want %vs", i+1, c.d, wantD[i])
		}
	}
	b := res.Brackets[0]
	if b.Lower != 43906 || b.Upper != 45850 || !b.Converged {
		t.Errorf("bracket %v-%v converged %v (%s), want 43906-45850 converged", b.Lower, b.Upper, b.Converged, b.Note)
	}
	// 43,906 records/s of 1,024 bytes = 43906/1024 MiB/s = 42.877 MiB/s.
	if b.LowerMiB < 42.87 || b.LowerMiB > 42.88 {
		t.Errorf("lower end %v MiB/s, want 42.877", b.LowerMiB)
	}
	// The two trials at 43,906 (the model has no noise): p99 41.0 ms; p50 base/2 = 2.5 ms.
	if b.AtLowerP99Ms < 40.9 || b.AtLowerP99Ms > 41.1 || b.AtLowerP50Ms < 2.49 || b.AtLowerP50Ms > 2.51 {
		t.Errorf("at lower end p50 %v p99 %v ms, want 2.5 and 41.0", b.AtLowerP50Ms, b.AtLowerP99Ms)
	}
	// 60.24 ms in the model reads 60.3 from the histogram: 3 significant digits, and a
	// quantile is its bucket's highest value.
	if res.Trials[5].Pass[0] || res.Trials[5].Reasons[0][0] != "p99 60.3 ms > 50.0 ms" {
		t.Errorf("trial 6 reasons %q, want the p99 named", res.Trials[5].Reasons[0])
	}
}

func TestSearchOverturnsAHiccupByReTesting(t *testing.T) {
	// Trial 5 (42,045/s, short) hiccups to 10 s: 42,045 becomes the upper bound and the
	// bisection continues below it:
	// 6: sqrt(35355*42045) = 38555: 21.8 ms passes; ratio 42045/38555 = 1.0905 -> full
	// 7: sqrt(38555*42045) = 40262: 25.7 ms passes; ratio 1.0443 <= 1.05: confirm the ends
	// 8: 40262 again at 20 s (a lower end needs 2 full-length trials): passes
	// 9: 42045 at 20 s passes: 5 s failed of 25 s, no majority, and no full-length trial
	//    failed: it passes now, and the bracket is [42045, 50000] again
	// 10: 45850 short fails; 11: 43906 full passes; 12: 43906 again, passes; 13: 45850
	// re-tested full fails.
	m := &model{c: 50000, base: 5 * time.Millisecond, hiccup: map[int]bool{5: true}}
	cfg := Config{SLOs: []SLO{{99, 50 * time.Millisecond}}, Trial: 20 * time.Second}
	res, err := Search(context.Background(), cfg, m.run)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 50000, 25000, 35355, 42045, 38555, 40262, 40262, 42045, 45850, 43906, 43906, 45850}
	if got := m.rates(); !slices.Equal(got, want) {
		t.Fatalf("rates tried %v, want %v", got, want)
	}
	if b := res.Brackets[0]; b.Lower != 43906 || b.Upper != 45850 || !b.Converged {
		t.Errorf("bracket %v-%v converged %v, want 43906-45850", b.Lower, b.Upper, b.Converged)
	}
}

func TestSearchDemotesALowerEndThatFailsItsConfirmation(t *testing.T) {
	// As the bisection by hand up to trial 7 (43906 full, passes); trial 8, 43906's
	// confirming full-length trial, hiccups: 43906 now has 2 full-length trials, one
	// failed, so it is an upper bound. The bracket is [42045, 43906], 4.4% wide, but 42045
	// had a 5 s trial only: 9 and 10 confirm it at 20 s (both pass); 43906 has its full
	// trials already. Result [42045, 43906]: lower than without the hiccup, never a rate
	// that failed a full-length trial.
	m := &model{c: 50000, base: 5 * time.Millisecond, hiccup: map[int]bool{8: true}}
	cfg := Config{SLOs: []SLO{{99, 50 * time.Millisecond}}, Trial: 20 * time.Second}
	res, err := Search(context.Background(), cfg, m.run)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0, 50000, 25000, 35355, 42045, 45850, 43906, 43906, 42045, 42045}
	if got := m.rates(); !slices.Equal(got, want) {
		t.Fatalf("rates tried %v, want %v", got, want)
	}
	if b := res.Brackets[0]; b.Lower != 42045 || b.Upper != 43906 || !b.Converged {
		t.Errorf("bracket %v-%v converged %v (%s), want 42045-43906 converged", b.Lower, b.Upper, b.Converged, b.Note)
	}
}

func TestSearchWithNoiseAndTwoSLOs(t *testing.T) {
	// p99 <= 50 ms holds up to 45,000/s (above); p99.9 = 2*p99 <= 40 ms means p99 <= 20 ms:
	// 5/(1 - r/50000) <= 20, r <= 37,500. Latency noise of +-3 % moves the p99 boundary to
	// 50000*(1 - 0.1*1.03) = 44,850 .. 50000*(1 - 0.1*0.97) = 45,150, and the p99.9 one to
	// 50000*(1 - 0.25*1.03) = 37,125 .. 50000*(1 - 0.25*0.97) = 37,875.
	m := &model{c: 50000, base: 5 * time.Millisecond, noise: []float64{1.03, 0.97, 1.01, 0.99, 1.02}}
	cfg := Config{SLOs: []SLO{{99, 50 * time.Millisecond}, {99.9, 40 * time.Millisecond}}, Trial: 20 * time.Second}
	res, err := Search(context.Background(), cfg, m.run)
	if err != nil {
		t.Fatal(err)
	}
	for i, knee := range [][2]float64{{44850, 45150}, {37125, 37875}} {
		b := res.Brackets[i]
		if !b.Converged || b.Upper/b.Lower > 1.05 || b.Lower > knee[1] || b.Upper < knee[0] {
			t.Errorf("%s: bracket %v-%v (converged %v), want within 5%% around %v", b.SLO, b.Lower, b.Upper, b.Converged, knee)
		}
	}
	// Two SLOs share the unthrottled trial and the first ones: fewer than two searches.
	if n := len(m.calls); n > 16 {
		t.Errorf("%d trials for two SLOs, want at most 16", n)
	}
}

func TestSearchEdges(t *testing.T) {
	tests := []struct {
		name      string
		m         *model
		slo       SLO
		wantNote  string
		maxTrials int
	}{
		// Even the base latency (5 ms/(1-r/c) >= 5 ms) misses 1 ms: every rate fails down
		// to the minimum, 1 record/s.
		{"nothing passes", &model{c: 1000, base: 5 * time.Millisecond}, SLO{99, time.Millisecond}, "no rate passed p99 <= 1 ms", 40},
		// Stopped early: two trials are the unthrottled one and one rate.
		{"stopped", &model{c: 1000, base: 5 * time.Millisecond}, SLO{99, 50 * time.Millisecond}, "no rate passed p99 <= 50 ms", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{SLOs: []SLO{tt.slo}, Trial: 4 * time.Second, MaxTrials: tt.maxTrials}
			res, err := Search(context.Background(), cfg, tt.m.run)
			if err != nil {
				t.Fatal(err)
			}
			if b := res.Brackets[0]; b.Converged || b.Note != tt.wantNote {
				t.Errorf("bracket %+v, want not converged: %q", b, tt.wantNote)
			}
			if len(res.Trials) > tt.maxTrials {
				t.Errorf("%d trials, at most %d allowed", len(res.Trials), tt.maxTrials)
			}
		})
	}
}

func TestSearchRefusesBadConfig(t *testing.T) {
	m := &model{c: 1000, base: time.Millisecond}
	for _, cfg := range []Config{
		{},
		{SLOs: []SLO{{99, time.Millisecond}}, Precision: 1.5},
		{SLOs: []SLO{{99, time.Millisecond}}, Trial: time.Second, Short: 2 * time.Second},
	} {
		if _, err := Search(context.Background(), cfg, m.run); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
	if len(m.calls) != 0 {
		t.Errorf("%d trials ran for bad configs", len(m.calls))
	}
}
