package history

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/kbench/kbench/internal/numfmt"
)

// number writes a figure for people: whole with separators from 1,000 on, else three
// significant digits.
func number(v float64) string {
	if math.Abs(v) >= 1000 {
		return numfmt.Whole(v)
	}
	return fmt.Sprintf("%.3g", v)
}

const dateFormat = "2006-01-02 15:04"

// WriteIndex lists the runs, one line each, and under each its scenarios' fingerprints.
func WriteIndex(w io.Writer, runs []Run) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tSTARTED\tSTUDY\tKBENCH\tKAFKA\tCLUSTER\tSTATE")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s %s\t%s\n", r.Dir, r.Started.Format(dateFormat), r.Study,
			r.KbenchVersion, dash(r.KafkaVersion), r.Cluster.ID, r.Cluster.ClusterText(), r.State)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nscenarios (workload fingerprint; runs with equal fingerprints form one series):")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range runs {
		for _, s := range r.Scenarios {
			cluster := ""
			if s.Cluster.ID != r.Cluster.ID {
				cluster = "cluster " + s.Cluster.ID + " " + s.Cluster.ClusterText()
			}
			fmt.Fprintf(tw, "  %s\t%s\tworkload %s\t%s\n", r.Dir, s.ID, s.Workload.ID, cluster)
		}
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// WriteSeries prints each series: its runs with median and range, and its steps.
func WriteSeries(w io.Writer, series []*Series) error {
	for i, s := range series {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s, scenario %s (cluster %s, workload %s): %d runs\n", s.Metric.Label, s.Scenario,
			s.Cluster.ID, s.Workload.ID, len(s.Points))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  run\tstarted\trepeats\tmedian\trange\tgroup\t")
		for _, p := range s.Points {
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%s\t%s - %s\t%d\t\n", p.Dir, p.Started.Format(dateFormat), len(p.Values),
				number(p.Median), number(p.Min), number(p.Max), p.Group+1)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "  noise: ±%.1f%% a run\n", 100*s.Noise)
		if len(s.Steps) == 0 {
			fmt.Fprintf(w, "  no step: one level, %s\n", number(s.Groups[0].Level))
		}
		for _, st := range s.Steps {
			fmt.Fprintf(w, "  %s\n", stepText(s, st))
		}
	}
	return nil
}

// stepText describes a step in one line, e.g. "step at runs/x: 101,200 -> 60,100 records/s
// (-40.6%, worse; z 12.3)".
func stepText(s *Series, st Step) string {
	way := "better"
	if st.Worse {
		way = "worse"
	}
	return fmt.Sprintf("step at %s: %s -> %s %s (%+.1f%%, %s; z %.1f)", st.Run, number(st.Before), number(st.After),
		s.Metric.Label, 100*st.Change, way, st.Z)
}
