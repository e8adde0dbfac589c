package claim

import (
	"strings"
	"testing"
)

// scenario is a one-parameter scenario "key=value" whose repeats 1..n gave values for
// metric.
func scenario(id, metric string, values ...float64) Observed {
	k, v, _ := strings.Cut(id, "=")
	o := Observed{Scenario: Scenario{ID: id, Params: map[string]string{k: v}}}
	for i, x := range values {
		o.Repeats = append(o.Repeats, Repeat{N: i + 1, Values: map[string]float64{metric: x}})
	}
	return o
}

func testData() []Observed {
	return []Observed{
		scenario("batch=16KiB", RecordsPerSec, 52000, 53100, 51000),
		scenario("batch=1KiB", RecordsPerSec, 20100, 19800, 20500),
		scenario("batch=5KiB", RecordsPerSec, 40000, 45000, 38000),
		scenario("batch=2KiB", RecordsPerSec), // every repeat invalid
		scenario("x=single", RecordsPerSec, 30000),
		scenario("n=5", RecordsPerSec, 100, 110, 120, 130, 140),
		scenario("n=4", RecordsPerSec, 10, 11, 12, 13),
		scenario("n=3", RecordsPerSec, 1, 2, 3),
		scenario("n=5b", RecordsPerSec, 95, 100, 105, 98, 102),
		scenario("t=a", RecordsPerSec, 5, 5, 5),
		scenario("t=b", RecordsPerSec, 5, 5, 5),
		scenario("acks=all", P99, 12, 15, 11),
		scenario("acks=1", P99, 5, 6, 5.5),
		scenario("replicas=3", BrokerCPU, 1.1, 1.3, 1.2),
		scenario("replicas=1", BrokerCPU, 1.0, 1.25, 0.9),
		scenario("c=gzip", MBPerSec, 40, 41, 42),
		scenario("c=none", MBPerSec, 42, 43, 44),
		scenario("c=snappy", MBPerSec, 60, 61, 62),
	}
}

