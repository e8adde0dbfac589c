package claim

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in    string
		left  string // canonical rendering of the left side
		op    Op
		right string
		tol   float64
	}{
		// the three shapes the built-in studies use most
		{"throughput(batch=16KiB) > 2 x throughput(batch=1KiB)", "records_per_sec(batch=16KiB)", Greater, "2 x records_per_sec(batch=1KiB)", 0},
		{"p99(acks=all) > p99(acks=1)", "p99(acks=all)", Greater, "p99(acks=1)", 0},
		{"cpu(replicas=3) > cpu(replicas=1)", "broker_cpu(replicas=3)", Greater, "broker_cpu(replicas=1)", 0},
		// coefficient after the term, "*" and no spaces
		{"mbps(compression=gzip)*1.5<=mbps(compression=none)", "1.5 x mb_per_sec(compression=gzip)", LessEqual, "mb_per_sec(compression=none)", 0},
		// several selector keys keep their written order; values may hold '-' and '.'
		{"throughput(acks=-1, batch=0.5KiB) >= throughput(acks=1,batch=0.5KiB)", "records_per_sec(acks=-1,batch=0.5KiB)", GreaterEqual, "records_per_sec(acks=1,batch=0.5KiB)", 0},
		// "~" has a default tolerance, overridable
		{"throughput(partitions=3) ~ throughput(partitions=12)", "records_per_sec(partitions=3)", About, "records_per_sec(partitions=12)", DefaultTolerance},
		{"throughput(a=1) ~ throughput(a=2) within 25%", "records_per_sec(a=1)", About, "records_per_sec(a=2)", 0.25},
		// constants, an empty selector and the p99.9 alias
		{"p99.9() < 250", "p999()", Less, "250", 0},
		{"100_000 < throughput(batch=on)", "100000", Less, "records_per_sec(batch=on)", 0},
		// unicode multiplication sign
		{"throughput(b=on) > 5 × throughput(b=off)", "records_per_sec(b=on)", Greater, "5 x records_per_sec(b=off)", 0},
		// aggregates; max is also a metric, told apart by the "(" after the inner name
		{"mean(mbps(compression=gzip)) > 2 x mean( mbps(compression=none) )", "mean(mb_per_sec(compression=gzip))", Greater, "2 x mean(mb_per_sec(compression=none))", 0},
		{"max(p99(acks=all)) < 50", "max(p99(acks=all))", Less, "50", 0},
		{"min(throughput(acks=1)) x 2 >= 10", "2 x min(records_per_sec(acks=1))", GreaterEqual, "10", 0},
		{"max(acks=all) < max(max(acks=1))", "max(acks=all)", Less, "max(max(acks=1))", 0},
	}
	for _, tt := range tests {
		c, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if c.Left.String() != tt.left || c.Op != tt.op || c.Right.String() != tt.right || c.Tolerance != tt.tol {
			t.Errorf("Parse(%q) = %s %s %s (tol %v), want %s %s %s (tol %v)",
				tt.in, c.Left, c.Op, c.Right, c.Tolerance, tt.left, tt.op, tt.right, tt.tol)
		}
		if c.Text != strings.TrimSpace(tt.in) {
			t.Errorf("Parse(%q).Text = %q", tt.in, c.Text)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string // a substring the error must contain
	}{
		{"", "empty claim"},
		{"speed(a=1) > speed(a=2)", `column 1: unknown metric "speed" (valid:`},
		{"throughput(a=1) = throughput(a=2)", "column 17: expected a comparison"},
		{"throughput(a=1 > throughput(a=2)", `selector "a=1 > throughput(a=2" may hold only letters`},
		{"throughput(a=1) > throughput(a=2", `missing ")"`},
		{"throughput(a) > throughput(a=2)", `selector "a" is not key=value`},
		{"throughput(a=1,a=2) > 5", `selector key "a" appears twice`},
		{"throughput(a=1) > throughput(a=2) within 10%", `"within" applies only to "~"`},
		{"throughput(a=1) ~ throughput(a=2) within 150%", "outside (0, 100)"},
		{"throughput(a=1) > throughput(a=2) extra", `unexpected "extra"`},
		{"3 > 2", "both sides are constants"},
		{"p99(a=1) > cpu(a=1)", "different metrics, p99 and broker_cpu"},
		{"throughput(a=1) x > 3", "expected a number after the multiplication sign"},
		{"throughput a=1 > 3", `expected "(" after throughput`},
		{"mean(p99(acks=all)) > 1", "column 6: mean(p99(...)) is refused: a mean of several scenarios' p99 is not the p99 of their records together"},
		{"mean(avg(acks=all)) > 1", "mean(avg(...)) is refused"},
		{"mean(throughput(a=1) > 1", `expected ")" to close mean(`},
		{"mean(mean(throughput(a=1))) > 1", `column 6: unknown metric "mean"`},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%q) error = %v, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestSideMatches(t *testing.T) {
	s := MustParse("throughput(batch=16KiB,acks=all) > 1").Left
	tests := []struct {
		params map[string]string
		want   bool
	}{
		{map[string]string{"batch": "16KiB", "acks": "all", "replicas": "3"}, true}, // extra keys are fine
		{map[string]string{"batch": "16KiB", "acks": "1"}, false},                   // a value differs
		{map[string]string{"batch": "16KiB"}, false},                                // a key is missing
	}
	for _, tt := range tests {
		if got := s.Matches(tt.params); got != tt.want {
			t.Errorf("Matches(%v) = %v, want %v", tt.params, got, tt.want)
		}
	}
}
