package faults

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"ssh kafka-1 sudo systemctl restart kafka", []string{"ssh", "kafka-1", "sudo", "systemctl", "restart", "kafka"}},
		{"  a\t b  ", []string{"a", "b"}},
		{`kubectl delete pod 'kafka 0'`, []string{"kubectl", "delete", "pod", "kafka 0"}},
		{`sh -c "echo \"hi\" && exit 1"`, []string{"sh", "-c", `echo "hi" && exit 1`}},
		{`echo $HOME ~ *`, []string{"echo", "$HOME", "~", "*"}}, // nothing is expanded
		{`a\ b c`, []string{"a b", "c"}},
		{`x''y ""`, []string{"xy", ""}},
		{"", nil},
	} {
		got, err := splitWords(tc.in)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{`a 'b`, `a "b`, `a\`} {
		if _, err := splitWords(bad); err == nil {
			t.Errorf("splitWords(%q): no error", bad)
		}
	}
}

func TestParseCommands(t *testing.T) {
	got, err := ParseCommands([]string{"1=ssh kafka-1 sudo systemctl restart kafka", "2= kubectl delete pod kafka-1"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got[1], []string{"ssh", "kafka-1", "sudo", "systemctl", "restart", "kafka"}) ||
		!slices.Equal(got[2], []string{"kubectl", "delete", "pod", "kafka-1"}) || len(got) != 2 {
		t.Fatalf("got %q", got)
	}
	for _, tc := range []struct{ in, want string }{
		{"ssh kafka-1", "want BROKER_ID=COMMAND"},
		{"x=ssh", "want BROKER_ID=COMMAND"},
		{"1=", "the command is empty"},
		{"1='ssh", "unterminated ' quote"},
	} {
		if _, err := ParseCommands([]string{tc.in}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseCommands(%q) = %v, want %q", tc.in, err, tc.want)
		}
	}
	if _, err := ParseCommands([]string{"1=a", "1=b"}); err == nil || !strings.Contains(err.Error(), "broker 1 has a command already") {
		t.Errorf("duplicate: %v", err)
	}
}

func TestNewCommandTargetNeedsConfirmation(t *testing.T) {
	cmds := map[int32][]string{1: {"true"}}
	if _, err := NewCommandTarget(cmds, false, nil, "t"); !errors.Is(err, ErrNotConfirmed) {
		t.Errorf("unconfirmed: %v", err)
	}
	if _, err := NewCommandTarget(nil, true, nil, "t"); err == nil {
		t.Error("no commands: no error")
	}
	if _, err := NewCommandTarget(cmds, true, nil, "t"); err != nil {
		t.Error(err)
	}
}
