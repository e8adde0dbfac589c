package claim

import (
	"errors"
	"strings"
	"testing"
)

// fixed is a lookup over literal samples keyed by "metric(k=v)" for single-key selectors.
func fixed(values map[string][]float64) Lookup {
	return func(metric string, params map[string]string) ([]float64, error) {
		key := metric + "("
		for k, v := range params {
			key += k + "=" + v
		}
		key += ")"
		s, ok := values[key]
		if !ok {
			return nil, errors.New("no scenario matches " + key)
		}
		return s, nil
	}
}

func TestEvaluate(t *testing.T) {
	data := fixed(map[string][]float64{
		"records_per_sec(batch=16KiB)": {52000, 53100, 51000},
		"records_per_sec(batch=1KiB)":  {20100, 19800, 20500},
		"records_per_sec(batch=5KiB)":  {40000, 45000, 38000},
		"records_per_sec(x=single)":    {30000},
		"p99(acks=all)":                {12, 15, 11},
		"p99(acks=1)":                  {5, 6, 5.5},
		"broker_cpu(replicas=3)":       {1.1, 1.3, 1.2},
		"broker_cpu(replicas=1)":       {1.0, 1.25, 0.9},
		"mb_per_sec(c=gzip)":           {40, 41, 42},
		"mb_per_sec(c=none)":           {42, 43, 44},
		"mb_per_sec(c=snappy)":         {60, 61, 62},
	})
	tests := []struct {
		claim string
		want  Outcome
		ratio float64
	}{
		// every 16KiB repeat beats twice every 1KiB repeat: 51,000 > 2 x 20,500
		{"throughput(batch=16KiB) > 2 x throughput(batch=1KiB)", Confirmed, 52000.0 / 20100},
		// 3x is out of reach for every pairing: 53,100 <= 3 x 19,800
		{"throughput(batch=16KiB) > 3 x throughput(batch=1KiB)", Refuted, 52000.0 / 20100},
		// medians say 16KiB > 1.25 x 5KiB (52,000 > 50,000) but 51,000 < 56,250: ranges overlap
		{"throughput(batch=16KiB) > 1.25 x throughput(batch=5KiB)", Inconclusive, 52000.0 / 40000},
		{"p99(acks=all) > p99(acks=1)", Confirmed, 12.0 / 5.5},
		{"p99(acks=all) < p99(acks=1)", Refuted, 12.0 / 5.5},
		// overlapping CPU ranges: 1.1 <= 1.25
		{"cpu(replicas=3) > cpu(replicas=1)", Inconclusive, 1.2 / 1.0},
		// constants: every repeat above 10,000, none below 15,000
		{"throughput(batch=1KiB) >= 10000", Confirmed, 0},
		{"throughput(batch=1KiB) < 15000", Refuted, 0},
		// one repeat: the single values decide
		{"throughput(x=single) > throughput(batch=1KiB)", Confirmed, 30000.0 / 20100},
		// about: 40..44 spans 9.1% <= 10%; 40..62 vs: ranges apart by 42->60, 30% > 10%
		{"mbps(c=gzip) ~ mbps(c=none)", Confirmed, 41.0 / 43},
		{"mbps(c=gzip) ~ mbps(c=snappy)", Refuted, 41.0 / 61},
		// 40..44 spans more than 5%, but the ranges touch: not refuted either
		{"mbps(c=gzip) ~ mbps(c=none) within 5%", Inconclusive, 41.0 / 43},
		// missing data is inconclusive, never an error
		{"throughput(batch=64KiB) > throughput(batch=1KiB)", Inconclusive, 0},
	}
	for _, tt := range tests {
		v := MustParse(tt.claim).Evaluate(data)
		if v.Outcome != tt.want {
			t.Errorf("%s: outcome %s, want %s (%s)", tt.claim, v.Outcome, tt.want, v.Sentence)
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
	data := fixed(map[string][]float64{
		"records_per_sec(batch=16KiB)": {52000, 53100, 51000},
		"records_per_sec(batch=1KiB)":  {20100, 19800, 20500},
		"records_per_sec(batch=2KiB)":  {31000},
	})
	tests := []struct {
		claim, want string
	}{
		{"throughput(batch=16KiB) > 2 x throughput(batch=1KiB)",
			"confirmed: records_per_sec(batch=16KiB) = 52,000 records/s (median of 3, 51,000-53,100) > " +
				"2 x records_per_sec(batch=1KiB) = 2 x 20,100 records/s (median of 3, 19,800-20,500); " +
				"ratio 2.59; holds for every pair of repeats"},
		{"throughput(batch=2KiB) < 25000",
			"refuted: records_per_sec(batch=2KiB) = 31,000 records/s (1 repeat) < 25,000; " +
				"the opposite holds for every pair of repeats"},
		{"throughput(batch=16KiB) > 2.6 x throughput(batch=1KiB)",
			"inconclusive: records_per_sec(batch=16KiB) = 52,000 records/s (median of 3, 51,000-53,100) > " +
				"2.6 x records_per_sec(batch=1KiB) = 2.6 x 20,100 records/s (median of 3, 19,800-20,500); " +
				"ratio 2.59; the medians disagree but the repeats' ranges overlap"},
		{"throughput(batch=3KiB) > 1",
			"inconclusive: records_per_sec(batch=3KiB): no scenario matches records_per_sec(batch=3KiB)"},
	}
	for _, tt := range tests {
		if got := MustParse(tt.claim).Evaluate(data).Sentence; got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.claim, got, tt.want)
		}
	}
}

func TestEvaluateBadSamples(t *testing.T) {
	tests := []struct {
		name    string
		samples []float64
		want    string
	}{
		{"empty", nil, "no samples"},
		{"nan", []float64{1, zero() / zero()}, "not a finite number"},
	}
	for _, tt := range tests {
		lookup := func(string, map[string]string) ([]float64, error) { return tt.samples, nil }
		v := MustParse("throughput(a=1) > 0").Evaluate(lookup)
		if v.Outcome != Inconclusive || !strings.Contains(v.Sentence, tt.want) {
			t.Errorf("%s: %s %q, want inconclusive containing %q", tt.name, v.Outcome, v.Sentence, tt.want)
		}
	}
}

func zero() float64 { return 0 }
