package study

import (
	"os"
	"strings"
	"testing"

	"github.com/kbench/kbench/internal/settings"
)

// TestDocsExample keeps the full example of docs/study-format.md loadable.
func TestDocsExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/study-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## A full example\n\n```yaml\n")
	if !ok {
		t.Fatal("no full example in docs/study-format.md")
	}
	example, _, _ := strings.Cut(rest, "```")
	plan, err := Parse("study-format.md", []byte(example))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range plan.Scenarios {
		ids = append(ids, s.ID)
	}
	want := "batch=1KiB,replication=async batch=1KiB,replication=sync batch=16KiB,replication=async batch=16KiB,replication=sync batch=64KiB,replication=async"
	if got := strings.Join(ids, " "); got != want {
		t.Errorf("scenarios:\n got %s\nwant %s", got, want)
	}
	if len(plan.Hypotheses) != 2 || len(plan.Reference.Scenarios) != 1 {
		t.Errorf("%d hypotheses, %d reference scenarios", len(plan.Hypotheses), len(plan.Reference.Scenarios))
	}
}

func TestEmptyNamedValue(t *testing.T) {
	plan, err := Parse("flush.yaml", []byte(`
name: flush
parameters:
  flush:
    every-message: {topic.configs.flush.messages: 1}
    os: {}
matrix:
  flush: [every-message, os]
  topic.configs.segment.bytes: [16MiB]
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := plan.Scenarios[1]; got.ID != "flush=os,topic.configs.segment.bytes=16MiB" || got.Topic.Configs["flush.messages"] != "" || got.Topic.Configs["segment.bytes"] != "16777216" {
		t.Errorf("scenario %s configs %v", got.ID, got.Topic.Configs)
	}
}

// TestDocsListTheCatalogue keeps docs/study-format.md's property tables equal to the
// catalogue: the settable tables list exactly the properties a study may set, with the Java
// defaults, and the refused table every other known one.
func TestDocsListTheCatalogue(t *testing.T) {
	doc, err := os.ReadFile("../../docs/study-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(doc), "### Settable client properties\n")
	settable, rest, _ := strings.Cut(rest, "### Refused client properties\n")
	refused, _, _ := strings.Cut(rest, "\n\n`kbench produce`")

	// firstCells returns the backticked names in the first cell of each table row, with the
	// row's second cell.
	firstCells := func(section string) map[string]string {
		names := map[string]string{}
		for _, line := range strings.Split(section, "\n") {
			cells := strings.Split(line, "|")
			if len(cells) < 3 || !strings.Contains(cells[1], "`") {
				continue
			}
			for _, n := range strings.Split(cells[1], ",") {
				names[strings.Trim(strings.TrimSpace(n), "`")] = strings.TrimSpace(cells[2])
			}
		}
		return names
	}
	wantSettable, wantRefused := map[string]bool{}, map[string]bool{}
	for _, p := range settings.All() {
		if p.Role == settings.Topic {
			continue // TestDocsListTopicConfigs
		}
		if p.Studyable() {
			wantSettable[p.Name] = true
		} else {
			wantRefused[p.Name] = true
		}
	}
	gotSettable := firstCells(settable)
	for name, def := range gotSettable {
		p, ok := settings.Lookup(settings.Producer, name)
		if !ok {
			p, ok = settings.Lookup(settings.Consumer, name)
		}
		switch {
		case !ok || !wantSettable[name]:
			t.Errorf("docs list %s as settable; the catalogue does not", name)
		case def != p.Default && !(def == "(none)" && p.Default == ""):
			t.Errorf("docs give %s's Java default as %q; the catalogue %q", name, def, p.Default)
		}
	}
	gotRefused := firstCells(refused)
	for name := range wantSettable {
		if _, ok := gotSettable[name]; !ok {
			t.Errorf("docs do not list %s, which a study may set", name)
		}
	}
	for name := range wantRefused {
		if _, ok := gotRefused[name]; !ok {
			t.Errorf("docs do not list %s among the refused properties", name)
		}
	}
	for name := range gotRefused {
		if !wantRefused[name] {
			t.Errorf("docs list %s as refused; the catalogue lets a study set it", name)
		}
	}
}

// TestDocsListTheFieldTable keeps docs/study-format.md's field table equal to the one in
// the code: every settable field, its parameter name and its value, nothing more.
func TestDocsListTheFieldTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/study-format.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "<!-- field table: generated from internal/study/fieldtable.go -->\n")
	if !ok {
		t.Fatal("docs/study-format.md has no field table marker")
	}
	got, _, _ := strings.Cut(rest, "\n\n")
	if want := strings.TrimSuffix(fieldsMarkdown(), "\n"); got != want {
		t.Errorf("docs/study-format.md's field table differs from the code's; replace it with:\n%s", want)
	}
}
