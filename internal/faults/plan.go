package faults

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// Action is what a fault does to a broker.
type Action string

// The actions. Kill and term end the broker's process (SIGKILL: a crash; SIGTERM: a
// controlled shutdown) and restart it at heal time; pause stops it (SIGSTOP) and resumes it
// (SIGCONT); cut closes the proxies in front of it and reopens them. Truncate is Kafka's
// truncation_test recipe: a follower is stopped (SIGSTOP), the partition takes writes
// without it for the step's Lag (counted from the follower's removal from the ISR), every
// other replica is killed, and the stale follower is resumed alone, so that with
// unclean.leader.election.enable=true it becomes leader and the others, restarted at heal
// time, truncate what it never had (acknowledged records lost: a negative control); with
// unclean election off the partition waits offline and nothing is lost.
const (
	Kill     Action = "kill"
	Term     Action = "term"
	Pause    Action = "pause"
	Cut      Action = "cut"
	Truncate Action = "truncate"
)

// Role is which broker a fault hits, resolved when the fault is injected.
type Role string

// The roles: the leader of the step's partition, an in-sync follower of it (the lowest
// node id in the ISR that is not the leader), the active KRaft controller.
const (
	Leader     Role = "leader"
	Follower   Role = "follower"
	Controller Role = "controller"
)

// DefaultHeal is how long a killed broker stays down before it is restarted, when the plan
// says no `heal D`; shortened to the interval when faults repeat faster.
const DefaultHeal = 5 * time.Second

// Step is one fault of a plan.
type Step struct {
	// At is when the fault is due, from the start of Run. A step starts no earlier than At
	// and no earlier than the previous step's heal has finished.
	At     time.Duration
	Action Action
	Role   Role
	// Partition is the partition whose leader or follower is hit (unused for controller).
	Partition int32
	// Hold is how long the fault lasts before it is healed: a kill's time down, a pause's
	// or a cut's length, a truncate's time from the stale follower's restart to the
	// others'.
	Hold time.Duration
	// Lag is how long a truncate's follower is out of the ISR while the partition takes
	// writes (it leaves the ISR once fenced, broker.session.timeout.ms after its kill).
	Lag time.Duration
}

// Kind names the step as the plan does: "leader-kill", "pause", "cut".
func (s Step) Kind() string {
	switch s.Action {
	case Truncate:
		return string(Truncate)
	case Pause, Cut:
		if s.Role == Leader {
			return string(s.Action)
		}
		return string(s.Action) + "-" + string(s.Role)
	}
	return string(s.Role) + "-" + string(s.Action)
}

// String describes the step: "leader-kill at 10s (partition 0, down 5s)".
func (s Step) String() string {
	what := "down"
	switch s.Action {
	case Pause, Cut:
		what = "for"
	case Truncate:
		what = fmt.Sprintf("lag %s, then down", s.Lag)
	}
	where := fmt.Sprintf("partition %d, ", s.Partition)
	if s.Role == Controller {
		where = ""
	}
	return fmt.Sprintf("%s at %s (%s%s %s)", s.Kind(), s.At, where, what, s.Hold)
}

// Plan is a fault schedule: steps in time order.
type Plan struct {
	Steps []Step
	// Spec is the text the plan was parsed from.
	Spec string
}

// End is when the last fault is due to be healed, from the start of Run: the shortest run
// that holds the whole plan (restarts and recovery take longer).
func (p Plan) End() time.Duration {
	if len(p.Steps) == 0 {
		return 0
	}
	last := p.Steps[len(p.Steps)-1]
	return last.At + last.Lag + last.Hold
}

// Uses reports whether any step has action a.
func (p Plan) Uses(a Action) bool {
	for _, s := range p.Steps {
		if s.Action == a {
			return true
		}
	}
	return false
}

// kinds are the words that start a fault, with the action and role they stand for.
var kinds = []struct {
	word   string
	action Action
	role   Role
}{
	{"leader-kill", Kill, Leader}, {"leader-term", Term, Leader},
	{"follower-kill", Kill, Follower}, {"follower-term", Term, Follower},
	{"controller-kill", Kill, Controller}, {"controller-term", Term, Controller},
	{"pause", Pause, Leader}, {"cut", Cut, Leader}, {"truncate", Truncate, Follower},
}

