// Package history follows scenarios across many runs: it indexes the run directories it
// is given (the run directories are the store; nothing else is kept), puts the runs that
// measured the same thing into series, finds the steps in each series (stats.Steps), and
// renders the series as text, CSV, JSON or an HTML page with charts.
//
// Two runs of a scenario belong to one series when their cluster and workload facts are
// equal: the facts kbench compare checks (report.ClusterFacts, report.WorkloadFacts), so a
// series never joins runs that compare would refuse to judge.
package history

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/report"
	"github.com/kbench/kbench/internal/results"
)

// Run is one run directory in the index.
type Run struct {
	// Dir is the run directory as the user would type it to kbench report or compare: the
	// directory given joined with the path found under it.
	Dir           string        `json:"dir"`
	Started       time.Time     `json:"started"`
	Study         string        `json:"study"`
	Source        string        `json:"source,omitempty"`
	State         results.State `json:"state"`
	KbenchVersion string        `json:"kbench_version"`
	KafkaVersion  string        `json:"kafka_version,omitempty"`
	// Cluster is the run's cluster; a scenario's own (ScenarioPrint.Cluster) differs only
	// when the study varied the cluster's shape.
	Cluster   Fingerprint     `json:"cluster"`
	Scenarios []ScenarioPrint `json:"scenarios"`

	rd *results.RunDir
}

// ScenarioPrint is one scenario of a run with what it measured on.
type ScenarioPrint struct {
	ID       string      `json:"id"`
	Cluster  Fingerprint `json:"cluster"`
	Workload Fingerprint `json:"workload"`
}

// Fingerprint names a set of facts: two equal sets have the same ID.
type Fingerprint struct {
	// ID is the first 8 hex digits of the SHA-256 of the facts, sorted, one "name=value" a
	// line; facts with an empty value count as unset.
	ID    string            `json:"id"`
	Facts map[string]string `json:"facts"`
}

func fingerprint(facts map[string]string) Fingerprint {
	set := map[string]string{}
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(facts)) {
		if v := facts[k]; v != "" {
			set[k] = v
			fmt.Fprintf(&b, "%s=%s\n", k, v)
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return Fingerprint{ID: hex.EncodeToString(sum[:4]), Facts: set}
}

// ClusterText describes a cluster fingerprint in a few words, for example
// "embedded, 3 brokers, Kafka 4.1.1, PLAINTEXT".
func (f Fingerprint) ClusterText() string {
	var parts []string
	add := func(format, key string) {
		if v, ok := f.Facts[key]; ok && v != "0" {
			parts = append(parts, fmt.Sprintf(format, v))
		}
	}
	add("%s", "cluster")
	add("%s brokers", "brokers")
	add("%s brokers", "cluster brokers")
	add("Kafka %s", "Kafka version")
	add("Kafka %s", "cluster Kafka version")
	add("%s", "cluster broker limits")
	if v, err := strconv.ParseFloat(f.Facts["broker CPU allotment (cores)"], 64); err == nil && v > 0 {
		parts = append(parts, strconv.FormatFloat(v, 'g', 3, 64)+" cores a broker")
	}
	add("%s", "security")
	return strings.Join(parts, ", ")
}

// Skipped is a directory that looked like a run but could not be read.
type Skipped struct {
	Dir string
	Err error
}

// Load indexes the run directories in dirs: each is a run directory itself (it holds
// run.json) or a directory searched at any depth for run directories, so runs moved or
// copied elsewhere are still found. Runs come out oldest first. A run directory that cannot
// be read is reported in skipped, not as an error; an error means a directory in dirs
// could not be searched, or no run was found at all.
func Load(dirs []string) (runs []Run, skipped []Skipped, err error) {
	for _, top := range dirs {
		if _, err := os.Stat(top); errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s does not exist; kbench run writes run directories into runs/, or name the directories that hold them", top)
		} else if err != nil {
			return nil, nil, fmt.Errorf("unable to read run directories: %w", err)
		}
		err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() {
				return nil
			}
			if _, err := os.Stat(filepath.Join(path, results.RunFile)); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			rd, err := results.Read(path)
			if err != nil {
				skipped = append(skipped, Skipped{Dir: path, Err: err})
			} else {
				runs = append(runs, indexRun(rd))
			}
			return filepath.SkipDir // a run's own directories hold no runs
		})
		if err != nil {
			return nil, nil, fmt.Errorf("unable to search %s for runs: %w", top, err)
		}
	}
	if len(runs) == 0 {
		if len(skipped) > 0 {
			return nil, skipped, fmt.Errorf("no readable run directory in %s (%d skipped, the first: %s: %v)",
				strings.Join(dirs, ", "), len(skipped), skipped[0].Dir, skipped[0].Err)
		}
		return nil, nil, fmt.Errorf("no run directory (one holding %s) in %s; kbench run writes them there",
			results.RunFile, strings.Join(dirs, ", "))
	}
	sort.SliceStable(runs, func(i, j int) bool {
		if !runs[i].Started.Equal(runs[j].Started) {
			return runs[i].Started.Before(runs[j].Started)
		}
		return runs[i].Dir < runs[j].Dir
	})
	return runs, skipped, nil
}

func indexRun(rd *results.RunDir) Run {
	run := rd.Run
	r := Run{Dir: rd.Dir, Started: run.Started, Study: run.Study.Name, Source: run.Study.Source, State: run.Status.State,
		KbenchVersion: run.KbenchVersion, KafkaVersion: run.Environment.KafkaVersion,
		Cluster: fingerprint(report.ClusterFacts(&run, "")), rd: rd}
	if r.KbenchVersion == "" {
		r.KbenchVersion = run.Environment.KbenchVersion
	}
	for _, s := range run.Scenarios {
		reps := rd.Repeats[s.ID]
		if len(reps) == 0 {
			continue // not run: nothing measured, no workload recorded
		}
		r.Scenarios = append(r.Scenarios, ScenarioPrint{ID: s.ID,
			Cluster: fingerprint(report.ClusterFacts(&run, s.ID)), Workload: fingerprint(report.WorkloadFacts(reps[0]))})
	}
	return r
}
