package faults

import (
	"strings"
	"testing"
	"time"
)

const s = time.Second

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name string
		spec string
		want []Step
		end  time.Duration
	}{
		{"empty", "", nil, 0},
		{"none", "none", nil, 0},
		// 3 kills 10 s apart from 0; each down DefaultHeal 5 s; ends at 20+5 = 25 s.
		{"leader kills", "leader-kill x3 every 10s", []Step{
			{At: 0, Action: Kill, Role: Leader, Hold: 5 * s},
			{At: 10 * s, Action: Kill, Role: Leader, Hold: 5 * s},
			{At: 20 * s, Action: Kill, Role: Leader, Hold: 5 * s},
		}, 25 * s},
		{"term once", "leader-term", []Step{{Action: Term, Role: Leader, Hold: 5 * s}}, 5 * s},
		{"follower of partition 3 after 5s", "follower-kill after 5s partition 3 heal 2s", []Step{
			{At: 5 * s, Action: Kill, Role: Follower, Partition: 3, Hold: 2 * s},
		}, 7 * s},
		{"controller", "controller-kill", []Step{{Action: Kill, Role: Controller, Hold: 5 * s}}, 5 * s},
		{"pause", "pause 5s", []Step{{Action: Pause, Role: Leader, Hold: 5 * s}}, 5 * s},
		{"pause of follower", "pause 3s of follower x2 every 4s", []Step{
			{At: 0, Action: Pause, Role: Follower, Hold: 3 * s},
			{At: 4 * s, Action: Pause, Role: Follower, Hold: 3 * s},
		}, 7 * s},
		{"cut", "cut 5s", []Step{{Action: Cut, Role: Leader, Hold: 5 * s}}, 5 * s},
		// Lag 10 s, then the others stay down the default 5 s: ends at 15 s.
		{"truncate", "truncate 10s partition 2", []Step{{Action: Truncate, Role: Follower, Partition: 2, Lag: 10 * s, Hold: 5 * s}}, 15 * s},
		// Every 12 s leaves 12-10 = 2 s of heal after each 10 s lag.
		{"truncate twice", "truncate 10s x2 every 12s", []Step{
			{At: 0, Action: Truncate, Role: Follower, Lag: 10 * s, Hold: 2 * s},
			{At: 12 * s, Action: Truncate, Role: Follower, Lag: 10 * s, Hold: 2 * s},
		}, 24 * s},
		// every 3 s is shorter than the default heal: each kill is healed at 3 s.
		{"heal shortened to every", "leader-kill x2 every 3s", []Step{
			{At: 0, Action: Kill, Role: Leader, Hold: 3 * s},
			{At: 3 * s, Action: Kill, Role: Leader, Hold: 3 * s},
		}, 6 * s},
		// The second item starts when the first is healed (0+5 = 5 s), plus its after 2 s.
		{"sequence", "leader-kill; pause 1s after 2s", []Step{
			{At: 0, Action: Kill, Role: Leader, Hold: 5 * s},
			{At: 7 * s, Action: Pause, Role: Leader, Hold: 1 * s},
		}, 8 * s},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Steps) != len(tc.want) {
				t.Fatalf("steps %v, want %v", p.Steps, tc.want)
			}
			for i := range tc.want {
				if p.Steps[i] != tc.want[i] {
					t.Errorf("step %d = %+v, want %+v", i, p.Steps[i], tc.want[i])
				}
			}
			if p.End() != tc.end {
				t.Errorf("End = %s, want %s", p.End(), tc.end)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"leeder-kill", `unknown fault "leeder-kill": want one of leader-kill, leader-term, follower-kill, follower-term, controller-kill, controller-term, pause, cut, truncate, random`},
		{"leader-kill x3 evry 10s", `leader-kill: unknown word "evry": want xN, every D, after D, heal D, partition N, of ROLE, seed N`},
		{"leader-kill x3 every", "leader-kill: every needs a value"},
		{"leader-kill x0", "leader-kill x0: want a count x1 to x1000"},
		{"leader-kill x2 every soon", `every "soon": want a duration such as 5s or 1m`},
		{"pause", "pause needs a length, e.g. pause 5s"},
		{"pause 5s heal 2s", "pause: heal is its length"},
		{"pause 12s x2 every 10s", "pause: lasts 12s, longer than every 10s"},
		{"leader-kill x2 every 10s heal 11s", "leader-kill: lasts 11s, longer than every 10s"},
		{"leader-kill every 10s", "leader-kill: every 10s needs a count, e.g. x3"},
		{"leader-kill seed 4", "leader-kill: seed is for random faults"},
		{"leader-kill of follower", "leader-kill: `of` is for pause and cut"},
		{"cut 5s of everyone", `cut of "everyone": want leader, follower or controller`},
		{"leader-kill partition -1", `partition "-1": want a partition number`},
		{"leader-kill;", "empty fault between ';'"},
		{"truncate", "truncate needs the follower's lag, e.g. truncate 10s"},
		{"truncate 10s x2 every 10s", "truncate: lag 10s leaves no time to heal before every 10s"},
		{"truncate 10s x2 every 12s heal 3s", "truncate: lasts 13s, longer than every 12s"},
	} {
		_, err := Parse(tc.spec, 1)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", tc.spec, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("Parse(%q): error is not one line: %q", tc.spec, err)
		}
	}
}

// TestParseRandom: the same seed draws the same kinds; the seed word overrides Parse's
// seed; every drawn kind is one of randomKinds; timing follows x3 every 10s.
func TestParseRandom(t *testing.T) {
	a, err := Parse("random x3 every 10s seed 42", 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Parse("random x3 every 10s", 42)
	c, _ := Parse("random x3 every 10s seed 42", 99)
	allowed := map[string]bool{}
	for _, k := range randomKinds {
		allowed[k] = true
	}
	for i := range a.Steps {
		if a.Steps[i] != b.Steps[i] || a.Steps[i] != c.Steps[i] {
			t.Errorf("step %d differs for seed 42: %v, %v, %v", i, a.Steps[i], b.Steps[i], c.Steps[i])
		}
		if !allowed[a.Steps[i].Kind()] {
			t.Errorf("step %d kind %s is not one random may choose", i, a.Steps[i].Kind())
		}
		if a.Steps[i].At != time.Duration(i)*10*s || a.Steps[i].Hold != 5*s {
			t.Errorf("step %d at %s hold %s, want %s and 5s", i, a.Steps[i].At, a.Steps[i].Hold, time.Duration(i)*10*s)
		}
	}
	// Over 30 draws from 5 kinds, a seed that varies nothing would be broken.
	many, _ := Parse("random x30 every 1s", 3)
	kinds := map[string]bool{}
	for _, st := range many.Steps {
		kinds[st.Kind()] = true
	}
	if len(kinds) < 3 {
		t.Errorf("30 random faults drew only %v", kinds)
	}
}

func TestStepKind(t *testing.T) {
	for _, tc := range []struct {
		s    Step
		want string
	}{
		{Step{Action: Kill, Role: Leader}, "leader-kill"},
		{Step{Action: Term, Role: Controller}, "controller-term"},
		{Step{Action: Pause, Role: Leader}, "pause"},
		{Step{Action: Cut, Role: Follower}, "cut-follower"},
		{Step{Action: Truncate, Role: Follower}, "truncate"},
	} {
		if got := tc.s.Kind(); got != tc.want {
			t.Errorf("%+v.Kind() = %q, want %q", tc.s, got, tc.want)
		}
	}
}
