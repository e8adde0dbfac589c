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
	want := []string{"dms-producer", "dms-tps", "kafka08-tuning", "no-data-loss", "quick", "rebalance", "share-groups", "sizes-and-counts"}
	// Studies of kbench's own reproduce no publication: no reference figures to set beside.
	own := map[string]bool{"quick": true, "share-groups": true}
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
			if !own[name] {
				if len(plan.Reference.Scenarios) == 0 || plan.Reference.Source == "" {
					t.Errorf("no reference figures from the source")
				}
				if plan.Source == "" {
					t.Errorf("no source")
				}
			}
			if name != "quick" {
				if !strings.Contains(strings.Join(plan.Notes, " "), "2-core machine") {
					t.Errorf("the notes do not say how the study was scaled for this machine")
				}
			}
			for _, h := range plan.Hypotheses {
				if name != "quick" && h.Note == "" {
					t.Errorf("hypothesis %q has no note saying what the source found", h.Text)
				}
			}
			// every study must finish in reasonable time on the embedded cluster; the
			// largest, sizes-and-counts, runs 27 scenarios three times on two clusters (about
			// 25 minutes, each cluster's warm-up counted at its bound of a minute)
			if d := plan.EstimatedDuration(); d > 26*time.Minute {
				t.Errorf("estimated duration %s is over 26 minutes", d)
			}
		})
	}
}

// TestBuiltinHypotheses pins what every built-in hypothesis compares: the scenario(s) of
// each side, checked by hand against the hypothesis's note and the source's own comparison
// (one setting changed, the rest held). Load already refuses overlapping or ambiguous
// sides; this catches a selector that resolves, but to the wrong scenario.
func TestBuiltinHypotheses(t *testing.T) {
	want := map[string][][2]string{
		"dms-producer": {
			{"batch=16KiB,replicas=1,acks=1", "batch=1KiB,replicas=1,acks=1"},
			{"batch=16KiB,replicas=1,acks=1", "batch=1KiB,replicas=1,acks=1"},
			{"batch=1KiB,replicas=1,acks=1", "batch=1KiB,replicas=3,acks=1"},
			{"batch=1KiB,replicas=3,acks=1", "batch=1KiB,replicas=1,acks=1"},
			{"batch=1KiB,replicas=3,acks=1", "batch=1KiB,replicas=3,acks=-1"},
			{"batch=1KiB,replicas=3,acks=1", "batch=1KiB,replicas=3,acks=-1"},
			{"batch=1KiB,replicas=1,acks=1", "batch=1KiB,replicas=1,acks=1,zone=cross-az"},
			{"batch=1KiB,replicas=1,acks=1", "batch=1KiB,replicas=1,acks=1,zone=cross-az"},
		},
		"dms-tps": {
			{"partitions=30", "listener=sasl"},
			{"partitions=30", "replication=sync"},
			{"partitions=30", "flush=sync"},
			{"partitions=3", "partitions=100"},
			{"partitions=12", "partitions=3"},
			{"broker_cpus=0.5", "broker_cpus=0.25"},
			{"broker_cpus=1", "broker_cpus=0.5"},
			{"disk=ultra-high-io", "disk=high-io"},
		},
		"kafka08-tuning": {
			{"threads=4,batch=10,replicas=1", "threads=1,batch=1,replicas=1"},
			{"threads=4,batch=10,replicas=1", "threads=4,batch=10,replicas=2"},
			{"threads=4,batch=10,replicas=2", "threads=4,batch=10,replicas=2,mode=sync"},
			{"threads=4,batch=10,replicas=1", "threads=4,batch=10,replicas=1,compression=gzip"},
			{"threads=4,batch=10,replicas=1,compression=snappy", "threads=4,batch=10,replicas=1,compression=gzip"},
			{"threads=4,batch=10,replicas=1", "threads=4,batch=10,replicas=1,partitions=3"},
			{"partitions=3,consumers=3", "partitions=3,consumers=1"},
		},
		"no-data-loss": {
			{"partitions=16,batching=on", "partitions=16,batching=off"},
			{"partitions=16,batching=off", "partitions=3,batching=off"},
			{"partitions=16,batching=on", "partitions=16,batching=off"},
		},
		"quick": {
			{"batch=16KiB,acks=1 + batch=16KiB,acks=all", "batch=1KiB,acks=1 + batch=1KiB,acks=all"},
			{"batch=1KiB,acks=1 + batch=16KiB,acks=1", "batch=1KiB,acks=all + batch=16KiB,acks=all"},
		},
		"rebalance": {
			{"protocol=consumer", "protocol=classic"},
			{"protocol=consumer", "protocol=classic"},
			{"protocol=consumer", "protocol=classic"},
			{"protocol=consumer", "protocol=classic"},
		},
		"share-groups": {
			{"group=classic,consumers=3", "group=share,consumers=3"},
			{"group=share,consumers=6", "group=share,consumers=3"},
			{"group=share,consumers=12", "group=share,consumers=6"},
		},
		"sizes-and-counts": {
			{"record_size=10B,producers=1,partitions=6", "record_size=2000B,producers=1,partitions=6"},
			{"record_size=1000B,producers=1,partitions=6", "record_size=10B,producers=1,partitions=6"},
			{"record_size=1000B,producers=3,partitions=6", "record_size=1000B,producers=1,partitions=6"},
			{"record_size=1000B,producers=3,partitions=3", "record_size=1000B,producers=3,partitions=4"},
			{"record_size=1000B,producers=3,partitions=3", "record_size=1000B,producers=3,partitions=2"},
			{"fetch_size=1MiB", "fetch_size=1KiB"},
			{"fetch_size=4MiB", "fetch_size=1MiB"},
			{"messages=500000", "messages=10000"},
			{"producers=6,partitions=2xbrokers,brokers=6", "producers=3,partitions=2xbrokers,brokers=3"},
		},
	}
	for _, name := range Builtins() {
		plan, err := Load(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(plan.Hypotheses) != len(want[name]) {
			t.Errorf("%s: %d hypotheses, want %d", name, len(plan.Hypotheses), len(want[name]))
			continue
		}
		for i, h := range plan.Hypotheses {
			l, r, err := h.Resolve(plan.claimScenarios())
			got := [2]string{strings.Join(l, " + "), strings.Join(r, " + ")}
			if err != nil || got != want[name][i] {
				t.Errorf("%s: %s compares %q with %q (%v), want %q with %q", name, h.Text, got[0], got[1], err, want[name][i][0], want[name][i][1])
			}
		}
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
