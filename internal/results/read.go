package results

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// RunDir is a run directory loaded into memory.
type RunDir struct {
	// Dir is the path the run was read from.
	Dir string
	Run Run
	// Study is the content of study.yaml (nil if the file is missing).
	Study []byte
	// Repeats maps a scenario ID to its repeats in order; scenarios with no finished repeat
	// have no entry.
	Repeats map[string][]Repeat
}

// Read loads the run directory dir: run.json, study.yaml and every repeat file.
func Read(dir string) (*RunDir, error) {
	rd := &RunDir{Dir: dir, Repeats: map[string][]Repeat{}}
	if err := readJSON(filepath.Join(dir, RunFile), &rd.Run); err != nil {
		return nil, err
	}
	if rd.Run.Version > FormatVersion {
		return nil, fmt.Errorf("unable to read %s: format version %d is newer than this kbench reads (%d)",
			filepath.Join(dir, RunFile), rd.Run.Version, FormatVersion)
	}
	study, err := os.ReadFile(filepath.Join(dir, StudyFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("unable to read study file: %w", err)
	}
	rd.Study = study
	ids, err := ListScenarios(dir)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		ns, err := ListRepeats(dir, id)
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			var r Repeat
			path := RepeatPath(dir, id, n)
			if err := readJSON(path, &r); err != nil {
				return nil, err
			}
			if r.Version > FormatVersion {
				return nil, fmt.Errorf("unable to read %s: format version %d is newer than this kbench reads (%d)",
					path, r.Version, FormatVersion)
			}
			rd.Repeats[id] = append(rd.Repeats[id], r)
		}
	}
	return rd, nil
}

// Scenario returns the scenario called id from run.json.
func (rd *RunDir) Scenario(id string) (Scenario, bool) {
	for _, s := range rd.Run.Scenarios {
		if s.ID == id {
			return s, true
		}
	}
	return Scenario{}, false
}

// ListScenarios returns the IDs of the scenarios with a results directory, sorted.
func ListScenarios(dir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, ScenariosDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("unable to list scenarios: %w", err)
	}
	var ids []string
	for _, e := range entries {
		if e.IsDir() {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// ListRepeats returns the repeat numbers written for scenario id, in increasing order.
// Temporary files of an interrupted write are ignored.
func ListRepeats(dir, id string) ([]int, error) {
	entries, err := os.ReadDir(filepath.Join(dir, ScenariosDir, id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // no repeat of this scenario has finished yet
	}
	if err != nil {
		return nil, fmt.Errorf("unable to list repeats of scenario %s: %w", id, err)
	}
	var ns []int
	for _, e := range entries {
		name := e.Name()
		num, ok := strings.CutPrefix(name, "repeat-")
		if !ok {
			continue
		}
		num, ok = strings.CutSuffix(num, ".json")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil || n < 1 {
			continue
		}
		ns = append(ns, n)
	}
	sort.Ints(ns)
	return ns, nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("unable to read run directory: %w", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("unable to decode %s: %w", path, err)
	}
	return nil
}
