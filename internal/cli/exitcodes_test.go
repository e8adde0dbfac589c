package cli

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestExitCodesDocumented: docs/exit-codes.md lists every code of the table, with the same
// number, and no other.
func TestExitCodesDocumented(t *testing.T) {
	raw, err := os.ReadFile("../../docs/exit-codes.md")
	if err != nil {
		t.Fatal(err)
	}
	documented := map[string]bool{}
	for line := range strings.SplitSeq(string(raw), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 2 && strings.TrimSpace(cells[1]) != "code" && !strings.HasPrefix(strings.TrimSpace(cells[1]), "-") {
			documented[strings.TrimSpace(cells[1])] = true
		}
	}
	codes := []int{0, exitFailed, exitRegression, exitNotComparable, exitAllInvalid, exitAnomalies,
		exitNotConverged, exitBlind, exitStep, exitInterrupted}
	seen := map[int]bool{}
	for _, c := range codes {
		if seen[c] {
			t.Errorf("exit code %d has two meanings", c)
		}
		seen[c] = true
		if !documented[fmt.Sprint(c)] {
			t.Errorf("exit code %d is not in docs/exit-codes.md", c)
		}
	}
	if len(documented) != len(codes) {
		t.Errorf("docs/exit-codes.md lists %d codes, the table has %d", len(documented), len(codes))
	}
}