func TestEvaluate(t *testing.T) {
	// With 3 vs 3 repeats the Mann-Whitney U (pairs the claim wins) has the null
	// distribution 1,1,2,3,3,3,3,2,1,1 over 20 orderings for u = 0..9, so P(U >= 9) = 0.05,
	// P(U >= 7) = 4/20 = 0.2, P(U >= 6) = 7/20 = 0.35, P(U >= 3) = 16/20 = 0.8.
	tests := []struct {
		claim   string
		want    Outcome
		leaning Outcome
		p       float64
		ratio   float64
	}{
		// 2 x 1KiB = 40,200 39,600 41,000: every 16KiB repeat (51,000+) wins, U = 9
		{"throughput(batch=16KiB) > 2 x throughput(batch=1KiB)", Confirmed, "", 0.05, 52000.0 / 20100},
		// 3 x 1KiB = 60,300 59,400 61,500: every one beats 53,100, the opposite's U = 9
		{"throughput(batch=16KiB) > 3 x throughput(batch=1KiB)", Refuted, "", 0.05, 52000.0 / 20100},
		// 1.25 x 5KiB = 50,000 56,250 47,500: 16KiB wins 3+0+3 = 6 pairs, p = 0.35;
		// medians 52,000 > 50,000 point to confirmed
		{"throughput(batch=16KiB) > 1.25 x throughput(batch=5KiB)", Inconclusive, Confirmed, 0.35, 52000.0 / 40000},
		{"p99(acks=all) > p99(acks=1)", Confirmed, "", 0.05, 12.0 / 5.5},
		{"p99(acks=all) < p99(acks=1)", Refuted, "", 0.05, 12.0 / 5.5},
		// 1.1 beats 1.0 and 0.9; 1.3 beats all three; 1.2 beats 1.0 and 0.9: U = 7, p = 0.2
		{"cpu(replicas=3) > cpu(replicas=1)", Inconclusive, Confirmed, 0.2, 1.2 / 1.0},
		// 4 vs 3, every pair won: 1/C(7,3) = 1/35
		{"throughput(n=4) > throughput(n=3)", Confirmed, "", 1.0 / 35, 11.5 / 2},
		// against a constant the sign test needs 5 values: 3 are only indicative
		{"throughput(batch=1KiB) >= 10000", Indicative, Confirmed, 0, 0},
		{"throughput(batch=1KiB) < 15000", Indicative, Refuted, 0, 0},
		// 5 of 5 above 90: 1/32; 4 of 5 above 105: (5+1)/32 = 0.1875; all 5 below 150
		{"throughput(n=5) > 90", Confirmed, "", 1.0 / 32, 0},
		{"throughput(n=5) > 105", Inconclusive, Confirmed, 6.0 / 32, 0},
		{"throughput(n=5) < 90", Refuted, "", 1.0 / 32, 0},
		{"150 > throughput(n=5)", Confirmed, "", 1.0 / 32, 0},
		// about a constant within 10%: the band is 90..111.1 and all 5 values (95..105) lie
		// in it, so both one-sided sign tests give 1/32
		{"throughput(n=5b) ~ 100", Confirmed, "", 1.0 / 32, 0},
		// ties count for ">=" and against ">": 3 vs 3 equal values
		{"throughput(t=a) >= throughput(t=b)", Confirmed, "", 0.05, 1},
		{"throughput(t=a) > throughput(t=b)", Refuted, "", 0.05, 1},
		// one repeat on a side: indicative whatever the numbers
		{"throughput(x=single) > throughput(batch=1KiB)", Indicative, Confirmed, 0, 30000.0 / 20100},
		// about within 10%: 0.9 x none = 37.8..39.6 and none/0.9 = 46.7..48.9 bound every
		// gzip repeat (40..42), both one-sided tests have U = 9
		{"mbps(c=gzip) ~ mbps(c=none)", Confirmed, "", 0.05, 41.0 / 43},
		// 0.9 x snappy = 54..55.8 is above every gzip repeat: the opposite's U = 9
		{"mbps(c=gzip) ~ mbps(c=snappy)", Refuted, "", 0.05, 41.0 / 61},
		// within 5%: 0.95 x none = 39.9 40.85 41.8; gzip is at least that in 1+2+3 = 6
		// pairs (p = 0.35); medians 41 >= 40.85 point to confirmed
		{"mbps(c=gzip) ~ mbps(c=none) within 5%", Inconclusive, Confirmed, 0.35, 41.0 / 43},
		// missing data is inconclusive, never an error
		{"throughput(batch=64KiB) > throughput(batch=1KiB)", Inconclusive, "", 0, 0},
		{"throughput(batch=2KiB) > throughput(batch=1KiB)", Inconclusive, "", 0, 0},
	}
	for _, tt := range tests {
		v := MustParse(tt.claim).Evaluate(testData())
		if v.Outcome != tt.want || v.Leaning != tt.leaning {
			t.Errorf("%s: outcome %s leaning %q, want %s leaning %q (%s)", tt.claim, v.Outcome, v.Leaning, tt.want, tt.leaning, v.Sentence)
		}
		if diff := v.P - tt.p; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("%s: p %v, want %v", tt.claim, v.P, tt.p)
		}
		if diff := v.Ratio - tt.ratio; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("%s: ratio %v, want %v", tt.claim, v.Ratio, tt.ratio)
		}
		if !strings.HasPrefix(v.Sentence, string(tt.want)+": ") {
			t.Errorf("%s: sentence %q does not start with the outcome", tt.claim, v.Sentence)
		}
	}
}