// randomKinds are what `random` chooses among: every kind that works on any embedded
// cluster (a cut needs proxies, a truncate at most one controller among the replicas it
// kills: left out).
var randomKinds = []string{"leader-kill", "leader-term", "follower-kill", "controller-kill", "pause"}

func kindWords() string {
	var w []string
	for _, k := range kinds {
		w = append(w, k.word)
	}
	return strings.Join(append(w, "random"), ", ")
}

// item is one `;`-separated part of a spec before it is expanded into steps.
type item struct {
	word      string
	action    Action
	role      Role
	hold      time.Duration // pause or cut length, or heal delay
	lag       time.Duration // truncate's lag
	healSet   bool
	count     int
	every     time.Duration
	after     time.Duration
	partition int32
	seed      int64
}

// Parse reads a fault plan. Faults are separated by `;` and run one after another:
//
//	leader-kill x3 every 10s          SIGKILL the leader of partition 0 three times, 10 s apart
//	leader-term | follower-kill | follower-term | controller-kill | controller-term
//	pause 5s [of follower]            SIGSTOP the leader (or follower, controller), SIGCONT 5 s later
//	cut 5s [of controller]            close the proxies in front of the leader for 5 s
//	truncate 10s                      stop an in-sync follower of partition 0, 10 s of writes
//	                                  without it, kill the other replicas, resume the
//	                                  follower alone (see Truncate), restart the others
//	random x3 every 10s seed 42       three kinds chosen from the seed (leader-kill,
//	                                  leader-term, follower-kill, controller-kill, pause)
//
// Options after the kind: `xN` (count, default 1), `every D` (default 10s), `after D`
// (wait before the first, from the run's start or the previous fault's heal), `heal D`
// (time a killed broker stays down, default 5s or every if shorter), `partition N`
// (default 0), `seed N` (random only; seed is used otherwise). "" and "none" are an empty
// plan.
func Parse(spec string, seed int64) (Plan, error) {
	plan := Plan{Spec: strings.TrimSpace(spec)}
	if plan.Spec == "" || plan.Spec == "none" {
		return plan, nil
	}
	var start time.Duration
	for part := range strings.SplitSeq(spec, ";") {
		it, err := parseItem(strings.Fields(part), seed)
		if err != nil {
			return Plan{}, fmt.Errorf("fault plan %q: %w", plan.Spec, err)
		}
		steps := it.expand(start)
		plan.Steps = append(plan.Steps, steps...)
		last := steps[len(steps)-1]
		start = last.At + last.Lag + last.Hold
	}
	return plan, nil
}

