package study

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestBuiltins checks that every built-in study loads and holds what the report needs.
func TestBuiltins(t *testing.T) {
	names := Builtins()
	want := []string{"dms-producer", "dms-tps", "kafka08-tuning", "no-data-loss", "quick", "sizes-and-counts"}
	if !slices.Equal(names, want) {
		t.Fatalf("Builtins() = %v, want %v", names, want)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			plan, err := Load(name)
			if err != nil {
				t.Fatal(err)
			}
			if plan.Name != name {
				t.Errorf("name %q in file %s.yaml", plan.Name, name)
			}
			if plan.File != "builtin:"+name {
				t.Errorf("File = %q", plan.File)
			}
			if len(plan.Scenarios) < 2 || len(plan.Hypotheses) < 2 || len(plan.Notes) == 0 {
				t.Errorf("%d scenarios, %d hypotheses, %d notes: a built-in study compares, claims and explains",
					len(plan.Scenarios), len(plan.Hypotheses), len(plan.Notes))
			}
			if plan.Cluster.External != nil {
				t.Errorf("built-in studies run on the embedded cluster")
			}
			if name != "quick" {
				if len(plan.Reference.Scenarios) == 0 || plan.Reference.Source == "" {
					t.Errorf("no reference figures from the source")
				}
				if plan.Source == "" {
					t.Errorf("no source")
				}
				if !strings.Contains(strings.Join(plan.Notes, " "), "2-core machine") {
					t.Errorf("the notes do not say how the study was scaled for this machine")
				}
			}
			for _, h := range plan.Hypotheses {
				if name != "quick" && h.Note == "" {
					t.Errorf("hypothesis %q has no note saying what the source found", h.Text)
				}
			}
			// every study must finish in reasonable time on the embedded cluster
			if d := plan.EstimatedDuration(); d > 20*time.Minute {
				t.Errorf("estimated duration %s is over 20 minutes", d)
			}
		})
	}
}

// TestQuickIsQuick holds the demo to its promise: under three minutes, cluster start
// included.
func TestQuickIsQuick(t *testing.T) {
	plan, err := Load("quick")
	if err != nil {
		t.Fatal(err)
	}
	if d := plan.EstimatedDuration(); d >= 3*time.Minute {
		t.Errorf("quick is estimated at %s", d)
	}
	for _, s := range plan.Scenarios {
		if s.Producers.Records != 0 || s.Producers.Duration == 0 {
			t.Errorf("%s: quick scenarios run for a fixed time so the estimate holds", s.ID)
		}
	}
}

func TestReferenceFigures(t *testing.T) {
	plan, err := Load("dms-producer")
	if err != nil {
		t.Fatal(err)
	}
	got := plan.Reference.Scenarios["batch=1KiB,replicas=1,acks=1"].String()
	want := "avg=796.54 broker_cpu_percent=54/55/51.65 max=3838 mb_per_sec=36.81 p50=322 p95=2282 p99=2745 p999=3593 records_per_sec=37696.73"
	if got != want {
		t.Errorf("figures:\n got %s\nwant %s", got, want)
	}
}