func TestEvaluateSentence(t *testing.T) {
	tests := []struct {
		claim, want string
	}{
		// interval: smallest ratio 51,000/20,500 = 2.488, largest 53,100/19,800 = 2.682
		{"throughput(batch=16KiB) > 2 x throughput(batch=1KiB)",
			"confirmed: records_per_sec(batch=16KiB) = 52,000 records/s (median of 3, 51,000-53,100) > " +
				"2 x records_per_sec(batch=1KiB) = 2 x 20,100 records/s (median of 3, 19,800-20,500); " +
				"ratio 2.59 (90% interval 2.49-2.68); one-sided Mann-Whitney p = 0.05, 3 vs 3 repeats; this run could detect a difference of 3.99% or more"},
		{"throughput(batch=16KiB) > 3 x throughput(batch=1KiB)",
			"refuted: records_per_sec(batch=16KiB) = 52,000 records/s (median of 3, 51,000-53,100) > " +
				"3 x records_per_sec(batch=1KiB) = 3 x 20,100 records/s (median of 3, 19,800-20,500); " +
				"ratio 2.59 (90% interval 2.49-2.68); the opposite holds: one-sided Mann-Whitney p = 0.05, 3 vs 3 repeats; this run could detect a difference of 3.99% or more"},
		{"throughput(x=single) < 25000",
			"indicative: only 1 repeat, need 5 against a constant; the data points to refuted: " +
				"records_per_sec(x=single) = 30,000 records/s (1 repeat) < 25,000"},
		{"throughput(x=single) > throughput(batch=1KiB)",
			"indicative: only 1 repeat on the left and 3 repeats on the right, need 3 per side; the data points to confirmed: " +
				"records_per_sec(x=single) = 30,000 records/s (1 repeat) > records_per_sec(batch=1KiB) = 20,100 records/s " +
				"(median of 3, 19,800-20,500); ratio 1.49"},
		// 2.6 x 1KiB = 52,260 51,480 53,300: 16KiB wins 1+2+0 = 3 pairs (p = 0.8), the
		// opposite 6 (p = 0.35); medians 52,000 < 52,260. The noise floor (as for every claim
		// on these two sides, 3 vs 3 needs all 9 pairs): 16KiB's deviations from its median
		// are ln(51,000/52,000) = -0.01942, 0, ln(53,100/52,000) = 0.02093; 1KiB's ln(19,800/
		// 20,100) = -0.01504, 0, ln(20,500/20,100) = 0.01971; 16KiB lifted by r beats every
		// 1KiB value once ln r > 0.01971 + 0.01942: r = 1.0399, 3.99%. The medians differ by
		// 52,260/52,000 = 0.5%.
		{"throughput(batch=16KiB) > 2.6 x throughput(batch=1KiB)",
			"inconclusive: records_per_sec(batch=16KiB) = 52,000 records/s (median of 3, 51,000-53,100) > " +
				"2.6 x records_per_sec(batch=1KiB) = 2.6 x 20,100 records/s (median of 3, 19,800-20,500); " +
				"ratio 2.59 (90% interval 2.49-2.68); neither the claim (one-sided Mann-Whitney p = 0.8) nor its opposite " +
				"(p = 0.35) reaches p <= 0.05 with 3 vs 3 repeats; the medians point to refuted; this run could detect a difference of 3.99% or more; the medians differ by 0.5%, under half of that: the effect, if any, is small for this noise"},
		{"throughput(n=5) > 90",
			// the sign test needs all 5 above: the lowest, 100/120 of the median, must clear
			// the constant, so the median must be 120/100 = 1.2 times it
			"confirmed: records_per_sec(n=5) = 120 records/s (median of 5, 100-140) > 90; one-sided sign test p = 0.031, 5 repeats; " +
				"this run could detect a difference of 20% or more"},
		{"throughput(batch=3KiB) > 1",
			"inconclusive: records_per_sec(batch=3KiB) matches no scenario"},
		{"throughput(batch=2KiB) > throughput(batch=1KiB)",
			"inconclusive: records_per_sec(batch=2KiB): scenario batch=2KiB has no valid repeat"},
	}
	for _, tt := range tests {
		if got := MustParse(tt.claim).Evaluate(testData()).Sentence; got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.claim, got, tt.want)
		}
	}
}

