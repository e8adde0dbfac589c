package faults

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTarget records what it is asked to do, in order.
type fakeTarget struct {
	mu       sync.Mutex
	log      []string
	checkErr error
	failAt   int // Inject of this step (1-based) fails after a half-done injection
	healErr  error
}

func (f *fakeTarget) add(s string) { f.mu.Lock(); f.log = append(f.log, s); f.mu.Unlock() }

func (f *fakeTarget) Check(context.Context, Plan) error { return f.checkErr }

func (f *fakeTarget) Inject(_ context.Context, s Step) (Injection, error) {
	f.add("inject " + s.Kind())
	n := len(f.log)
	inj := Injection{Broker: int32(n), Partition: s.Partition, Detail: s.Kind(),
		Heal: func(context.Context) (string, error) {
			f.add("heal " + s.Kind())
			return "healed", f.healErr
		}}
	if f.failAt > 0 && strings.Count(strings.Join(f.log, "|"), "inject") == f.failAt {
		return inj, errors.New("broker did not exit")
	}
	return inj, nil
}

// plan is a fast plan for Run's order and accounting: no assertion reads the clock.
func fastPlan(kinds ...Action) Plan {
	var p Plan
	for i, a := range kinds {
		p.Steps = append(p.Steps, Step{At: time.Duration(i) * time.Millisecond, Action: a, Role: Leader, Hold: time.Millisecond})
	}
	return p
}

func TestRunInjectsAndHealsInOrder(t *testing.T) {
	f := &fakeTarget{}
	var seen []string
	events, err := Run(context.Background(), fastPlan(Kill, Pause, Term), f, func(e Event) {
		seen = append(seen, fmt.Sprintf("%d %s healed=%v", e.Step, e.Kind, !e.HealedAt.IsZero()))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "inject leader-kill|heal leader-kill|inject pause|heal pause|inject leader-term|heal leader-term"
	if got := strings.Join(f.log, "|"); got != want {
		t.Errorf("target saw %s, want %s", got, want)
	}
	wantSeen := "0 leader-kill healed=false|0 leader-kill healed=true|1 pause healed=false|1 pause healed=true|2 leader-term healed=false|2 leader-term healed=true"
	if got := strings.Join(seen, "|"); got != wantSeen {
		t.Errorf("callbacks %s, want %s", got, wantSeen)
	}
	if len(events) != 3 {
		t.Fatalf("%d events, want 3", len(events))
	}
	for i, e := range events {
		// Each event's times are in order: at <= applied <= heal <= healed.
		if e.Step != i || e.HealDetail != "healed" || e.Applied.Before(e.At) || e.HealAt.Before(e.Applied) || e.HealedAt.Before(e.HealAt) {
			t.Errorf("event %d: %+v", i, e)
		}
	}
}

func TestRunHealsAHalfDoneFault(t *testing.T) {
	f := &fakeTarget{failAt: 2}
	events, err := Run(context.Background(), fastPlan(Kill, Kill, Kill), f, nil)
	if err == nil || !strings.Contains(err.Error(), "fault 2 of 3 (leader-kill): broker did not exit") {
		t.Fatalf("err = %v", err)
	}
	if got := strings.Join(f.log, "|"); got != "inject leader-kill|heal leader-kill|inject leader-kill|heal leader-kill" {
		t.Errorf("target saw %s", got)
	}
	if len(events) != 2 || events[1].HealedAt.IsZero() {
		t.Errorf("events %+v: want 2, the second healed", events)
	}
}

func TestRunStopsOnFailedHeal(t *testing.T) {
	f := &fakeTarget{healErr: errors.New("restarted broker 1 exited")}
	events, err := Run(context.Background(), fastPlan(Kill, Kill), f, nil)
	if err == nil || !strings.Contains(err.Error(), "heal fault 1 of 2 (leader-kill): restarted broker 1 exited") {
		t.Fatalf("err = %v", err)
	}
	if len(events) != 1 || !events[0].HealedAt.IsZero() {
		t.Errorf("events %+v", events)
	}
}

// TestRunCancelledStillHeals cancels during a fault's hold: the fault is healed, the next
// never starts, and the error says so.
func TestRunCancelledStillHeals(t *testing.T) {
	f := &fakeTarget{}
	p := Plan{Steps: []Step{{Action: Kill, Role: Leader, Hold: time.Hour}, {At: time.Hour, Action: Kill, Role: Leader, Hold: time.Hour}}}
	ctx, cancel := context.WithCancel(context.Background())
	events, err := Run(ctx, p, f, func(e Event) {
		if e.HealedAt.IsZero() {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "during fault 1 of 2") {
		t.Fatalf("err = %v", err)
	}
	if got := strings.Join(f.log, "|"); got != "inject leader-kill|heal leader-kill" {
		t.Errorf("target saw %s", got)
	}
	if len(events) != 1 || events[0].HealedAt.IsZero() {
		t.Errorf("events %+v", events)
	}
}

func TestRunCheckRefuses(t *testing.T) {
	f := &fakeTarget{checkErr: errors.New("fault cut: no proxies")}
	if _, err := Run(context.Background(), fastPlan(Cut), f, nil); err == nil || err.Error() != "fault cut: no proxies" {
		t.Fatalf("err = %v", err)
	}
	if len(f.log) != 0 {
		t.Errorf("target saw %v after a refused check", f.log)
	}
}

func TestCommandTargetRefusesPauseAndCut(t *testing.T) {
	tgt, err := NewCommandTarget(map[int32][]string{1: {"true"}}, true, nil, "t")
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{"pause 5s", "leader-kill; cut 5s"} {
		p, _ := Parse(spec, 1)
		if err := tgt.Check(context.Background(), p); err == nil || !strings.Contains(err.Error(), "only kill and term faults run") {
			t.Errorf("%s: %v", spec, err)
		}
	}
}
