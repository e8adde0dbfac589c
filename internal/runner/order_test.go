package runner

import (
	"slices"
	"strings"
	"testing"
)

func TestOrderProperties(t *testing.T) {
	ids := []string{"a", "b", "c", "d", "e", "f"}
	const repeats = 4
	steps := Order(ids, repeats, 42)
	// 6 scenarios x 4 repeats = 24 steps, each (scenario, repeat) exactly once.
	if len(steps) != 24 {
		t.Fatalf("got %d steps, want 6 x 4 = 24", len(steps))
	}
	seen := map[[2]int]bool{}
	for k, s := range steps {
		key := [2]int{s.Index, s.Repeat}
		if seen[key] {
			t.Errorf("scenario %d repeat %d twice", s.Index, s.Repeat)
		}
		seen[key] = true
		if s.ID != ids[s.Index] {
			t.Errorf("step %d: ID %q for index %d, want %q", k, s.ID, s.Index, ids[s.Index])
		}
		// Round r occupies steps 6(r-1) .. 6r-1: a round completes before the next starts.
		if want := k/len(ids) + 1; s.Repeat != want {
			t.Errorf("step %d is repeat %d, want %d (rounds in turn)", k, s.Repeat, want)
		}
	}
	if !slices.Equal(steps, Order(ids, repeats, 42)) {
		t.Error("the same seed gave a different order")
	}
	if slices.Equal(steps, Order(ids, repeats, 43)) {
		t.Error("seeds 42 and 43 gave the same order")
	}
	// The rounds are shuffled independently: with 6! = 720 orders per round, four equal
	// rounds would be a broken shuffle (chance 1 in 720^3).
	round := func(r int) []int {
		var out []int
		for _, s := range steps[(r-1)*len(ids) : r*len(ids)] {
			out = append(out, s.Index)
		}
		return out
	}
	if slices.Equal(round(1), round(2)) && slices.Equal(round(2), round(3)) && slices.Equal(round(3), round(4)) {
		t.Errorf("every round in the same order %v", round(1))
	}
}

func TestOrderEdges(t *testing.T) {
	if got := Order(nil, 3, 1); len(got) != 0 {
		t.Errorf("no scenarios: %v", got)
	}
	if got := Order([]string{"a"}, 0, 1); len(got) != 0 {
		t.Errorf("no repeats: %v", got)
	}
	want := []Step{{Repeat: 1, Index: 0, ID: "a"}, {Repeat: 2, Index: 0, ID: "a"}}
	if got := Order([]string{"a"}, 2, 7); !slices.Equal(got, want) {
		t.Errorf("one scenario: got %v, want %v", got, want)
	}
}

func TestWriteOrder(t *testing.T) {
	steps := []Step{{Repeat: 1, Index: 1, ID: "b"}, {Repeat: 1, Index: 0, ID: "a"}, {Repeat: 2, Index: 0, ID: "a"}, {Repeat: 2, Index: 1, ID: "b"}}
	var b strings.Builder
	if err := WriteOrder(&b, steps, 9); err != nil {
		t.Fatal(err)
	}
	want := "\nrun order (interleaved, shuffled per round, seed 9; replay with --seed 9):\n  round 1: 2 1\n  round 2: 1 2\n"
	if b.String() != want {
		t.Errorf("got %q\nwant %q", b.String(), want)
	}
}
