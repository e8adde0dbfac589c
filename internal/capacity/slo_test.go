package capacity

import (
	"strings"
	"testing"
	"time"
)

func TestParseSLOs(t *testing.T) {
	tests := []struct {
		in      string
		want    []SLO
		wantErr string
	}{
		{"p99=50ms", []SLO{{99, 50 * time.Millisecond}}, ""},
		// p999 is 99.9: the digits after the first two are decimals.
		{"p99=50ms, p999=200ms", []SLO{{99, 50 * time.Millisecond}, {99.9, 200 * time.Millisecond}}, ""},
		{"p99.99=1s", []SLO{{99.99, time.Second}}, ""},
		{"p50=2ms", []SLO{{50, 2 * time.Millisecond}}, ""},
		{"p99", nil, `slo "p99" is not percentile=limit`},
		{"q99=5ms", nil, `slo percentile "q99" is not p50`},
		{"p100=5ms", nil, `slo percentile "p100"`},
		{"p99=fast", nil, `limit "fast" is not a duration above zero`},
		{"p99=0s", nil, `limit "0s" is not a duration above zero`},
		{"p99=5ms,p99=6ms", nil, "percentile given twice"},
	}
	for _, tt := range tests {
		got, err := ParseSLOs(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseSLOs(%q) error %v, want %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil || len(got) != len(tt.want) {
			t.Errorf("ParseSLOs(%q) = %v, %v, want %v", tt.in, got, err, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("ParseSLOs(%q)[%d] = %v, want %v", tt.in, i, got[i], tt.want[i])
			}
		}
	}
}

func TestSLOString(t *testing.T) {
	for _, tt := range []struct {
		s    SLO
		want string
	}{
		{SLO{99, 50 * time.Millisecond}, "p99 <= 50 ms"},
		{SLO{99.9, 1500 * time.Microsecond}, "p999 <= 1.5 ms"},
	} {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestParsePrecision(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"5%", 0.05, true},
		{"0.02", 0.02, true},
		{"2.5%", 0.025, true},
		{"0", 0, false},
		{"-5%", 0, false},
		{"100%", 0, false},
		{"five", 0, false},
	} {
		got, err := ParsePrecision(tt.in)
		if (err == nil) != tt.ok || (tt.ok && (got < tt.want-1e-12 || got > tt.want+1e-12)) {
			t.Errorf("ParsePrecision(%q) = %v, %v, want %v ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestJudgeCommon(t *testing.T) {
	tests := []struct {
		name string
		o    Outcome
		want string
	}{
		{"sustained", Outcome{Achieved: 990, Acked: 9900, Sent: 9900}, ""},
		// 989 of 1,000 is 98.9 %, under 99 %.
		{"behind", Outcome{Achieved: 989, Acked: 9890, Sent: 9890}, "achieved 989 of 1000 records/s (98.9%)"},
		// Failed and unsent records count in each SLO's loss ratio (TestJudgeSLO), not here.
		{"failed", Outcome{Achieved: 1000, Failed: 3}, ""},
		// 1 % of 10,000 sends is 100: 100 blocked is a busy machine, 101 a full buffer.
		{"few blocked", Outcome{Achieved: 1000, Sent: 10000, BlockedSends: 100}, ""},
		{"buffer full", Outcome{Achieved: 1000, Sent: 10000, BlockedSends: 101}, "producer buffer full (101 of 10000 sends waited)"},
		// 1 % of 10,000 acknowledged is 100 records of lag growth allowed.
		{"consumers keep up", Outcome{Achieved: 1000, Acked: 10000, ConsumerLagGrowth: 100}, ""},
		{"consumers behind", Outcome{Achieved: 1000, Acked: 10000, ConsumerLagGrowth: 101}, "consumers fell 101 records behind"},
	}
	for _, tt := range tests {
		got := strings.Join(judgeCommon(tt.o, 1000), "; ")
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestJudgeSLO(t *testing.T) {
	// 10,000 acknowledged: 9,800 at 2.5 ms, 185 at 40 ms, 15 at 80 ms (outcome's shape).
	ok := outcome(1000, 10*time.Second, 2500*time.Microsecond, 40*time.Millisecond)
	slo := SLO{99, 50 * time.Millisecond}
	tests := []struct {
		name     string
		failed   int64
		unsent   int64
		wantLoss float64
		wantWhy  string
	}{
		// 15 of 10,000 late: 0.15 %, within 1 %.
		{"within", 0, 0, 15.0 / 10000, ""},
		// 15 late + 80 failed of 10,080 due: 0.94 %, still within.
		{"failed within", 80, 0, 95.0 / 10080, ""},
		// 15 late + 50 failed + 50 unsent of 10,100 due: 1.14 %: p99 itself is 40 ms, but
		// the records that never arrived count.
		{"failed and unsent beyond", 50, 50, 115.0 / 10100,
			"50 failed and 50 unsent of 10100 due; 1.14% of due records late, failed or unsent (at most 1%)"},
	}
	for _, tt := range tests {
		o := ok
		o.Failed, o.Unsent = tt.failed, tt.unsent
		loss, why := judgeSLO(o, slo)
		if loss < tt.wantLoss-1e-12 || loss > tt.wantLoss+1e-12 || strings.Join(why, "; ") != tt.wantWhy {
			t.Errorf("%s: loss %v why %q, want %v %q", tt.name, loss, why, tt.wantLoss, tt.wantWhy)
		}
	}
	// 200 of 10,000 beyond 50 ms (185 at 60 ms, 15 at 120 ms): 2 %, and p99 named.
	late := outcome(1000, 10*time.Second, 2500*time.Microsecond, 60*time.Millisecond)
	if loss, why := judgeSLO(late, slo); loss != 0.02 || why[0] != "p99 60.0 ms > 50.0 ms" {
		t.Errorf("late: loss %v why %q, want 0.02 and the p99 named", loss, why)
	}
}
