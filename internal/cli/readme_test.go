package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Every kbench command README.md shows is runnable: its flags exist (cobra refuses an unknown
// flag even beside --help), and a --dry-run command runs as shown.
func TestReadmeCommandsRun(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	commands := readmeCommands(string(b))
	if len(commands) < 10 {
		t.Fatalf("found %d kbench commands in README.md, want the tour's", len(commands))
	}
	for _, args := range commands {
		name := strings.Join(args, " ")
		t.Run(name, func(t *testing.T) {
			if _, stderr, code := runKbench(append(slices.Clone(args), "--help")...); code != 0 {
				t.Errorf("kbench %s --help: exit %d: %s", name, code, stderr)
			}
			if slices.Contains(args, "--dry-run") {
				if _, stderr, code := runKbench(args...); code != 0 {
					t.Errorf("kbench %s: exit %d: %s", name, code, stderr)
				}
			}
		})
	}
}

func TestReadmeCommandsParse(t *testing.T) {
	const md = "text kbench run x\n```sh\nbin/kbench run a.yaml --max-rate 5   # a comment\n" +
		"kbench verify --faults 'leader-kill x3 every 3s' \\\n  --duration 40s\n# kbench not a command\n" +
		"make demo\n```\n```\nkbench cluster up\n```\n"
	want := [][]string{
		{"run", "a.yaml", "--max-rate", "5"},
		{"verify", "--faults", "leader-kill x3 every 3s", "--duration", "40s"},
		{"cluster", "up"},
	}
	got := readmeCommands(md)
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("command %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

// readmeCommands returns the arguments of every command in md's fenced code blocks that
// starts with kbench or bin/kbench, lines continued with a trailing \ joined and a trailing
// # comment dropped.
func readmeCommands(md string) [][]string {
	var out [][]string
	inBlock := false
	pending := ""
	sc := bufio.NewScanner(strings.NewReader(md))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inBlock, pending = !inBlock, ""
			continue
		}
		if !inBlock {
			continue
		}
		if joined, ok := strings.CutSuffix(line, "\\"); ok {
			pending += joined + " "
			continue
		}
		words := shellWords(pending + line)
		pending = ""
		if len(words) > 0 && (words[0] == "kbench" || words[0] == "bin/kbench") {
			out = append(out, words[1:])
		}
	}
	return out
}

// shellWords splits a command line as sh does for the quoting README.md uses: single and
// double quotes group words, and an unquoted # starting a word begins a comment.
func shellWords(line string) []string {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case r == '#' && !inWord:
			return words
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}