func parseItem(words []string, seed int64) (item, error) {
	if len(words) == 0 {
		return item{}, fmt.Errorf("empty fault between ';': want one of %s", kindWords())
	}
	it := item{word: words[0], count: 1, every: 10 * time.Second, hold: DefaultHeal, seed: seed}
	found := it.word == "random"
	for _, k := range kinds {
		if k.word == it.word {
			it.action, it.role, found = k.action, k.role, true
		}
	}
	if !found {
		return item{}, fmt.Errorf("unknown fault %q: want one of %s", it.word, kindWords())
	}
	rest := words[1:]
	if it.action == Pause || it.action == Cut {
		if len(rest) == 0 {
			return item{}, fmt.Errorf("%s needs a length, e.g. %s 5s", it.word, it.word)
		}
		d, err := duration(it.word, rest[0])
		if err != nil {
			return item{}, err
		}
		it.hold, it.healSet, rest = d, true, rest[1:]
	}
	if it.action == Truncate {
		if len(rest) == 0 {
			return item{}, fmt.Errorf("truncate needs the follower's lag, e.g. truncate 10s")
		}
		d, err := duration(it.word, rest[0])
		if err != nil {
			return item{}, err
		}
		it.lag, rest = d, rest[1:]
	}
	everySet := false
	for len(rest) > 0 {
		w := rest[0]
		if n, ok := strings.CutPrefix(w, "x"); ok && n != "" {
			c, err := strconv.Atoi(n)
			if err != nil || c < 1 || c > 1000 {
				return item{}, fmt.Errorf("%s %s: want a count x1 to x1000", it.word, w)
			}
			it.count, rest = c, rest[1:]
			continue
		}
		if len(rest) < 2 {
			return item{}, unknownWord(it, w, isOption(w))
		}
		v := rest[1]
		var err error
		switch w {
		case "every":
			it.every, err = duration(w, v)
			everySet = true
		case "after":
			it.after, err = duration(w, v)
		case "heal":
			if it.action == Pause || it.action == Cut {
				return item{}, fmt.Errorf("%s: heal is its length (%s %s), not an option", it.word, it.word, it.hold)
			}
			it.hold, err = duration(w, v)
			it.healSet = true
		case "partition":
			var p int
			p, err = strconv.Atoi(v)
			if err != nil || p < 0 {
				err = fmt.Errorf("partition %q: want a partition number (0, 1, ...)", v)
			}
			it.partition = int32(p)
		case "of":
			if it.action != Pause && it.action != Cut {
				return item{}, fmt.Errorf("%s: `of` is for pause and cut; the kind names the role already", it.word)
			}
			it.role = Role(v)
			if it.role != Leader && it.role != Follower && it.role != Controller {
				err = fmt.Errorf("%s of %q: want leader, follower or controller", it.word, v)
			}
		case "seed":
			if it.word != "random" {
				return item{}, fmt.Errorf("%s: seed is for random faults", it.word)
			}
			it.seed, err = strconv.ParseInt(v, 10, 64)
			if err != nil {
				err = fmt.Errorf("seed %q: want an integer", v)
			}
		default:
			return item{}, unknownWord(it, w, false)
		}
		if err != nil {
			return item{}, err
		}
		rest = rest[2:]
	}
	if it.count > 1 {
		if !it.healSet && it.lag+it.hold > it.every {
			it.hold = it.every - it.lag
		}
		if it.hold <= 0 {
			return item{}, fmt.Errorf("%s: lag %s leaves no time to heal before every %s", it.word, it.lag, it.every)
		}
		if it.lag+it.hold > it.every {
			return item{}, fmt.Errorf("%s: lasts %s, longer than every %s: the next fault would come before the heal", it.word, it.lag+it.hold, it.every)
		}
	} else if everySet {
		return item{}, fmt.Errorf("%s: every %s needs a count, e.g. x3", it.word, it.every)
	}
	return it, nil
}

var options = []string{"xN", "every D", "after D", "heal D", "partition N", "of ROLE", "seed N"}

func isOption(w string) bool {
	for _, o := range options {
		if strings.Fields(o)[0] == w {
			return true
		}
	}
	return false
}

func unknownWord(it item, w string, missingValue bool) error {
	if missingValue {
		return fmt.Errorf("%s: %s needs a value", it.word, w)
	}
	return fmt.Errorf("%s: unknown word %q: want %s", it.word, w, strings.Join(options, ", "))
}

func duration(name, v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 || d > 24*time.Hour {
		return 0, fmt.Errorf("%s %q: want a duration such as 5s or 1m", name, v)
	}
	return d, nil
}

// expand turns the item into its steps, the first due at start+after. Random kinds are
// drawn here, so the plan (and a dry run) shows what will run, the same for the same seed.
func (it item) expand(start time.Duration) []Step {
	var rng *rand.Rand
	if it.word == "random" {
		rng = rand.New(rand.NewPCG(uint64(it.seed), 0))
	}
	steps := make([]Step, it.count)
	for i := range steps {
		s := Step{At: start + it.after + time.Duration(i)*it.every, Action: it.action, Role: it.role,
			Partition: it.partition, Hold: it.hold, Lag: it.lag}
		if rng != nil {
			word := randomKinds[rng.IntN(len(randomKinds))]
			for _, k := range kinds {
				if k.word == word {
					s.Action, s.Role = k.action, k.role
				}
			}
		}
		steps[i] = s
	}
	return steps
}
