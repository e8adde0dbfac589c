package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/study"
)

func TestStudiesCommand(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		contains []string
	}{
		// the list names every built-in study
		{[]string{"studies"}, 0, append([]string{"NAME", "SCENARIOS", "ESTIMATE"}, study.Builtins()...)},
		// one study: its expanded plan
		{[]string{"studies", "quick"}, 0, []string{"study quick:", "batch=16KiB,acks=all", "estimated duration:"}},
		// --yaml: the study file itself
		{[]string{"studies", "quick", "--yaml"}, 0, []string{"name: quick", "matrix:"}},
		{[]string{"studies", "nope"}, 1, []string{`kbench: unable to load study "nope": no built-in study "nope"`}},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(tt.args, &stdout, &stderr)
		if code != tt.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tt.args, code, tt.code, stderr.String())
		}
		out := stdout.String() + stderr.String()
		for _, want := range tt.contains {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output lacks %q:\n%s", tt.args, want, out)
			}
		}
	}
}
