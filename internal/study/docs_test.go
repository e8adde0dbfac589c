package study

import (
	"os"
	"strings"
	"testing"
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
