package results

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/kbench/kbench/internal/atomicfile"
)

// validID is the shape of a scenario ID: it becomes a directory name.
var validID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._=,+-]*$`)

// DirName returns the name of a run directory for study started at t: "<date>-<study>", for
// example "2026-01-02-quick".
func DirName(t time.Time, study string) string {
	return t.Format("2006-01-02") + "-" + study
}

// Create makes a new run directory under parent (usually "runs") for study started at t and
// returns its path. When "<date>-<study>" exists, a suffix -2, -3, ... is added, so runs of
// the same day never overwrite each other.
func Create(parent string, t time.Time, study string) (string, error) {
	if !validID.MatchString(study) {
		return "", fmt.Errorf("unable to create run directory: study name %q is not a valid directory name", study)
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("unable to create run directory: %w", err)
	}
	base := filepath.Join(parent, DirName(t, study))
	for n := 1; ; n++ {
		dir := base
		if n > 1 {
			dir = fmt.Sprintf("%s-%d", base, n)
		}
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !os.IsExist(err) {
			return "", fmt.Errorf("unable to create run directory %s: %w", dir, err)
		}
	}
}

// WriteRun writes run.json into dir, setting its version and redacting the broker config.
func WriteRun(dir string, r *Run) error {
	c := *r
	c.Version = FormatVersion
	if c.Study.File == "" {
		c.Study.File = StudyFile
	}
	c.Environment.BrokerConfig = Redact(c.Environment.BrokerConfig)
	return writeJSON(filepath.Join(dir, RunFile), &c)
}

// WriteStudy copies the study file's content into dir as study.yaml, with secret values
// (broker configs such as ssl.keystore.password) redacted.
func WriteStudy(dir string, study []byte) error {
	safe, err := RedactStudy(study)
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, StudyFile), safe)
}

// RepeatPath returns the path of the results file of repeat n of scenario id.
func RepeatPath(dir, id string, n int) string {
	return filepath.Join(dir, ScenariosDir, id, fmt.Sprintf("repeat-%d.json", n))
}

// WriteRepeat writes the results file of one repeat, setting its version and redacting every
// property map.
func WriteRepeat(dir string, r *Repeat) error {
	if !validID.MatchString(r.Scenario) {
		return fmt.Errorf("unable to write results: scenario ID %q is not a valid directory name", r.Scenario)
	}
	if r.Repeat < 1 {
		return fmt.Errorf("unable to write results of scenario %s: repeat %d is less than 1", r.Scenario, r.Repeat)
	}
	c := *r
	c.Version = FormatVersion
	c.ProducerConfig = Redact(c.ProducerConfig)
	c.ConsumerConfig = Redact(c.ConsumerConfig)
	c.Workload.ProducerProps = Redact(c.Workload.ProducerProps)
	c.Workload.ConsumerProps = Redact(c.Workload.ConsumerProps)
	c.Topic.Configs = Redact(c.Topic.Configs)
	path := RepeatPath(dir, c.Scenario, c.Repeat)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("unable to write results of scenario %s: %w", c.Scenario, err)
	}
	return writeJSON(path, &c)
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("unable to encode %s: %w", path, err)
	}
	return WriteFileAtomic(path, append(b, '\n'))
}

// WriteFileAtomic writes data to path atomically (see atomicfile).
func WriteFileAtomic(path string, data []byte) error { return atomicfile.Write(path, data, 0o644) }
