package runner

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// Step is one repeat of one scenario in the order a run carries them out.
type Step struct {
	// Repeat is the repeat (from 1), and also the round: every scenario runs repeat r
	// before any runs repeat r+1.
	Repeat int
	// Index is the scenario's position in the study (from 0), ID its identifier.
	Index int
	ID    string
	// Group is the scenario's cluster shape group (from 0), see PlanOrder.
	Group int
}

// OrderKind names the order Order produces, as run.json records it.
const OrderKind = "interleaved"

// Order is the run order of a study: repeat r of every scenario before repeat r+1 of any,
// the scenarios shuffled afresh in each round by a generator seeded with seed. Slow drift
// (JIT warm-up, page cache, log growth) then lands on every scenario alike and shows up as
// spread between repeats instead of a bias between scenarios. The same seed and IDs give
// the same order, so a run can be replayed (kbench run --seed) and resumed.
func Order(ids []string, repeats int, seed uint64) []Step {
	// PCG's second word is fixed: the seed alone picks the stream.
	rng := rand.New(rand.NewPCG(seed, 0x6b62656e6368))
	steps := make([]Step, 0, len(ids)*max(repeats, 0))
	perm := make([]int, len(ids))
	for round := 1; round <= repeats; round++ {
		for i := range perm {
			perm[i] = i
		}
		rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		for _, i := range perm {
			steps = append(steps, Step{Repeat: round, Index: i, ID: ids[i]})
		}
	}
	return steps
}

// NewSeed picks a seed for a run that was given none: small enough to read and type back
// in with --seed.
func NewSeed() uint64 { return rand.Uint64N(1_000_000_000) }

// WriteOrder prints the run order round by round, scenarios numbered as in the plan's
// scenario table (kbench run --dry-run).
func WriteOrder(w io.Writer, steps []Step, seed uint64) error {
	var b strings.Builder
	fmt.Fprintf(&b, "\nrun order (%s, shuffled per round, seed %d; replay with --seed %d):\n", OrderKind, seed, seed)
	grouped := len(steps) > 0 && steps[len(steps)-1].Group > 0
	for i, s := range steps {
		if i > 0 && (steps[i-1].Repeat != s.Repeat || steps[i-1].Group != s.Group) {
			b.WriteString("\n")
		}
		if grouped && (i == 0 || steps[i-1].Group != s.Group) {
			fmt.Fprintf(&b, "  cluster group %d (started and warmed up first):\n", s.Group+1)
		}
		if i == 0 || steps[i-1].Repeat != s.Repeat || steps[i-1].Group != s.Group {
			fmt.Fprintf(&b, "  round %d:", s.Repeat)
		}
		fmt.Fprintf(&b, " %d", s.Index+1)
	}
	if len(steps) > 0 {
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
