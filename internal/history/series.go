package history

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/kbench/kbench/internal/report"
	"github.com/kbench/kbench/internal/stats"
)

// Series is one figure of one scenario over the runs that measured it alike: the same
// cluster and the same workload, oldest run first.
type Series struct {
	Scenario string             `json:"scenario"`
	Metric   report.TrendMetric `json:"metric"`
	Cluster  Fingerprint        `json:"cluster"`
	Workload Fingerprint        `json:"workload"`
	Points   []Point            `json:"points"`
	// Groups are the stretches of runs at one level and Steps the moves between them
	// (stats.Steps); Noise is the fitted relative noise of one run.
	Groups []Group `json:"groups"`
	Steps  []Step  `json:"steps"`
	Noise  float64 `json:"noise"`
}

// Point is one run's valid repeats of the figure.
type Point struct {
	Dir     string    `json:"run"`
	Started time.Time `json:"started"`
	Values  []float64 `json:"values"`
	Median  float64   `json:"median"`
	Min     float64   `json:"min"`
	Max     float64   `json:"max"`
	// Group is the index of the point's group in Series.Groups.
	Group int `json:"group"`
}

// Group is a stretch of runs at one level: Points[Start:End].
type Group struct {
	Start int     `json:"start"`
	End   int     `json:"end"`
	Level float64 `json:"level"`
}

// Step is a move between two consecutive groups, named by the first run after it.
type Step struct {
	Run    string  `json:"run"`
	Index  int     `json:"index"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Change is After/Before - 1; Worse says whether it goes the worse way for the figure.
	Change     float64 `json:"change"`
	Worse      bool    `json:"worse"`
	Z          float64 `json:"z"`
	Confidence float64 `json:"confidence"`
}

// ParseMetrics reads a comma-separated list of figure names (report.TrendMetrics).
func ParseMetrics(list string) ([]report.TrendMetric, error) {
	known := report.TrendMetrics()
	var out []report.TrendMetric
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(known, func(m report.TrendMetric) bool { return m.Name == name })
		if i < 0 {
			names := make([]string, len(known))
			for j, m := range known {
				names[j] = m.Name
			}
			return nil, fmt.Errorf("unknown metric %q; choose from %s", name, strings.Join(names, ", "))
		}
		out = append(out, known[i])
	}
	return out, nil
}

// Build puts the runs' scenarios into series, one per scenario, figure, cluster and
// workload, for the scenarios named in scenarios (all when empty), and finds each series'
// steps. runs must be oldest first (as Load returns them). Series come in the order their
// scenario first appears, then by figure.
func Build(runs []Run, metrics []report.TrendMetric, scenarios []string) []*Series {
	type key struct{ scenario, metric, cluster, workload string }
	var out []*Series
	byKey := map[key]*Series{}
	for _, r := range runs {
		for _, sp := range r.Scenarios {
			if len(scenarios) > 0 && !slices.Contains(scenarios, sp.ID) {
				continue
			}
			for _, m := range metrics {
				var vals []float64
				for _, rep := range r.rd.Repeats[sp.ID] {
					if !rep.Validity.Valid {
						continue
					}
					// Steps compares ratios: a figure must be positive to take part.
					if v, ok := report.Metric(rep, m.Name); ok && v > 0 && !math.IsInf(v, 0) {
						vals = append(vals, v)
					}
				}
				if len(vals) == 0 {
					continue
				}
				k := key{sp.ID, m.Name, sp.Cluster.ID, sp.Workload.ID}
				s := byKey[k]
				if s == nil {
					s = &Series{Scenario: sp.ID, Metric: m, Cluster: sp.Cluster, Workload: sp.Workload}
					byKey[k] = s
					out = append(out, s)
				}
				sum := stats.Summarize(vals)
				s.Points = append(s.Points, Point{Dir: r.Dir, Started: r.Started, Values: vals,
					Median: sum.Median, Min: sum.Min, Max: sum.Max})
			}
		}
	}
	for _, s := range out {
		s.detect()
	}
	return out
}

// detect cuts the series into groups and names its steps.
func (s *Series) detect() {
	runs := make([][]float64, len(s.Points))
	for i, p := range s.Points {
		runs[i] = p.Values
	}
	res := stats.Steps(runs)
	s.Noise = res.Noise
	for g, grp := range res.Groups {
		s.Groups = append(s.Groups, Group{Start: grp.Start, End: grp.End, Level: grp.Level})
		for i := grp.Start; i < grp.End; i++ {
			s.Points[i].Group = g
		}
	}
	for _, st := range res.Steps {
		worse := st.Change < 0
		if !s.Metric.HigherBetter {
			worse = st.Change > 0
		}
		s.Steps = append(s.Steps, Step{Run: s.Points[st.Run].Dir, Index: st.Run, Before: st.Before, After: st.After,
			Change: st.Change, Worse: worse, Z: st.Z, Confidence: st.Confidence})
	}
}

// Failure is a series whose latest group is worse than the one before by more than a
// threshold: the gate's verdict on it.
type Failure struct {
	Series *Series
	Step   Step
}

func (f Failure) String() string {
	return fmt.Sprintf("%s %s %+.1f%% from %s (%s to %s, z %.1f)", f.Series.Scenario, f.Series.Metric.Label,
		100*f.Step.Change, f.Step.Run, number(f.Step.Before), number(f.Step.After), f.Step.Z)
}

// Gate returns the series whose last step, into their latest group, goes the worse way
// by more than threshold (0.10 for 10%). A step exists only beyond the noise (Steps), so a
// single noisy run inside it never fails the gate, nor does an old step the latest group
// has since recovered from.
func Gate(series []*Series, threshold float64) []Failure {
	var out []Failure
	for _, s := range series {
		if len(s.Steps) == 0 {
			continue
		}
		last := s.Steps[len(s.Steps)-1]
		if last.Worse && math.Abs(last.Change) > threshold {
			out = append(out, Failure{Series: s, Step: last})
		}
	}
	return out
}