func TestEvaluateAggregate(t *testing.T) {
	two := func(id string, params map[string]string, values map[int]float64) Observed {
		o := Observed{Scenario: Scenario{ID: id, Params: params}}
		for n := 1; n <= 4; n++ {
			if v, ok := values[n]; ok {
				o.Repeats = append(o.Repeats, Repeat{N: n, Values: map[string]float64{MBPerSec: v, P99: v}})
			}
		}
		return o
	}
	data := []Observed{
		two("a=1,b=x", map[string]string{"a": "1", "b": "x"}, map[int]float64{1: 10, 2: 20, 3: 30, 4: 40}),
		// repeat 2 invalid: round 2 is incomplete and left out of a=1's aggregate
		two("a=1,b=y", map[string]string{"a": "1", "b": "y"}, map[int]float64{1: 30, 3: 50, 4: 60}),
		two("a=2,b=x", map[string]string{"a": "2", "b": "x"}, map[int]float64{1: 1, 2: 2, 3: 3}),
		two("a=3,b=x", map[string]string{"a": "3", "b": "x"}, nil),
	}
	tests := []struct {
		claim, want string
	}{
		// rounds 1, 3, 4: means (10+30)/2 = 20, (30+50)/2 = 40, (40+60)/2 = 50; against a=2's
		// 1, 2, 3 every pair is won: 3 vs 3, p = 0.05
		{"mean(mbps(a=1)) > mbps(a=2)",
			"confirmed: mean(mb_per_sec(a=1)) = 40 MiB/s (median of 3 rounds, 20-50) > mb_per_sec(a=2) = 2 MiB/s " +
				"(median of 3, 1-3); ratio 20.00 (90% interval 6.67-50.00); one-sided Mann-Whitney p = 0.05, 3 rounds vs 3 repeats; this run could detect a difference of 200% or more"},
		// max per round: 30, 50, 60
		{"max(p99(a=1)) > p99(a=2)",
			"confirmed: max(p99(a=1)) = 50 ms (median of 3 rounds, 30-60) > p99(a=2) = 2 ms " +
				"(median of 3, 1-3); ratio 25.00 (90% interval 10.00-60.00); one-sided Mann-Whitney p = 0.05, 3 rounds vs 3 repeats; this run could detect a difference of 150% or more"},
		{"mean(mbps(b=x)) > 1",
			"inconclusive: mean(mb_per_sec(b=x)): scenario a=3,b=x has no valid repeat"},
		{"mean(mbps(a=1)) > mbps(b=x,a=1)",
			"inconclusive: both sides select scenario(s) a=1,b=x"},
	}
	for _, tt := range tests {
		if got := MustParse(tt.claim).Evaluate(data).Sentence; got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.claim, got, tt.want)
		}
	}
}

func TestEvaluateBadSamples(t *testing.T) {
	nan := scenario("a=1", RecordsPerSec, 1, zero()/zero())
	v := MustParse("throughput(a=1) > 0").Evaluate([]Observed{nan})
	if v.Outcome != Inconclusive || !strings.Contains(v.Sentence, "not a finite number") {
		t.Errorf("NaN sample: %s %q", v.Outcome, v.Sentence)
	}
	other := scenario("a=1", P99, 1, 2, 3)
	v = MustParse("throughput(a=1) > 0").Evaluate([]Observed{other})
	if v.Outcome != Inconclusive || !strings.Contains(v.Sentence, "no valid repeat with a records_per_sec value") {
		t.Errorf("metric not measured: %s %q", v.Outcome, v.Sentence)
	}
}

func zero() float64 { return 0 }

// An inconclusive verdict whose medians differ by half the floor or more blames the noise,
// not the effect. n=5 is 100 110 120 130 140 (median 120), n=5b 95 100 105 98 102 (median
// 100); 5 vs 5 needs 21 of 25 pairs (U <= 4 has 1+1+2+3+5 = 12 of C(10,5) = 252
// orderings: P(U >= 21) = 0.048, P(U >= 20) = 19/252 = 0.075). Over their medians n=5b's
// 1.05 must fall below n=5's 110/120 shifted: the 21st smallest of the 25 gaps is
// 1.05/(110/120) = 1.145, so the floor is 14.5%. 1.1 x n=5b is 104.5-115.5: n=5 wins
// 0+2+5+5+5 = 17 pairs, not 21; the medians differ by 120/110 = 1.0909, 9.09%, above half
// of 14.5%.
func TestEvaluateLargeNoise(t *testing.T) {
	v := MustParse("throughput(n=5) > 1.1 x throughput(n=5b)").Evaluate(testData())
	want := "this run could detect a difference of 14.5% or more; the medians differ by 9.09%, of that order: " +
		"the noise is too large to tell (spreads ±16.7% and ±5%), more repeats would narrow it"
	if v.Outcome != Inconclusive || !strings.HasSuffix(v.Sentence, want) {
		t.Errorf("%s %q, want it to end %q", v.Outcome, v.Sentence, want)
	}
}
